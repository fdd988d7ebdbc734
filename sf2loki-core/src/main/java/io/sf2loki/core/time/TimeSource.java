package io.sf2loki.core.time;

import java.time.Instant;
import java.time.InstantSource;

/**
 * The three time facilities every component receives (SPEC SRC-26, §21): a wall clock for instants
 * that leave the process, a monotonic ticker for intervals, and a stop-aware sleeper.
 *
 * @param wall wall clock (entry timestamps, metric timestamps, "server now")
 * @param ticker monotonic clock for intervals, deadlines and backoffs
 * @param sleeper stop-aware waiting
 */
public record TimeSource(InstantSource wall, Ticker ticker, Sleeper sleeper) {
  /** Real time. */
  public static TimeSource system() {
    return new TimeSource(InstantSource.system(), Ticker.system(), Sleeper.system());
  }

  /** Shorthand for {@code wall().instant()}. */
  public Instant now() {
    return wall.instant();
  }
}
