package io.sf2loki.core.spi;

import java.time.Duration;
import java.util.Objects;

/**
 * Nothing was stored and the same batch must be pushed again (SPEC SINK-8): transport failures,
 * timeouts, 429, 5xx after the in-sink retries, 401/403/404, other 2xx, request-wide 400s and
 * unexpected statuses. Data is never dropped for these.
 *
 * <p>{@link #retryAfter()} is the delta-seconds {@code Retry-After} of the last response (RFC 9110
 * §10.2.3; SINK-9), zero when it had none: the pipeline waits at least that long before it pushes
 * the batch again (PIPE-7, PIPE-27).
 */
public final class RetryableSinkException extends SinkException {
  private final Duration retryAfter;

  public RetryableSinkException(String message, int status, Throwable cause, Duration retryAfter) {
    this(message, status, cause, retryAfter, "");
  }

  /** As the four-argument constructor, with a response body excerpt (DOC-5). */
  public RetryableSinkException(
      String message, int status, Throwable cause, Duration retryAfter, String responseBody) {
    super(message, status, cause, responseBody);
    this.retryAfter = Objects.requireNonNull(retryAfter, "retryAfter");
  }

  public RetryableSinkException(String message, int status, Throwable cause) {
    this(message, status, cause, Duration.ZERO);
  }

  public RetryableSinkException(String message, int status) {
    this(message, status, null);
  }

  /** The last response's {@code Retry-After} (already capped by the sink), or zero. */
  public Duration retryAfter() {
    return retryAfter;
  }
}
