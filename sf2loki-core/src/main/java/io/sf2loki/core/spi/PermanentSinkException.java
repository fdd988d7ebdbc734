package io.sf2loki.core.spi;

/**
 * Loki rejected the request permanently (SPEC SINK-8, PIPE-8): the pipeline drops the batch's real
 * entries, counts them in {@code sf2loki_loki_entries_dropped{reason}} and commits.
 */
public final class PermanentSinkException extends SinkException {
  private final String reason;

  /**
   * @param message what happened (never contains line contents)
   * @param status HTTP status
   * @param reason drop reason: {@code bad_request}, {@code oversized_413}, {@code too_far_behind},
   *     {@code too_old}, {@code too_new}, {@code line_too_long} or {@code permanent}
   */
  public PermanentSinkException(String message, int status, String reason) {
    this(message, status, reason, "");
  }

  /** As {@link #PermanentSinkException(String, int, String)} with a response body excerpt. */
  public PermanentSinkException(String message, int status, String reason, String responseBody) {
    super(message, status, null, responseBody);
    this.reason = reason;
  }

  /** The drop reason used as the metric attribute. */
  public String reason() {
    return reason;
  }
}
