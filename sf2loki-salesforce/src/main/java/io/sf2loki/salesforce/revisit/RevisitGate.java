package io.sf2loki.salesforce.revisit;

import io.sf2loki.core.time.Ticker;
import java.time.Duration;
import java.util.Objects;

/**
 * At most one revisit per {@code interval} (SPEC OBJ-14), measured on the monotonic ticker
 * (SRC-26): the first call is due, later calls are due once {@code interval} passed since the last
 * due one. Not thread-safe.
 */
public final class RevisitGate {
  private final Ticker ticker;
  private final long intervalNanos;
  private boolean started;
  private long lastNanos;

  public RevisitGate(Ticker ticker, Duration interval) {
    this.ticker = Objects.requireNonNull(ticker, "ticker");
    this.intervalNanos = interval.toNanos();
  }

  /** Whether a revisit may run now; when it may, the interval restarts now. */
  public boolean tryEnter() {
    long now = ticker.nanoTime();
    if (started && now - lastNanos < intervalNanos) {
      return false;
    }
    started = true;
    lastNanos = now;
    return true;
  }
}
