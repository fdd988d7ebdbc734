package io.sf2loki.sim.loki;

import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * One push request seen by the {@link LokiReceiver}.
 *
 * @param headers request headers, names lower-cased (e.g. {@code authorization}, {@code
 *     x-scope-orgid}, {@code user-agent}, {@code content-encoding})
 * @param bodyBytes request body size as sent (compressed), bytes
 * @param status the status answered
 * @param responseBody the body answered (empty for 204)
 * @param arrived when the request reached the receiver (its clock), before the body was read
 * @param answered when the answer was recorded, just before it was sent
 * @param entries entries the body held (0 when it could not be decoded)
 * @param retryAfter the {@code Retry-After} announced in the answer (zero when none)
 */
public record RecordedRequest(
    Map<String, List<String>> headers,
    long bodyBytes,
    int status,
    String responseBody,
    Instant arrived,
    Instant answered,
    int entries,
    Duration retryAfter) {

  /** The first value of header {@code name} (case-insensitive), or null. */
  public String header(String name) {
    List<String> v = headers.get(name.toLowerCase(Locale.ROOT));
    return v == null || v.isEmpty() ? null : v.get(0);
  }

  /**
   * The tenant the request addressed: {@code X-Scope-OrgID}, else the user part of a Basic {@code
   * Authorization} (SINK-2), else {@code fake} (Loki's tenant without auth).
   */
  public String tenant() {
    String org = header("X-Scope-OrgID");
    if (org != null) {
      return org;
    }
    String auth = header("Authorization");
    if (auth != null && auth.startsWith("Basic ")) {
      try {
        String userPass = new String(Base64.getDecoder().decode(auth.substring(6).strip()));
        int colon = userPass.indexOf(':');
        String user = colon < 0 ? userPass : userPass.substring(0, colon);
        if (!user.isEmpty()) {
          return user;
        }
      } catch (IllegalArgumentException e) {
        return "fake";
      }
    }
    return "fake";
  }

  /**
   * The window this answer announced: {@code [answered, answered + retryAfter)}, or null when it
   * announced none.
   */
  public Instant retryAfterUntil() {
    return retryAfter.isPositive() ? answered.plus(retryAfter) : null;
  }
}
