package io.sf2loki.sim.org;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * One scheduled misbehaviour of a {@link SimOrg} endpoint. Immutable; {@link #times(int)} and
 * {@link #untilCleared()} return copies.
 *
 * <p>A fault applies to the next {@link #times()} calls of its endpoint (default 1) and is then
 * used up; {@link #untilCleared()} keeps it until {@link FaultSchedule#clear()}; {@link
 * #until(Instant)} ends it when the org's clock reaches the deadline (a time window, e.g. a
 * two-minute maintenance).
 *
 * @param kind what happens
 * @param status HTTP status for {@link Kind#STATUS} and {@link Kind#SALESFORCE_ERROR}
 * @param errorCode Salesforce {@code errorCode} (data endpoints) or OAuth {@code error} (token)
 * @param message Salesforce {@code message} or OAuth {@code error_description}
 * @param delay for {@link Kind#DELAY}: how long to wait before answering normally
 * @param times remaining uses; {@code -1} = until cleared
 * @param until the org-clock instant from which the fault no longer applies, or null
 */
public record Fault(
    Kind kind,
    int status,
    String errorCode,
    String message,
    Duration delay,
    int times,
    Instant until) {

  /**
   * A realistic maintenance page as egress proxies and Salesforce's own maintenance screens answer
   * it: {@code 200 text/html; charset=UTF-8}, a whole HTML document of about 1.3 KB.
   */
  public static final String MAINTENANCE_PAGE_HTML =
      """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <meta http-equiv="refresh" content="300">
      <title>Scheduled Maintenance</title>
      <style>
        body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; background: #f3f3f3;
               color: #181818; margin: 0; }
        .box { max-width: 40rem; margin: 6rem auto; background: #fff; border-radius: .5rem;
               padding: 2rem 2.5rem; box-shadow: 0 2px 4px rgba(0,0,0,.1); }
        h1 { font-size: 1.5rem; margin-top: 0; }
        .small { color: #706e6b; font-size: .8rem; }
      </style>
      </head>
      <body>
      <div class="box">
        <h1>We&rsquo;re down for scheduled maintenance</h1>
        <p>This service is temporarily unavailable while we perform scheduled maintenance.
           We expect to be back shortly. Thank you for your patience.</p>
        <p>If you reached this page from an integration, retry your request later. Requests made
           during the maintenance window are not processed.</p>
        <p class="small">Reference: MAINT-7F3A-2C91 &middot; Served by edge-proxy-03</p>
      </div>
      </body>
      </html>
      """;

  /** What a fault does. */
  public enum Kind {
    /** Answer with {@code status} and a generic Salesforce error body. */
    STATUS,
    /** Answer with {@code status} and a Salesforce error body with the given code and message. */
    SALESFORCE_ERROR,
    /** Answer 200 with a body that is not JSON. */
    NON_JSON_200,
    /** Answer {@code 200 text/html} with {@link #MAINTENANCE_PAGE_HTML} (any endpoint). */
    MAINTENANCE_PAGE,
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
    return new Fault(
        Kind.STATUS, status, "UNKNOWN_EXCEPTION", "simulated HTTP " + status, null, 1, null);
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
        1,
        null);
  }

  /** Answers 200 with an HTML body (as a misbehaving proxy would). */
  public static Fault nonJson200() {
    return new Fault(Kind.NON_JSON_200, 200, null, null, null, 1, null);
  }

  /**
   * Answers {@code 200 text/html; charset=UTF-8} with {@link #MAINTENANCE_PAGE_HTML}, as a
   * maintenance screen, captive portal or misrouted proxy does (issue 10 part 4).
   */
  public static Fault maintenancePage() {
    return new Fault(Kind.MAINTENANCE_PAGE, 200, null, null, null, 1, null);
  }

  /** Waits {@code delay} before answering normally (capped by the org's maximum delay). */
  public static Fault delay(Duration delay) {
    if (delay.isNegative()) {
      throw new IllegalArgumentException("negative delay");
    }
    return new Fault(Kind.DELAY, 0, null, null, delay, 1, null);
  }

  /** Drops the connection after about half the body was sent (see {@link Kind#TRUNCATED_BODY}). */
  public static Fault truncatedBody() {
    return new Fault(Kind.TRUNCATED_BODY, 200, null, null, null, 1, null);
  }

  /** A copy applying to the next {@code n} calls ({@code n >= 1}). */
  public Fault times(int n) {
    if (n < 1) {
      throw new IllegalArgumentException("times must be >= 1");
    }
    return new Fault(kind, status, errorCode, message, delay, n, until);
  }

  /** A copy applying to every call until the schedule is cleared. */
  public Fault untilCleared() {
    return new Fault(kind, status, errorCode, message, delay, -1, until);
  }

  /**
   * A copy that no longer applies once the org's clock reaches {@code deadline} (combine with
   * {@link #untilCleared()} for a pure time window).
   */
  public Fault until(Instant deadline) {
    return new Fault(
        kind, status, errorCode, message, delay, times, Objects.requireNonNull(deadline));
  }

  /** The HTML body of {@link Kind#NON_JSON_200} (a one-liner) or {@link Kind#MAINTENANCE_PAGE}. */
  String htmlPage() {
    return kind == Kind.MAINTENANCE_PAGE
        ? MAINTENANCE_PAGE_HTML
        : "<html><body>Service temporarily unavailable</body></html>";
  }

  /** Whether the fault's time window is over at {@code now}. */
  boolean expiredAt(Instant now) {
    return until != null && !now.isBefore(until);
  }
}
