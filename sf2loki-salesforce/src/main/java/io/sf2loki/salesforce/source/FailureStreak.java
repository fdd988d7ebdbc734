package io.sf2loki.salesforce.source;

import io.sf2loki.core.status.PollReporter;
import io.sf2loki.salesforce.rest.SoqlException;
import org.slf4j.Logger;
import org.slf4j.spi.LoggingEventBuilder;

/**
 * Consecutive failures of one polled thing and their escalation (SPEC SRC-19): WARN, ERROR from the
 * {@value #ESCALATE_AT}rd consecutive failure; a success resets the streak. Not thread-safe: one
 * per polled object, touched by one thread at a time.
 */
public final class FailureStreak {
  /** SRC-19: the failure that logs ERROR instead of WARN, and every one after it. */
  public static final int ESCALATE_AT = 3;

  private int count;

  /** Counts one more failure; returns the streak length. */
  public int fail() {
    return ++count;
  }

  /** A success: the streak ends. */
  public void reset() {
    count = 0;
  }

  /** Current streak length. */
  public int count() {
    return count;
  }

  /** Whether the streak reached {@link #ESCALATE_AT}. */
  public boolean escalated() {
    return count >= ESCALATE_AT;
  }

  /**
   * SRC-19 for a failed poll query: counts the failure and returns the WARN/ERROR event with the
   * shared keys {@code source, object, status, consecutive_failures, error}; the caller adds its
   * own keys and logs its message. The error text passes {@code reporter}'s redaction (OBS-34).
   */
  public LoggingEventBuilder pollFailed(
      Logger log, String source, String object, SoqlException e, PollReporter reporter) {
    fail();
    return (escalated() ? log.atError() : log.atWarn())
        .addKeyValue("source", source)
        .addKeyValue("object", object)
        .addKeyValue("status", e.status())
        .addKeyValue("consecutive_failures", count)
        .addKeyValue("error", reporter.redact(e.getMessage()));
  }
}
