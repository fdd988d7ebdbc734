package io.sf2loki.core.spi;

/**
 * Nothing was stored and the same batch must be pushed again (SPEC SINK-8): transport failures,
 * timeouts, 429, 5xx after the in-sink retries, 401/403/404, other 2xx, request-wide 400s and
 * unexpected statuses. Data is never dropped for these.
 */
public final class RetryableSinkException extends SinkException {
  public RetryableSinkException(String message, int status, Throwable cause) {
    super(message, status, cause);
  }

  public RetryableSinkException(String message, int status) {
    this(message, status, null);
  }
}
