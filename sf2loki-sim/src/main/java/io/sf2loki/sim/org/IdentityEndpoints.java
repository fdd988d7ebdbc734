package io.sf2loki.sim.org;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The org's identity endpoints: {@code POST /services/oauth2/token} (JWT bearer and client
 * credentials grants, AUTH-1…AUTH-3), {@code GET /services/oauth2/userinfo} and the describe global
 * {@code GET /services/data/v{api}/sobjects/} (PS-20 discovery). Thread-safe.
 */
final class IdentityEndpoints {
  private static final Logger log = LoggerFactory.getLogger(SimOrg.class);
  private static final String JWT_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer";
  private static final Map<String, String> KEY_PREFIXES =
      Map.of("Account", "001", "Contact", "003", "EventLogFile", "0AT");

  /** Who the org is. */
  record Identity(String orgId, String userId, String username, String apiVersion) {}

  /** The OAuth client the org accepts; {@code jwt} null when the JWT grant is refused. */
  record Client(JwtAssertionVerifier jwt, String clientId, String clientSecret) {}

  private final String orgId;
  private final String userId;
  private final String username;
  private final String apiVersion;
  private final JwtAssertionVerifier jwt;
  private final String clientId;
  private final String clientSecret;
  private final List<String> sobjects;
  private final InstantSource clock;
  private final Supplier<String> baseUrl;
  private final Supplier<String> tokens;
  private final SimResponses respond;

  IdentityEndpoints(
      Identity id,
      Client client,
      List<String> sobjects,
      InstantSource clock,
      Supplier<String> baseUrl,
      Supplier<String> tokens,
      SimResponses respond) {
    this.orgId = id.orgId();
    this.userId = id.userId();
    this.username = id.username();
    this.apiVersion = id.apiVersion();
    this.jwt = client.jwt();
    this.clientId = client.clientId();
    this.clientSecret = client.clientSecret();
    this.sobjects = sobjects;
    this.clock = clock;
    this.baseUrl = baseUrl;
    this.tokens = tokens;
    this.respond = respond;
  }

  void token(HttpExchange ex) throws IOException {
    Map<String, String> form = SimResponses.parseForm(SimResponses.readBody(ex));
    String grant = form.getOrDefault("grant_type", "");
    String subject;
    if (grant.equals(JWT_GRANT)) {
      if (jwt == null) {
        respond.oauthError(ex, 400, "invalid_grant", "invalid assertion");
        return;
      }
      try {
        subject = jwt.verify(form.get("assertion"));
      } catch (JwtAssertionVerifier.OAuthError e) {
        respond.oauthError(ex, 400, e.error, e.getMessage());
        return;
      }
    } else if (grant.equals("client_credentials")) {
      if (clientId == null || !clientId.equals(form.get("client_id"))) {
        respond.oauthError(ex, 400, "invalid_client_id", "client identifier invalid");
        return;
      }
      if (clientSecret == null || !clientSecret.equals(form.get("client_secret"))) {
        respond.oauthError(ex, 400, "invalid_client", "invalid client credentials");
        return;
      }
      subject = username;
    } else {
      respond.oauthError(ex, 400, "unsupported_grant_type", "grant type not supported");
      return;
    }
    String token = tokens.get();
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("access_token", token);
    body.put(
        "signature",
        Base64.getEncoder().encodeToString(token.getBytes(StandardCharsets.UTF_8)).substring(0, 43)
            + "=");
    body.put("scope", "api");
    body.put("instance_url", baseUrl.get());
    body.put("id", baseUrl.get() + "/id/" + orgId + "/" + userId);
    body.put("token_type", "Bearer");
    body.put("issued_at", Long.toString(clock.millis()));
    log.atDebug().addKeyValue("grant_type", grant).addKeyValue("sub", subject).log("token issued");
    respond.json(ex, 200, body);
  }

  void userinfo(HttpExchange ex) throws IOException {
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("sub", baseUrl.get() + "/id/" + orgId + "/" + userId);
    body.put("user_id", userId);
    body.put("organization_id", orgId);
    body.put("preferred_username", username);
    body.put("nickname", username.split("@")[0]);
    body.put("name", "Simulated Integration User");
    body.put("email", username);
    body.put("email_verified", true);
    body.put("zoneinfo", "GMT");
    body.put("active", true);
    body.put("user_type", "STANDARD");
    body.put("language", "en_US");
    body.put("locale", "en_US");
    body.put("utcOffset", 0);
    Map<String, Object> urls = new LinkedHashMap<>();
    urls.put("rest", baseUrl.get() + "/services/data/v{version}/");
    urls.put("query", baseUrl.get() + "/services/data/v{version}/query/");
    urls.put("sobjects", baseUrl.get() + "/services/data/v{version}/sobjects/");
    urls.put("custom_domain", baseUrl.get());
    body.put("urls", urls);
    respond.json(ex, 200, body);
  }

  void describeGlobal(HttpExchange ex) throws IOException {
    String base = "/services/data/v" + apiVersion + "/sobjects/";
    List<Map<String, Object>> list = new ArrayList<>(sobjects.size());
    for (String name : sobjects) {
      boolean stream = name.endsWith("Event") || name.endsWith("EventStream"); // platform events
      String label = name.replaceAll("(?<=[a-z])(?=[A-Z])", " ");
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("activateable", false);
      o.put("createable", !stream);
      o.put("custom", name.endsWith("__c") || name.endsWith("__e"));
      o.put("customSetting", false);
      o.put("deletable", !stream);
      o.put("keyPrefix", KEY_PREFIXES.get(name));
      o.put("label", label);
      o.put("labelPlural", label + "s");
      o.put("layoutable", !stream);
      o.put("name", name);
      o.put("queryable", !stream);
      o.put("retrieveable", !stream);
      o.put("searchable", !stream);
      o.put("triggerable", !stream);
      o.put("updateable", !stream);
      Map<String, Object> urls = new LinkedHashMap<>();
      urls.put("sobject", base + name);
      urls.put("describe", base + name + "/describe");
      urls.put("rowTemplate", base + name + "/{ID}");
      o.put("urls", urls);
      list.add(o);
    }
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("encoding", "UTF-8");
    body.put("maxBatchSize", 200);
    body.put("sobjects", list);
    respond.json(ex, 200, body);
  }
}
