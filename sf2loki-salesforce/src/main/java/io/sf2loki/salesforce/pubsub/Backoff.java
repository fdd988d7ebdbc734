package io.sf2loki.salesforce.pubsub;

import io.sf2loki.core.time.Sleeper;
import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * The reconnect backoff of SPEC PS-14: starts at {@code initial} (1 s), doubles per failed wait up
 * to {@code max} (30 s); each wait adds uniform jitter in [0, backoff/2] and is stop-aware (through
 * the injected {@link Sleeper}). {@link #reset()} returns to {@code initial} (after a call that
 * delivered any event or keepalive, and after a clean end of stream). Not thread-safe: one per
 * topic reader.
 */
public final class Backoff {
  private final Duration initial;
  private final Duration max;
  private final Sleeper sleeper;
  private final RandomGenerator random;
  private Duration current;

  /**
   * @param initial first wait (PS-14: 1 s)
   * @param max cap before jitter (PS-14: 30 s)
   * @param sleeper stop-aware sleeper
   * @param random jitter source
   */
  public Backoff(Duration initial, Duration max, Sleeper sleeper, RandomGenerator random) {
    this.initial = Objects.requireNonNull(initial, "initial");
    this.max = Objects.requireNonNull(max, "max");
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    this.random = Objects.requireNonNull(random, "random");
    this.current = initial;
  }

  /** Back to the initial wait. */
  public void reset() {
    current = initial;
  }

  /** The base of the next wait (before jitter). */
  public Duration current() {
    return current;
  }

  /**
   * Waits {@code current + uniform[0, current/2]}, then doubles {@code current} (capped).
   *
   * @return false when {@code stop} fired (the wait was cut short or not started)
   * @throws InterruptedException if interrupted
   */
  public boolean pause(StopSignal stop) throws InterruptedException {
    long base = current.toNanos();
    long jitter = base / 2 <= 0 ? 0 : random.nextLong(base / 2 + 1);
    Duration wait = Duration.ofNanos(base + jitter);
    current = current.multipliedBy(2).compareTo(max) > 0 ? max : current.multipliedBy(2);
    return sleeper.sleep(wait, stop) && !stop.isStopped();
  }
}
