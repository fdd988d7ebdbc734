package io.sf2loki.sim.org;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * How the simulated org answers (Salesforce REST error arrays, OAuth error objects, JSON bodies),
 * every answer with the {@code Sforce-Limit-Info} header, and the request parsing helpers.
 * Thread-safe.
 */
final class SimResponses {
  private final ObjectMapper json = new ObjectMapper();
  private final Supplier<String> limitInfo;

  /**
   * @param limitInfo the current {@code Sforce-Limit-Info} value
   */
  SimResponses(Supplier<String> limitInfo) {
    this.limitInfo = limitInfo;
  }

  void notFound(HttpExchange ex) throws IOException {
    sfError(ex, 404, "NOT_FOUND", "The requested resource does not exist");
  }

  void limitHeader(HttpExchange ex) {
    ex.getResponseHeaders().set("Sforce-Limit-Info", limitInfo.get());
  }

  /** Salesforce's REST error body: {@code [{"message":..,"errorCode":..}]}. */
  void sfError(HttpExchange ex, int status, String code, String message) throws IOException {
    Map<String, Object> err = new LinkedHashMap<>();
    err.put("message", message);
    err.put("errorCode", code);
    json(ex, status, List.of(err));
  }

  /** The OAuth error body: {@code {"error":..,"error_description":..}}. */
  void oauthError(HttpExchange ex, int status, String error, String description)
      throws IOException {
    Map<String, Object> err = new LinkedHashMap<>();
    err.put("error", error);
    err.put("error_description", description);
    json(ex, status, err);
  }

  void json(HttpExchange ex, int status, Object body) throws IOException {
    send(ex, status, "application/json;charset=UTF-8", json.writeValueAsBytes(body));
  }

  void send(HttpExchange ex, int status, String contentType, byte[] bytes) throws IOException {
    limitHeader(ex);
    ex.getResponseHeaders().set("Content-Type", contentType);
    ex.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      try (OutputStream os = ex.getResponseBody()) {
        os.write(bytes);
      }
    }
  }

  static byte[] readBody(HttpExchange ex) throws IOException {
    try (InputStream in = ex.getRequestBody()) {
      return in.readNBytes(1 << 20);
    }
  }

  static Map<String, String> parseForm(byte[] body) {
    Map<String, String> out = new HashMap<>();
    String s = new String(body, StandardCharsets.UTF_8);
    for (String pair : s.split("&")) {
      if (pair.isEmpty()) {
        continue;
      }
      int eq = pair.indexOf('=');
      String k = eq < 0 ? pair : pair.substring(0, eq);
      String v = eq < 0 ? "" : pair.substring(eq + 1);
      out.put(
          URLDecoder.decode(k, StandardCharsets.UTF_8),
          URLDecoder.decode(v, StandardCharsets.UTF_8));
    }
    return out;
  }

  static String queryParam(String rawQuery, String name) {
    if (rawQuery == null) {
      return null;
    }
    return parseForm(rawQuery.getBytes(StandardCharsets.US_ASCII)).get(name);
  }
}
