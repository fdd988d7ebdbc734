package io.sf2loki.app.doctor;

import io.sf2loki.app.config.OrgConfig;
import io.sf2loki.app.config.SalesforceConfig;
import io.sf2loki.app.run.Components;
import io.sf2loki.salesforce.auth.AccessToken;
import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.elf.EventLogFileSettings.EventTypeSettings;
import io.sf2loki.salesforce.rest.SalesforceException;
import io.sf2loki.salesforce.rest.SoqlException;
import java.net.URI;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * DOC-2 rows 2, 3, 5, 6 and 12 against the org's real REST endpoints, through the daemon's clients
 * ({@link Components.Org}).
 */
final class SalesforceChecks {
  private static final DateTimeFormatter SOQL_DATETIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'", Locale.ROOT)
          .withZone(ZoneOffset.UTC);

  /** DOC-2 row 12: WARN when less than this share of the daily API requests remains. */
  static final double LIMITS_WARN_SHARE = 0.20;

  private final OrgConfig org;
  private final Components.Org clients;
  private final String path;

  /**
   * @param path the dotted path of the org's {@code salesforce} block, named in hints ({@code
   *     salesforce}, or {@code orgs.<i>.salesforce} in multi-org mode)
   */
  SalesforceChecks(OrgConfig org, Components.Org clients, String path) {
    this.org = org;
    this.clients = clients;
    this.path = path;
  }

  /** What the auth row learned: the org id when it passed. */
  record AuthResult(Check check, String orgId) {}

  /** Row 2: mint a token and resolve the org id (AUTH-1, AUTH-8). */
  AuthResult auth() throws InterruptedException {
    SalesforceConfig sf = org.salesforce();
    try {
      AccessToken t = clients.tokens().mint();
      String orgId = clients.orgIds().orgId();
      return new AuthResult(
          Check.pass(
              "auth",
              "flow="
                  + sf.authMode().name().toLowerCase(java.util.Locale.ROOT)
                  + " instance_url="
                  + Components.scrub(t.instanceUrl().toString())
                  + " org_id="
                  + orgId),
          orgId);
    } catch (AuthException e) {
      return new AuthResult(Check.fail("auth", e.getMessage() + authHint(sf, e, path)), null);
    }
  }

  /** The operator's hint for a failed mint (DOC-2 row 2), starting with {@code " — hint: "}. */
  static String authHint(SalesforceConfig sf, AuthException e, String path) {
    boolean jwt = sf.authMode() == io.sf2loki.salesforce.auth.AuthMode.JWT_BEARER;
    String code = e.errorCode() == null ? "" : e.errorCode();
    String host = hostOf(sf.loginUrl());
    String hint;
    if (!jwt && (host.equals("login.salesforce.com") || host.equals("test.salesforce.com"))) {
      hint =
          "client_credentials needs the org's My Domain URL as "
              + path
              + ".login_url, not the"
              + " generic login host "
              + host;
    } else if (code.equals("invalid_grant") && jwt) {
      hint =
          "user not pre-authorised for the connected app, certificate mismatch, or wrong audience"
              + " for My Domain: check the connected app's policies and certificate, the username,"
              + " and "
              + path
              + ".jwt_audience (AUTH-3)";
    } else if (code.equals("invalid_client_id")) {
      hint =
          path
              + ".client_id is not the consumer key of a connected app in this org (or the"
              + " app is not yet available: new connected apps take up to 10 minutes)";
    } else if (code.equals("invalid_client")) {
      hint = path + ".client_secret does not match the connected app's consumer secret";
    } else if (code.equals("unsupported_grant_type")) {
      hint =
          jwt
              ? "the connected app does not allow the JWT bearer flow"
              : "enable the Client Credentials Flow on the connected app and set its run-as user";
    } else if (e.isTransport()) {
      hint = "cannot reach " + Components.scrub(sf.loginUrl()) + ": check " + path + ".login_url";
    } else if (code.equals("invalid_grant")) {
      hint = "the run-as user of the client credentials flow is missing or inactive";
    } else {
      return "";
    }
    return " — hint: " + hint;
  }

  private static String hostOf(String url) {
    try {
      String h = URI.create(url).getHost();
      return h == null ? "" : h.toLowerCase(Locale.ROOT);
    } catch (IllegalArgumentException e) {
      return "";
    }
  }

  /** Row 3 *(c)*: EventLogFile describe and a one-row SELECT on the first object. */
  Check permissions() throws InterruptedException {
    var s = org.sources();
    boolean elf = s.eventlogfile().enabled();
    boolean objects =
        s.eventlogObjects().enabled() && !s.eventlogObjects().settings().objects().isEmpty();
    if (!elf && !objects) {
      return Check.skip("permissions", "neither eventlogfile nor eventlog_objects is enabled");
    }
    StringBuilder ok = new StringBuilder();
    if (elf) {
      try {
        clients.rest().getObject(dataPath("/sobjects/EventLogFile/describe"));
        ok.append("EventLogFile describe OK");
      } catch (SoqlException e) {
        if (e.status() == 403) {
          return Check.fail(
              "permissions",
              "user lacks View Event Log Files (403 on EventLogFile describe: "
                  + e.getMessage()
                  + ")");
        }
        return Check.fail("permissions", "EventLogFile describe: " + describe(e));
      }
    }
    if (objects) {
      String first = s.eventlogObjects().settings().objects().getFirst().name();
      try {
        clients.rest().query("SELECT Id FROM " + first + " LIMIT 1");
        ok.append(ok.isEmpty() ? "" : "; ").append("SELECT on ").append(first).append(" OK");
      } catch (SoqlException e) {
        return Check.fail(
            "permissions",
            "SELECT Id FROM "
                + first
                + " LIMIT 1: "
                + describe(e)
                + " — hint: the user needs read access to "
                + first);
      }
    }
    return Check.pass("permissions", ok.toString());
  }

