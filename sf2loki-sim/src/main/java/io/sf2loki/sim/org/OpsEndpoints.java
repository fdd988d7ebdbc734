package io.sf2loki.sim.org;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The operator endpoints {@code doctor} reads (SPEC DOC-2), in Salesforce's shapes:
 *
 * <ul>
 *   <li>{@code GET /services/data/v{api}/limits}: the real Limits body (48 top-level limits, some
 *       with nested per-app sub-limits; fixture {@code swiftlysalesforce_limits.json}) with {@code
 *       "DailyApiRequests": {"Max": N, "Remaining": N}} from the org's API usage counter, or the
 *       values a test set ({@link #dailyApiRequests}, OBS-21).
 *   <li>{@code GET /services/data/v{api}/sobjects/EventLogFile/describe}: a describe result ({@code
 *       name}, {@code label}, {@code queryable}, {@code fields}); 403 {@code INSUFFICIENT_ACCESS}
 *       when the user lacks View Event Log Files ({@link #denyEventLogFile}).
 *   <li>{@code GET /services/data/v{api}/tooling/query?q=SELECT Id FROM TraceFlag WHERE
 *       ExpirationDate > <datetime> LIMIT n}: the trace flags expiring after the literal.
 * </ul>
 */
final class OpsEndpoints {
  private static final Pattern TRACE_FLAG =
      Pattern.compile(
          "(?i)^SELECT\\s+Id\\s+FROM\\s+TraceFlag\\s+WHERE\\s+ExpirationDate\\s*>\\s*(\\S+)"
              + "\\s+LIMIT\\s+(\\d+)\\s*$");

  private static final String LIMITS_RESOURCE = "/io/sf2loki/sim/limits.json";

  private final ObjectMapper json = new ObjectMapper();
  private final LongSupplier apiUsage;
  private final long apiMax;
  private final Map<String, Object> limitsTemplate;
  private final java.util.concurrent.atomic.AtomicLong limitsCalls =
      new java.util.concurrent.atomic.AtomicLong();
  private volatile Daily dailyOverride; // null: Max = apiMax, Remaining from the usage counter
  private final List<TraceFlag> traceFlags = new CopyOnWriteArrayList<>();
  private volatile boolean denyEventLogFile;

  record TraceFlag(String id, Instant expiration) {}

  /** {@code DailyApiRequests} set by a test (OBS-21). */
  record Daily(long remaining, long max) {}

  OpsEndpoints(LongSupplier apiUsage, long apiMax) {
    this.apiUsage = apiUsage;
    this.apiMax = apiMax;
    this.limitsTemplate = readTemplate();
  }

  /** The real Limits body (fixture {@code swiftlysalesforce_limits.json}, 48 limits). */
  private Map<String, Object> readTemplate() {
    try (var in = OpsEndpoints.class.getResourceAsStream(LIMITS_RESOURCE)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + LIMITS_RESOURCE);
      }
      return json.readValue(
          in,
          new com.fasterxml.jackson.core.type.TypeReference<LinkedHashMap<String, Object>>() {});
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Fixes {@code DailyApiRequests} at runtime; {@code null} returns to the usage counter. */
  void dailyApiRequests(Daily daily) {
    dailyOverride = daily;
  }

  /** The {@code DailyApiRequests} served now. */
  Daily daily() {
    Daily d = dailyOverride;
    return d != null ? d : new Daily(Math.max(0, apiMax - apiUsage.getAsLong()), apiMax);
  }

  /** Authorised {@code /limits} requests answered so far. */
  long limitsCalls() {
    return limitsCalls.get();
  }

  /** {@code Sforce-Limit-Info} value, consistent with {@link #daily()}. */
  String limitInfo() {
    Daily d = dailyOverride;
    return d == null
        ? "api-usage=" + apiUsage.getAsLong() + "/" + apiMax
        : "api-usage=" + Math.max(0, d.max() - d.remaining()) + "/" + d.max();
  }

  void addTraceFlag(String id, Instant expiration) {
    traceFlags.add(new TraceFlag(id, expiration));
  }

  void denyEventLogFile(boolean deny) {
    denyEventLogFile = deny;
  }

  /** Whether this request (path after {@code /services/data/v{api}/}) is one of ours. */
  boolean handles(String rest, String rawQuery) {
    if (rest.equals("limits") || rest.equals("limits/")) {
      return true;
    }
    if (rest.equals("sobjects/EventLogFile/describe")) {
      return true;
    }
    return rest.equals("tooling/query") && TRACE_FLAG.matcher(query(rawQuery)).matches();
  }

  void handle(HttpExchange ex, String rest) throws IOException {
    if (rest.startsWith("limits")) {
      limitsCalls.incrementAndGet();
      Daily d = daily();
      Map<String, Object> daily = new LinkedHashMap<>();
      daily.put("Max", d.max());
      daily.put("Remaining", d.remaining());
      Map<String, Object> body = new LinkedHashMap<>(limitsTemplate);
      body.put("DailyApiRequests", daily);
      send(ex, 200, body);
    } else if (rest.startsWith("sobjects/")) {
      if (denyEventLogFile) {
        send(
            ex,
            403,
            List.of(
                Map.of(
                    "message",
                    "The user does not have access to EventLogFile",
                    "errorCode",
                    "INSUFFICIENT_ACCESS")));
        return;
      }
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("name", "EventLogFile");
      body.put("label", "Event Log File");
      body.put("queryable", true);
      body.put(
          "fields",
          List.of(
              Map.of("name", "Id", "type", "id"),
              Map.of("name", "EventType", "type", "picklist"),
              Map.of("name", "LogFile", "type", "base64")));
      send(ex, 200, body);
    } else {
      Matcher m = TRACE_FLAG.matcher(query(ex.getRequestURI().getRawQuery()));
      if (!m.matches()) {
        throw new IllegalStateException("handles() accepted " + rest);
      }
      Instant after = Instant.parse(m.group(1));
      int limit = Integer.parseInt(m.group(2));
      List<Map<String, Object>> records = new ArrayList<>();
      for (TraceFlag f : traceFlags) {
        if (f.expiration().isAfter(after) && records.size() < limit) {
          Map<String, Object> r = new LinkedHashMap<>();
          r.put("attributes", Map.of("type", "TraceFlag", "url", "/tooling/TraceFlag/" + f.id()));
          r.put("Id", f.id());
          records.add(r);
        }
      }
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("size", records.size());
      body.put("totalSize", records.size());
      body.put("done", true);
      body.put("queryLocator", null);
      body.put("entityTypeName", "TraceFlag");
      body.put("records", records);
      send(ex, 200, body);
    }
  }

  private static String query(String rawQuery) {
    if (rawQuery == null) {
      return "";
    }
    for (String p : rawQuery.split("&")) {
      if (p.startsWith("q=")) {
        return URLDecoder.decode(p.substring(2), StandardCharsets.UTF_8);
      }
    }
    return "";
  }

  private void send(HttpExchange ex, int status, Object body) throws IOException {
    byte[] bytes = json.writeValueAsBytes(body);
    ex.getResponseHeaders().set("Content-Type", "application/json;charset=UTF-8");
    ex.sendResponseHeaders(status, bytes.length);
    try (OutputStream os = ex.getResponseBody()) {
      os.write(bytes);
    }
  }
}
