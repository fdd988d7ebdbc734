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
 *   <li>{@code GET /services/data/v{api}/limits}: {@code {"DailyApiRequests": {"Max": N,
 *       "Remaining": N}, …}} from the org's API usage counter.
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

  private final ObjectMapper json = new ObjectMapper();
  private final LongSupplier apiUsage;
  private final long apiMax;
  private final List<TraceFlag> traceFlags = new CopyOnWriteArrayList<>();
  private volatile boolean denyEventLogFile;

  record TraceFlag(String id, Instant expiration) {}

  OpsEndpoints(LongSupplier apiUsage, long apiMax) {
    this.apiUsage = apiUsage;
    this.apiMax = apiMax;
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
      long remaining = Math.max(0, apiMax - apiUsage.getAsLong());
      Map<String, Object> daily = new LinkedHashMap<>();
      daily.put("Max", apiMax);
      daily.put("Remaining", remaining);
      Map<String, Object> body = new LinkedHashMap<>();
      body.put("ConcurrentAsyncGetReportInstances", Map.of("Max", 200, "Remaining", 200));
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
