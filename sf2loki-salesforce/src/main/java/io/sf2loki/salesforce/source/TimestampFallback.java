package io.sf2loki.salesforce.source;

import java.time.Duration;
import java.time.Instant;

/**
 * The SRC-12 timestamp fallback floor every source applies to an entry whose own time is missing or
 * unparseable: the source's fallback candidate (the previous row's time, the cursor's watermark,
 * server now, …) but never older than server now − {@link #FLOOR}, so Loki does not reject the
 * entry as too old.
 */
public final class TimestampFallback {
  /** SRC-12: server now − 167 h. */
  public static final Duration FLOOR = Duration.ofHours(167);

  private TimestampFallback() {}

  /**
   * @param candidate the source's fallback time, or null when it has none
   * @param serverNow server now (SRC-20)
   * @return {@code candidate}, raised to {@code serverNow − FLOOR}; the floor when null
   */
  public static Instant floored(Instant candidate, Instant serverNow) {
    Instant floor = serverNow.minus(FLOOR);
    return candidate == null || candidate.isBefore(floor) ? floor : candidate;
  }
}
