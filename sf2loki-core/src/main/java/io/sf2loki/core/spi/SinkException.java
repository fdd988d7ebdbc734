package io.sf2loki.core.spi;

/** Base of the sink's failures (SPEC SINK-8). */
public abstract sealed class SinkException extends Exception
    permits RetryableSinkException, PermanentSinkException {
  private final int status;

  protected SinkException(String message, int status, Throwable cause) {
    super(message, cause);
    this.status = status;
  }

  /** The HTTP status of the response, or 0 for transport failures. */
  public int status() {
    return status;
  }
}
