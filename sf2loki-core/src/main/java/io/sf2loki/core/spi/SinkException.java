package io.sf2loki.core.spi;

/** Base of the sink's failures (SPEC SINK-8). */
public abstract sealed class SinkException extends Exception
    permits RetryableSinkException, PermanentSinkException {
  private final int status;
  private final String responseBody;

  protected SinkException(String message, int status, Throwable cause) {
    this(message, status, cause, "");
  }

  /**
   * @param responseBody an excerpt of the sink's response body (Loki's error text, at most 512
   *     characters), or {@code ""}; shown by {@code doctor} (DOC-5), never logged with line
   *     contents
   */
  protected SinkException(String message, int status, Throwable cause, String responseBody) {
    super(message, cause);
    this.status = status;
    this.responseBody = responseBody == null ? "" : responseBody;
  }

  /** The excerpt of the response body that came with the failure, or {@code ""} (DOC-5). */
  public String responseBody() {
    return responseBody;
  }

  /** The HTTP status of the response, or 0 for transport failures. */
  public int status() {
    return status;
  }
}
