package io.sf2loki.sim.loki;

import java.time.Duration;
import java.util.Objects;

/**
 * One scheduled failure of the {@link LokiReceiver} for whole requests (nothing is stored).
 * Immutable; the {@code with...}/{@link #times(int)} methods return copies.
 *
 * @param status HTTP status to answer (e.g. 429, 500, 503)
 * @param body text body ({@code text/plain}, a trailing LF is added)
 * @param retryAfter value for a {@code Retry-After} header in whole seconds, or null for none
 * @param times remaining uses; {@code -1} = until cleared
 */
public record LokiFault(int status, String body, Duration retryAfter, int times) {
  public LokiFault {
    Objects.requireNonNull(body);
    if (times == 0 || times < -1) {
      throw new IllegalArgumentException("times must be >= 1 or -1");
    }
  }

  /** Answers {@code status} once, with a Loki-like body for 429 and 5xx. */
  public static LokiFault status(int status) {
    String body =
        switch (status) {
          case 429 ->
              "ingestion rate limit exceeded for user fake (limit: 4194304 bytes/sec) while"
                  + " attempting to ingest '1' lines totaling '100' bytes, reduce log volume or"
                  + " contact your Loki administrator to see if the limit can be increased";
          case 503 -> "circuit breaker open, request denied";
          default -> "simulated HTTP " + status;
        };
    return new LokiFault(status, body, null, 1);
  }

  /** A 429 with {@code Retry-After: <seconds>}. */
  public static LokiFault tooManyRequests(Duration retryAfter) {
    return status(429).withRetryAfter(retryAfter);
  }

  /** A copy that also sends {@code Retry-After} (delta seconds). */
  public LokiFault withRetryAfter(Duration retryAfter) {
    return new LokiFault(status, body, retryAfter, times);
  }

  /** A copy with another response body. */
  public LokiFault withBody(String body) {
    return new LokiFault(status, body, retryAfter, times);
  }

  /** A copy applying to the next {@code n} requests. */
  public LokiFault times(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("times must be >= 1");
    }
    return new LokiFault(status, body, retryAfter, n);
  }

  /** A copy applying until {@link LokiFaultSchedule#clear()}. */
  public LokiFault untilCleared() {
    return new LokiFault(status, body, retryAfter, -1);
  }
}
