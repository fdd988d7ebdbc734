package io.sf2loki.sim.loki;

import java.util.List;
import java.util.Map;

/**
 * One push request seen by the {@link LokiReceiver}.
 *
 * @param headers request headers, names lower-cased (e.g. {@code authorization}, {@code
 *     x-scope-orgid}, {@code user-agent}, {@code content-encoding})
 * @param bodyBytes request body size as sent (compressed), bytes
 * @param status the status answered
 * @param responseBody the body answered (empty for 204)
 */
public record RecordedRequest(
    Map<String, List<String>> headers, long bodyBytes, int status, String responseBody) {

  /** The first value of header {@code name} (case-insensitive), or null. */
  public String header(String name) {
    List<String> v = headers.get(name.toLowerCase(java.util.Locale.ROOT));
    return v == null || v.isEmpty() ? null : v.get(0);
  }
}
