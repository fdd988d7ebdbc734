package io.sf2loki.sim.org;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.nimbusds.jose.JWSAlgorithm;
import com.nimbusds.jose.JWSHeader;
import com.nimbusds.jose.crypto.RSASSASigner;
import com.nimbusds.jwt.JWTClaimsSet;
import com.nimbusds.jwt.SignedJWT;
import io.sf2loki.sim.elf.GeneratedLogFile;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.zip.GZIPInputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SimOrgTest {
  private static KeyPair key;
  private static KeyPair otherKey;
  private static final Instant NOW = Instant.parse("2024-06-05T10:00:00Z");
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient http = HttpClient.newHttpClient();
  private SimOrg org;

  @BeforeAll
  static void keys() throws Exception {
    KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
    g.initialize(2048);
    key = g.generateKeyPair();
    otherKey = g.generateKeyPair();
  }

  @BeforeEach
  void start() throws IOException {
    org =
        SimOrg.builder()
            .jwtPublicKey((RSAPublicKey) key.getPublic())
            .clientId("cid")
            .clientSecret("secret")
            .queryBatchSize(2)
            .clock(InstantSource.fixed(NOW))
            .maxFaultDelay(Duration.ofMillis(200))
            .start();
  }

  @AfterEach
  void stop() {
    org.close();
  }

  // ------------------------------------------------------------ helpers

  private static String jwt(KeyPair signer, String iss, String aud, Instant exp) throws Exception {
    JWTClaimsSet claims =
        new JWTClaimsSet.Builder()
            .issuer(iss)
            .subject("integration@example.com")
            .audience(aud)
            .expirationTime(Date.from(exp))
            .build();
    SignedJWT jwt = new SignedJWT(new JWSHeader(JWSAlgorithm.RS256), claims);
    jwt.sign(new RSASSASigner(signer.getPrivate()));
    return jwt.serialize();
  }

  private HttpResponse<String> postToken(String form) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(org.tokenUrl()))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(form))
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> jwtToken(String assertion) throws Exception {
    return postToken(
        "grant_type="
            + URLEncoder.encode(
                "urn:ietf:params:oauth:grant-type:jwt-bearer", StandardCharsets.UTF_8)
            + "&assertion="
            + assertion);
  }

  private HttpResponse<String> get(String pathAndQuery, String token) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(org.instanceUrl() + pathAndQuery))
            .header("Authorization", "Bearer " + token)
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private HttpResponse<String> query(String soql, String token) throws Exception {
    return get(
        "/services/data/v60.0/query?q=" + URLEncoder.encode(soql, StandardCharsets.UTF_8), token);
  }

  private static String listing(String type, String interval, String since, int limit) {
    return "SELECT Id,EventType,Interval,LogDate,CreatedDate,LogFileLength,Sequence FROM"
        + " EventLogFile WHERE EventType='"
        + type
        + "' AND Interval='"
        + interval
        + "' AND CreatedDate >= "
        + since
        + " ORDER BY CreatedDate, Id LIMIT "
        + limit;
  }

  /** Runs a query and follows nextRecordsUrl; returns all records. */
  private List<JsonNode> queryAll(String soql, String token, List<Integer> batchSizes)
      throws Exception {
    List<JsonNode> out = new ArrayList<>();
    HttpResponse<String> r = query(soql, token);
    while (true) {
      assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
      JsonNode body = JSON.readTree(r.body());
      body.get("records").forEach(out::add);
      batchSizes.add(body.get("records").size());
      if (body.get("done").asBoolean()) {
        return out;
      }
      r = get(body.get("nextRecordsUrl").asText(), token);
    }
  }

  private static Instant t(String s) {
    return Instant.parse(s);
  }

  // ------------------------------------------------------------ OAuth

  @Test
  @DisplayName("AUTH-3: a JWT signed by the configured key mints a token usable on userinfo")
  void jwtBearerMintsToken() throws Exception {
    HttpResponse<String> r =
        jwtToken(jwt(key, "cid", "https://login.salesforce.com", NOW.plusSeconds(180)));
    assertThat(r.statusCode()).isEqualTo(200);
    JsonNode body = JSON.readTree(r.body());
    assertThat(body.get("instance_url").asText()).isEqualTo(org.instanceUrl());
    assertThat(body.get("token_type").asText()).isEqualTo("Bearer");
    assertThat(body.get("issued_at").asText()).isEqualTo(Long.toString(NOW.toEpochMilli()));
    assertThat(body.has("id")).isTrue();
    assertThat(body.has("signature")).isTrue();

    HttpResponse<String> ui = get("/services/oauth2/userinfo", body.get("access_token").asText());
    assertThat(ui.statusCode()).isEqualTo(200);
    assertThat(JSON.readTree(ui.body()).get("organization_id").asText())
        .isEqualTo("00Dxx0000000001EAA");
    assertThat(org.callCount("token")).isEqualTo(1);
    assertThat(org.callCount(SimEndpoint.USERINFO)).isEqualTo(1);
  }

  @Test
  @DisplayName("AUTH-3: wrong signature, expired assertion, wrong issuer or audience are refused")
  void jwtBearerRejections() throws Exception {
    HttpResponse<String> wrongKey =
        jwtToken(jwt(otherKey, "cid", "https://login.salesforce.com", NOW.plusSeconds(180)));
    assertThat(wrongKey.statusCode()).isEqualTo(400);
    assertThat(JSON.readTree(wrongKey.body()).get("error").asText()).isEqualTo("invalid_grant");

    HttpResponse<String> expired =
        jwtToken(jwt(key, "cid", "https://login.salesforce.com", NOW.minusSeconds(1)));
    assertThat(expired.statusCode()).isEqualTo(400);
    assertThat(JSON.readTree(expired.body()).get("error").asText()).isEqualTo("invalid_grant");

    HttpResponse<String> aud =
        jwtToken(jwt(key, "cid", "https://example.my.salesforce.com", NOW.plusSeconds(180)));
    assertThat(JSON.readTree(aud.body()).get("error_description").asText())
        .isEqualTo("audience is invalid");

    HttpResponse<String> iss =
        jwtToken(jwt(key, "other", "https://test.salesforce.com", NOW.plusSeconds(180)));
    assertThat(iss.statusCode()).isEqualTo(400);
    assertThat(JSON.readTree(iss.body()).get("error").asText()).isEqualTo("invalid_client_id");

    assertThat(jwtToken("not-a-jwt").statusCode()).isEqualTo(400);
  }

  @Test
  @DisplayName("AUTH-4: client credentials check id and secret")
  void clientCredentials() throws Exception {
    HttpResponse<String> ok =
        postToken("grant_type=client_credentials&client_id=cid&client_secret=secret");
    assertThat(ok.statusCode()).isEqualTo(200);
    assertThat(JSON.readTree(ok.body()).get("access_token").asText())
        .startsWith("00Dxx0000000001!");

    HttpResponse<String> bad =
        postToken("grant_type=client_credentials&client_id=cid&client_secret=nope");
    assertThat(bad.statusCode()).isEqualTo(400);
    assertThat(JSON.readTree(bad.body()).get("error").asText()).isEqualTo("invalid_client");

    HttpResponse<String> grant = postToken("grant_type=password");
    assertThat(JSON.readTree(grant.body()).get("error").asText())
        .isEqualTo("unsupported_grant_type");
  }

  @Test
  @DisplayName("AUTH-7: unknown or expired tokens get 401 INVALID_SESSION_ID")
  void invalidSession() throws Exception {
    String token = org.issueToken();
    assertThat(query(listing("Login", "Hourly", "2024-01-01T00:00:00Z", 10), token).statusCode())
        .isEqualTo(200);
    org.expireAllTokens();
    HttpResponse<String> r = query(listing("Login", "Hourly", "2024-01-01T00:00:00Z", 10), token);
    assertThat(r.statusCode()).isEqualTo(401);
    assertThat(r.body())
        .isEqualTo(
            "[{\"message\":\"Session expired or invalid\",\"errorCode\":\"INVALID_SESSION_ID\"}]");
    assertThat(get("/services/oauth2/userinfo", "garbage").statusCode()).isEqualTo(401);
  }

  @Test
  @DisplayName(
      "PS-20, FEAT-18: GET /sobjects/ lists ordinary objects and the served EventStream objects,"
          + " needs a valid token and is counted")
  void describeGlobal() throws Exception {
    String token = org.issueToken();
    HttpResponse<String> r = get("/services/data/v60.0/sobjects/", token);
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    assertThat(r.headers().firstValue("Content-Type"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("application/json"));
    JsonNode body = JSON.readTree(r.body());
    assertThat(body.get("encoding").asText()).isEqualTo("UTF-8");
    assertThat(body.get("maxBatchSize").asInt()).isEqualTo(200);
    List<String> names = new ArrayList<>();
    body.get("sobjects").forEach(o -> names.add(o.get("name").asText()));
    assertThat(names)
        .contains("Account", "Contact", "EventLogFile", "LoginEventStream", "ApiEventStream");
    assertThat(names.stream().filter(n -> n.endsWith("EventStream")))
        .containsExactlyInAnyOrder("LoginEventStream", "ApiEventStream");
    JsonNode account = body.get("sobjects").get(names.indexOf("Account"));
    assertThat(account.get("keyPrefix").asText()).isEqualTo("001");
    assertThat(account.get("urls").get("sobject").asText())
        .isEqualTo("/services/data/v60.0/sobjects/Account");
    assertThat(get("/services/data/v60.0/sobjects", token).statusCode()).isEqualTo(200);

    HttpResponse<String> unauthorised = get("/services/data/v60.0/sobjects/", "garbage");
    assertThat(unauthorised.statusCode()).isEqualTo(401);
    assertThat(unauthorised.body()).contains("INVALID_SESSION_ID");
    assertThat(org.callCount(SimEndpoint.SOBJECTS)).isEqualTo(3);
    assertThat(org.callCount("sobjects")).isEqualTo(3);

    org.faults().add(SimEndpoint.SOBJECTS, Fault.status(503));
    assertThat(get("/services/data/v60.0/sobjects/", token).statusCode()).isEqualTo(503);
  }

  @Test
  @DisplayName("PS-20: the describe global lists the configured sObjects")
  void describeGlobalConfigured() throws Exception {
    try (SimOrg o = SimOrg.builder().sobjects(List.of("Foo__e", "BarEventStream")).start()) {
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(URI.create(o.instanceUrl() + "/services/data/v60.0/sobjects/"))
                  .header("Authorization", "Bearer " + o.issueToken())
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      List<String> names = new ArrayList<>();
      JSON.readTree(r.body()).get("sobjects").forEach(n -> names.add(n.get("name").asText()));
      assertThat(names).containsExactly("Foo__e", "BarEventStream");
    }
  }

  @Test
  @DisplayName("AUTH-2: tokens expire after the configured TTL on the injected clock")
  void tokenTtl() throws Exception {
    Instant[] now = {NOW};
    try (SimOrg o = SimOrg.builder().clock(() -> now[0]).tokenTtl(Duration.ofMinutes(5)).start()) {
      String token = o.issueToken();
      HttpRequest req =
          HttpRequest.newBuilder(URI.create(o.instanceUrl() + "/services/oauth2/userinfo"))
              .header("Authorization", "Bearer " + token)
              .build();
      assertThat(http.send(req, HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(200);
      now[0] = NOW.plus(Duration.ofMinutes(5));
      assertThat(http.send(req, HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(401);
    }
  }

  // ------------------------------------------------------------ query

  @Test
  @DisplayName("SRC-17: results split into batches followed through nextRecordsUrl (3 batches)")
  void pagingAcrossThreeBatches() throws Exception {
    for (int i = 0; i < 5; i++) {
      org.addLogFile(
          "Login",
          "Hourly",
          t("2024-06-05T04:00:00Z"),
          t("2024-06-05T07:00:0" + i + "Z"),
          ("\"A\"\n\"" + i + "\"\n").getBytes(StandardCharsets.UTF_8));
    }
    String token = org.issueToken();
    List<Integer> sizes = new ArrayList<>();
    List<JsonNode> all =
        queryAll(listing("Login", "Hourly", "2024-06-05T00:00:00.000Z", 200), token, sizes);
    assertThat(sizes).containsExactly(2, 2, 1);
    assertThat(all).extracting(n -> n.get("Sequence").asInt()).containsExactly(1, 2, 3, 4, 5);
    assertThat(org.callCount("query")).isEqualTo(1);
    assertThat(org.callCount("queryMore")).isEqualTo(2);
    JsonNode first = all.get(0);
    assertThat(first.get("attributes").get("type").asText()).isEqualTo("EventLogFile");
    assertThat(first.get("LogFileLength").isDouble()).isTrue();
    assertThat(first.get("LogFileLength").asDouble()).isEqualTo(8.0);
    assertThat(first.get("CreatedDate").asText()).isEqualTo("2024-06-05T07:00:00.000+0000");
    assertThat(first.get("LogDate").asText()).isEqualTo("2024-06-05T04:00:00.000+0000");

    HttpResponse<String> r = query(listing("Login", "Hourly", "2024-06-05T00:00:00Z", 200), token);
    assertThat(r.headers().firstValue("Sforce-Limit-Info").orElseThrow())
        .matches("api-usage=\\d+/15000");
    assertThat(r.headers().firstValue("Date")).isPresent();
  }

  @Test
  @DisplayName(
      "ELF-5: EventType, Interval and CreatedDate >= filters, ORDER BY CreatedDate, Id, LIMIT")
  void filterOrderLimit() throws Exception {
    byte[] csv = "\"A\"\n\"1\"\n".getBytes(StandardCharsets.UTF_8);
    String late =
        org.addLogFile(
            "Login", "Hourly", t("2024-06-05T05:00:00Z"), t("2024-06-05T09:00:00Z"), csv);
    String tieB =
        org.addLogFile(
            "Login", "Hourly", t("2024-06-05T04:00:00Z"), t("2024-06-05T08:00:00Z"), csv);
    String tieA =
        org.addLogFile(
            "Login", "Hourly", t("2024-06-05T04:00:00Z"), t("2024-06-05T08:00:00Z"), csv);
    String old =
        org.addLogFile(
            "Login", "Hourly", t("2024-06-05T03:00:00Z"), t("2024-06-05T06:59:59.999Z"), csv);
    org.addLogFile("Logout", "Hourly", t("2024-06-05T04:00:00Z"), t("2024-06-05T08:30:00Z"), csv);
    org.addLogFile("Login", "Daily", t("2024-06-04T00:00:00Z"), t("2024-06-05T08:30:00Z"), csv);
    String token = org.issueToken();

    List<JsonNode> all =
        queryAll(
            listing("Login", "Hourly", "2024-06-05T07:00:00.000Z", 200), token, new ArrayList<>());
    // tieB was added before tieA, so its Id sorts first
    assertThat(all).extracting(n -> n.get("Id").asText()).containsExactly(tieB, tieA, late);
    assertThat(old).isNotIn(all.stream().map(n -> n.get("Id").asText()).toList());

    List<JsonNode> limited =
        queryAll(listing("Login", "Hourly", "2024-06-05T07:00:00Z", 2), token, new ArrayList<>());
    assertThat(limited).extracting(n -> n.get("Id").asText()).containsExactly(tieB, tieA);

    List<JsonNode> daily =
        queryAll(
            "SELECT Id,EventType,LogDate,CreatedDate,LogFileLength FROM EventLogFile WHERE"
                + " EventType='Login' AND CreatedDate >= 2024-06-01T00:00:00Z ORDER BY"
                + " CreatedDate, Id LIMIT 10",
            token,
            new ArrayList<>());
    assertThat(daily).hasSize(5);
    assertThat(daily.get(0).has("Interval")).isFalse();

    List<JsonNode> types =
        queryAll(
            "SELECT EventType FROM EventLogFile WHERE Interval='Hourly' GROUP BY EventType",
            token,
            new ArrayList<>());
    assertThat(types)
        .extracting(n -> n.get("EventType").asText())
        .containsExactly("Login", "Logout");
  }

  @Test
  @DisplayName(
      "SRC-17: unknown query shapes are 400 MALFORMED_QUERY; ELF-5 INVALID_FIELD without hourly")
  void malformedAndInvalidField() throws Exception {
    String token = org.issueToken();
    HttpResponse<String> r = query("SELECT Id FROM EventLogFile WHERE Id NOT IN ('x')", token);
    assertThat(r.statusCode()).isEqualTo(400);
    assertThat(JSON.readTree(r.body()).get(0).get("errorCode").asText())
        .isEqualTo("MALFORMED_QUERY");
    assertThat(query("SELECT Foo FROM EventLogFile", token).body()).contains("INVALID_FIELD");
    assertThat(get("/services/data/v60.0/query/01gbogus-2", token).body())
        .contains("INVALID_QUERY_LOCATOR");

    try (SimOrg daily = SimOrg.builder().hourlyAvailable(false).start()) {
      HttpResponse<String> d =
          http.send(
              HttpRequest.newBuilder(
                      URI.create(
                          daily.instanceUrl()
                              + "/services/data/v60.0/query?q="
                              + URLEncoder.encode(
                                  listing("Login", "Daily", "2024-06-01T00:00:00Z", 5),
                                  StandardCharsets.UTF_8)))
                  .header("Authorization", "Bearer " + daily.issueToken())
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(d.statusCode()).isEqualTo(400);
      assertThat(d.body()).contains("INVALID_FIELD").contains("'Interval'");
    }
  }

  // ------------------------------------------------------------ download

  @Test
  @DisplayName("ELF-8/ELF-16: LogFile download, plain and gzip-encoded")
  void downloadPlainAndGzip() throws Exception {
    byte[] csv = "\"EVENT_TYPE\"\n\"Login\"\n".getBytes(StandardCharsets.UTF_8);
    String id = org.addLogFile("Login", "Hourly", t("2024-06-05T04:00:00Z"), NOW, csv);
    String path = "/services/data/v60.0/sobjects/EventLogFile/" + id + "/LogFile";
    String token = org.issueToken();

    HttpResponse<byte[]> plain =
        http.send(
            HttpRequest.newBuilder(URI.create(org.instanceUrl() + path))
                .header("Authorization", "Bearer " + token)
                .build(),
            HttpResponse.BodyHandlers.ofByteArray());
    assertThat(plain.statusCode()).isEqualTo(200);
    assertThat(plain.headers().firstValue("Content-Type")).hasValue("application/octetstream");
    assertThat(plain.headers().firstValue("Content-Encoding")).isEmpty();
    assertThat(plain.body()).isEqualTo(csv);

    HttpResponse<byte[]> gz =
        http.send(
            HttpRequest.newBuilder(URI.create(org.instanceUrl() + path))
                .header("Authorization", "Bearer " + token)
                .header("Accept-Encoding", "gzip")
                .build(),
            HttpResponse.BodyHandlers.ofByteArray());
    assertThat(gz.headers().firstValue("Content-Encoding")).hasValue("gzip");
    assertThat(new GZIPInputStream(new java.io.ByteArrayInputStream(gz.body())).readAllBytes())
        .isEqualTo(csv);

    assertThat(
            get("/services/data/v60.0/sobjects/EventLogFile/0AT000000000999AAA/LogFile", token)
                .statusCode())
        .isEqualTo(404);
    assertThat(org.callCount("logfile")).isEqualTo(3);
  }

  @Test
  @DisplayName("ELF-8: a generated file streams the generator's rows")
  void generatedDownload() throws Exception {
    GeneratedLogFile g =
        org.addGeneratedLogFile("Login", "Hourly", t("2024-06-05T04:00:00Z"), NOW, 500, 42);
    String token = org.issueToken();
    HttpResponse<InputStream> r =
        http.send(
            HttpRequest.newBuilder(
                    URI.create(
                        org.instanceUrl()
                            + "/services/data/v60.0/sobjects/EventLogFile/"
                            + g.id()
                            + "/LogFile"))
                .header("Authorization", "Bearer " + token)
                .build(),
            HttpResponse.BodyHandlers.ofInputStream());
    ByteArrayOutputStream bos = new ByteArrayOutputStream();
    try (InputStream in = r.body()) {
      in.transferTo(bos);
    }
    assertThat(bos.toByteArray()).isEqualTo(g.generator().csv(500));
    assertThat(g.length()).isEqualTo(bos.size());
  }

  // ------------------------------------------------------------ faults

  @Test
  @DisplayName("FEAT-18: status faults apply N times, then the endpoint recovers")
  void statusFaultTimes() throws Exception {
    String token = org.issueToken();
    org.faults().add(SimEndpoint.QUERY, Fault.status(500).times(3));
    String soql = listing("Login", "Hourly", "2024-06-05T00:00:00Z", 5);
    for (int i = 0; i < 3; i++) {
      assertThat(query(soql, token).statusCode()).isEqualTo(500);
    }
    assertThat(query(soql, token).statusCode()).isEqualTo(200);
    assertThat(org.callCount("query")).isEqualTo(4);
  }

  @Test
  @DisplayName("SRC-17: 403 REQUEST_LIMIT_EXCEEDED, non-JSON 200, until-cleared faults")
  void salesforceErrorAndNonJson() throws Exception {
    String token = org.issueToken();
    String soql = listing("Login", "Hourly", "2024-06-05T00:00:00Z", 5);
    org.faults()
        .add(
            "query",
            Fault.salesforceError(403, "REQUEST_LIMIT_EXCEEDED", "TotalRequests Limit exceeded."))
        .add("query", Fault.nonJson200());
    HttpResponse<String> r = query(soql, token);
    assertThat(r.statusCode()).isEqualTo(403);
    assertThat(r.body())
        .isEqualTo(
            "[{\"message\":\"TotalRequests Limit exceeded.\",\"errorCode\":\"REQUEST_LIMIT_EXCEEDED\"}]");
    HttpResponse<String> html = query(soql, token);
    assertThat(html.statusCode()).isEqualTo(200);
    assertThat(html.body()).startsWith("<html>");

    org.faults().add(SimEndpoint.TOKEN, Fault.status(503).untilCleared());
    for (int i = 0; i < 3; i++) {
      assertThat(
              postToken("grant_type=client_credentials&client_id=cid&client_secret=secret")
                  .statusCode())
          .isEqualTo(503);
    }
    org.faults().clear();
    assertThat(
            postToken("grant_type=client_credentials&client_id=cid&client_secret=secret")
                .statusCode())
        .isEqualTo(200);
  }

  @Test
  @DisplayName("ELF-12: per-file download faults, truncated bodies and bounded delays")
  void downloadFaults() throws Exception {
    byte[] csv = ("\"A\"\n" + "\"x\"\n".repeat(1000)).getBytes(StandardCharsets.UTF_8);
    String bad = org.addLogFile("Login", "Hourly", t("2024-06-05T04:00:00Z"), NOW, csv);
    String good = org.addLogFile("Login", "Hourly", t("2024-06-05T04:00:00Z"), NOW, csv);
    String token = org.issueToken();
    org.faults().failDownload(bad, Fault.status(500).times(2));
    String badPath = "/services/data/v60.0/sobjects/EventLogFile/" + bad + "/LogFile";
    String goodPath = "/services/data/v60.0/sobjects/EventLogFile/" + good + "/LogFile";
    assertThat(get(goodPath, token).statusCode()).isEqualTo(200);
    assertThat(get(badPath, token).statusCode()).isEqualTo(500);
    assertThat(get(badPath, token).statusCode()).isEqualTo(500);
    assertThat(get(badPath, token).statusCode()).isEqualTo(200);

    org.faults().add(SimEndpoint.LOGFILE, Fault.truncatedBody());
    assertThatThrownBy(() -> get(goodPath, token)).isInstanceOf(IOException.class);
    assertThat(get(goodPath, token).statusCode()).isEqualTo(200);

    org.faults().add(SimEndpoint.LOGFILE, Fault.delay(Duration.ofSeconds(10)));
    long start = System.nanoTime();
    assertThat(get(goodPath, token).statusCode()).isEqualTo(200);
    long tookMs = (System.nanoTime() - start) / 1_000_000;
    assertThat(tookMs).isBetween(150L, 5_000L); // capped at maxFaultDelay = 200 ms
  }

  @Test
  @DisplayName("ELF-6: a regenerated file keeps its Id and gets a later CreatedDate")
  void regenerate() throws Exception {
    String id =
        org.addLogFile(
            "Login",
            "Daily",
            t("2024-06-04T00:00:00Z"),
            t("2024-06-05T02:00:00Z"),
            new byte[] {'a'});
    org.regenerateLogFile(id, t("2024-06-05T05:00:00Z"), new byte[] {'b', 'c'});
    List<JsonNode> all =
        queryAll(
            listing("Login", "Daily", "2024-06-05T03:00:00Z", 10),
            org.issueToken(),
            new ArrayList<>());
    assertThat(all).hasSize(1);
    assertThat(all.get(0).get("Id").asText()).isEqualTo(id);
    assertThat(all.get(0).get("Sequence").asInt()).isZero();
    assertThat(all.get(0).get("LogFileLength").asDouble()).isEqualTo(2.0);
  }
}
