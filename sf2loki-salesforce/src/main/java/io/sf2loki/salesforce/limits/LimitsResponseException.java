package io.sf2loki.salesforce.limits;

/**
 * A 2xx answer of {@code GET /services/data/v{api}/limits} that is not the Limits resource's shape
 * (SPEC OBS-12): no top-level entry with integer {@code Max} and {@code Remaining}, or, with an API
 * reserve (OBS-21), no usable {@code DailyApiRequests}. Counted as a failed poll.
 */
public final class LimitsResponseException extends Exception {
  private static final long serialVersionUID = 1L;

  /**
   * @param message what is missing, without body text
   */
  public LimitsResponseException(String message) {
    super(message);
  }
}
