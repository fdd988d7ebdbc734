package io.sf2loki.sim.org;

import java.time.Duration;
import java.util.Objects;

/**
 * One scheduled misbehaviour of a {@link SimOrg} endpoint. Immutable; {@link #times(int)} and
 * {@link #untilCleared()} return copies.
 *
 * <p>A fault applies to the next {@link #times()} calls of its endpoint (default 1) and is then
 * used up; {@link #untilCleared()} keeps it until {@link FaultSchedule#clear()}.
 *
 * @param kind what happens
 * @param status HTTP status for {@link Kind#STATUS} and {@link Kind#SALESFORCE_ERROR}
 * @param errorCode Salesforce {@code errorCode} (data endpoints) or OAuth {@code error} (token)
 * @param message Salesforce {@code message} or OAuth {@code error_description}
 * @param delay for {@link Kind#DELAY}: how long to wait before answering normally
 * @param times remaining uses; {@code -1} = until cleared
 */
public record Fault(
    Kind kind, int status, String errorCode, String message, Duration delay, int times) {

  /** What a fault does. */
  public enum Kind {
    /** Answer with {@code status} and a generic Salesforce error body. */
    STATUS,
    /** Answer with {@code status} and a Salesforce error body with the given code and message. */
    SALESFORCE_ERROR,
    /** Answer 200 with a body that is not JSON. */
    NON_JSON_200,
    /** Wait {@code delay} (bounded by the org's maximum delay), then answer normally. */
    DELAY,
    /**
     * Send the normal headers (with the full {@code Content-Length}), write about half of the body,
     * then drop the connection: the client sees a transport failure mid-body.
     */
    TRUNCATED_BODY
  }

  public Fault {
    Objects.requireNonNull(kind, "kind");
    if (times == 0 || times < -1) {
      throw new IllegalArgumentException("times must be >= 1 or -1 (until cleared)");
    }
  }

  /** Answers {@code status} with a generic Salesforce error body ({@code UNKNOWN_EXCEPTION}). */
  public static Fault status(int status) {
    return new Fault(Kind.STATUS, status, "UNKNOWN_EXCEPTION", "simulated HTTP " + status, null, 1);
  }

  /**
   * Answers {@code status} with {@code [{"message":message,"errorCode":errorCode}]} (data
   * endpoints) or {@code {"error":errorCode,"error_description":message}} (token endpoint), e.g.
   * {@code salesforceError(403, "REQUEST_LIMIT_EXCEEDED", "TotalRequests Limit exceeded.")}.
   */
  public static Fault salesforceError(int status, String errorCode, String message) {
    return new Fault(
        Kind.SALESFORCE_ERROR,
        status,
        Objects.requireNonNull(errorCode),
        Objects.requireNonNull(message),
        null,
        1);
  }

  /** Answers 200 with an HTML body (as a misbehaving proxy would). */
  public static Fault nonJson200() {
    return new Fault(Kind.NON_JSON_200, 200, null, null, null, 1);
  }

  /** Waits {@code delay} before answering normally (capped by the org's maximum delay). */
  public static Fault delay(Duration delay) {
    if (delay.isNegative()) {
      throw new IllegalArgumentException("negative delay");
    }
    return new Fault(Kind.DELAY, 0, null, null, delay, 1);
  }

  /** Drops the connection after about half the body was sent (see {@link Kind#TRUNCATED_BODY}). */
  public static Fault truncatedBody() {
    return new Fault(Kind.TRUNCATED_BODY, 200, null, null, null, 1);
  }

  /** A copy applying to the next {@code n} calls ({@code n >= 1}). */
  public Fault times(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("times must be >= 1");
    }
    return new Fault(kind, status, errorCode, message, delay, n);
  }

  /** A copy applying to every call until the schedule is cleared. */
  public Fault untilCleared() {
    return new Fault(kind, status, errorCode, message, delay, -1);
  }
}