  /** Row 5: EventType discovery for the configured interval (ELF-2). */
  Check entitlement() throws InterruptedException {
    var elf = org.sources().eventlogfile();
    if (!elf.enabled()) {
      return Check.skip("entitlement", "eventlogfile is disabled");
    }
    String interval = elf.settings().interval().name();
    List<Map<String, Object>> rows;
    try {
      rows =
          clients
              .rest()
              .query(
                  "SELECT EventType FROM EventLogFile WHERE Interval='"
                      + interval
                      + "' GROUP BY EventType");
    } catch (SoqlException e) {
      return Check.fail(
          "entitlement",
          "EventType discovery failed: "
              + describe(e)
              + (e.hasErrorCode("INVALID_FIELD") || e.hasErrorCode("INVALID_TYPE")
                  ? " — hint: the org may lack Event Monitoring (Shield) or the"
                      + " interval "
                      + interval
                  : ""));
    }
    Set<String> present = new LinkedHashSet<>();
    for (Map<String, Object> r : rows) {
      Object t = r.get("EventType");
      if (t != null) {
        present.add(t.toString());
      }
    }
    List<String> missing =
        elf.settings().eventTypes().stream()
            .map(EventTypeSettings::name)
            .filter(n -> !n.equals("*") && !present.contains(n))
            .toList();
    if (!missing.isEmpty()) {
      return Check.warn(
          "entitlement",
          "no " + interval + " files for configured event types " + missing + " (yet)");
    }
    return Check.pass("entitlement", present.size() + " event type(s) with " + interval + " files");
  }

  /** Row 6: active TraceFlags (APX: without one, ApexLog has nothing to read). */
  Check traceFlags(Instant now) throws InterruptedException {
    if (!org.sources().apexlog().enabled()) {
      return Check.skip("traceflags", "apexlog is disabled");
    }
    String soql =
        "SELECT Id FROM TraceFlag WHERE ExpirationDate > "
            + SOQL_DATETIME.format(now.truncatedTo(ChronoUnit.MILLIS))
            + " LIMIT 200";
    try {
      int n = clients.rest().toolingQuery(soql).size();
      if (n == 0) {
        return Check.warn(
            "traceflags",
            "no active TraceFlag: Salesforce writes no ApexLog until one is set (Setup → Debug"
                + " Logs)");
      }
      return Check.pass("traceflags", n + " active TraceFlag(s)");
    } catch (SoqlException e) {
      return Check.warn("traceflags", "TraceFlag query failed: " + describe(e));
    }
  }

  /** Row 12: {@code GET /limits} (OBS-12). */
  Check limits() throws InterruptedException {
    Map<String, Object> body;
    try {
      body = clients.rest().getObject(dataPath("/limits"));
    } catch (SoqlException e) {
      return Check.fail("limits", "/limits: " + describe(e));
    }
    if (!(body.get("DailyApiRequests") instanceof Map<?, ?> daily)
        || !(daily.get("Max") instanceof Number max)
        || !(daily.get("Remaining") instanceof Number remaining)) {
      return Check.warn("limits", "/limits has no DailyApiRequests");
    }
    String detail = "DailyApiRequests remaining " + remaining + " of " + max;
    double reserve = org.salesforce().limits().reservePercent();
    if (reserve > 0 && remaining.doubleValue() < max.doubleValue() * reserve / 100.0) {
      return Check.warn( // OBS-21: what the daemon would do now
          "limits",
          detail
              + " (under the API reserve of "
              + reserve
              + " %: the polling sources would pause)");
    }
    if (max.doubleValue() > 0 && remaining.doubleValue() / max.doubleValue() < LIMITS_WARN_SHARE) {
      return Check.warn("limits", detail + " (under 20 %)");
    }
    return Check.pass("limits", detail);
  }

  private String dataPath(String suffix) {
    return "/services/data/v" + clients.rest().apiVersion() + suffix;
  }

  static String describe(SalesforceException e) {
    return withStatus(e.status(), e.getMessage());
  }

  /**
   * {@code HTTP <status>: <message>}, unless the message already says {@code HTTP <status>} (the
   * REST client's messages do): one status prefix per row.
   */
  static String withStatus(int status, String message) {
    String m = message == null ? "" : message;
    if (status == 0 || m.contains("HTTP " + status)) {
      return m;
    }
    return "HTTP " + status + ": " + m;
  }
}
