package io.sf2loki.salesforce.source;

import io.sf2loki.core.time.Sleeper;
import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.util.Objects;
import java.util.function.UnaryOperator;
import java.util.random.RandomGenerator;

/**
 * The one doubling backoff of the sources (SPEC PS-14, PS-20, PS-21): starts at {@code initial},
 * doubles per wait up to {@code max}; each wait is the base plus jitter (by default uniform in [0,
 * base/2], {@link Jitter#upToHalf(Duration, RandomGenerator)}) and is stop-aware (through the
 * injected {@link Sleeper}). {@link #reset()} returns to {@code initial}. Not thread-safe: one per
 * loop.
 */
public final class Backoff {
  private final Duration initial;
  private final Duration max;
  private final Sleeper sleeper;
  private final UnaryOperator<Duration> jitter;
  private Duration current;

  /**
   * PS-14 reconnect backoff.
   *
   * @param initial first wait (PS-14: 1 s)
   * @param max cap before jitter (PS-14: 30 s)
   * @param sleeper stop-aware sleeper
   * @param random jitter source (uniform in [0, base/2])
   */
  public Backoff(Duration initial, Duration max, Sleeper sleeper, RandomGenerator random) {
    this(initial, max, sleeper, jitterOf(Objects.requireNonNull(random, "random")));
  }

  /**
   * @param initial first wait
   * @param max cap before jitter
   * @param sleeper stop-aware sleeper
   * @param jitter maps a base wait to the jittered wait actually slept
   */
  public Backoff(Duration initial, Duration max, Sleeper sleeper, UnaryOperator<Duration> jitter) {
    this.initial = Objects.requireNonNull(initial, "initial");
    this.max = Objects.requireNonNull(max, "max");
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    this.jitter = Objects.requireNonNull(jitter, "jitter");
    this.current = initial;
  }

  private static UnaryOperator<Duration> jitterOf(RandomGenerator random) {
    return base -> Jitter.upToHalf(base, random);
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
   * Waits {@code jitter(current)}, then doubles {@code current} (capped at {@code max}).
   *
   * @return false when {@code stop} fired (the wait was cut short or not started)
   * @throws InterruptedException if interrupted
   */
  public boolean pause(StopSignal stop) throws InterruptedException {
    Duration wait = jitter.apply(current);
    current = current.compareTo(max.dividedBy(2)) > 0 ? max : current.multipliedBy(2);
    return sleeper.sleep(wait, stop) && !stop.isStopped();
  }
}
