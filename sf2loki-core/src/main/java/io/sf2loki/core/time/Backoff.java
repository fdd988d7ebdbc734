package io.sf2loki.core.time;

import java.time.Duration;
import java.util.Objects;
import java.util.function.UnaryOperator;
import java.util.random.RandomGenerator;

/**
 * The project's one doubling backoff (SPEC PS-14, PS-20, PS-21 for the sources; PIPE-7 and SINK-9
 * for Loki pushes, through {@code io.sf2loki.core.pipeline.RetrySchedule}): starts at {@code
 * initial}, doubles per wait up to {@code max}; each wait is the base mapped by a jitter function
 * (by default base + uniform [0, base/2], {@link #upToHalf(Duration, RandomGenerator)}) and is
 * stop-aware (through the injected {@link Sleeper}). {@link #reset()} returns to {@code initial}.
 * Not thread-safe: one per loop.
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
    return base -> upToHalf(base, random);
  }

  /** {@code base + uniform[0, base/2]} in whole nanoseconds, drawn with {@code nextLong}. */
  public static Duration upToHalf(Duration base, RandomGenerator random) {
    long nanos = base.toNanos();
    long jitter = nanos / 2 <= 0 ? 0 : random.nextLong(nanos / 2 + 1);
    return Duration.ofNanos(nanos + jitter);
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
   * The next wait, {@code jitter(current)}, without waiting; doubles {@code current} (capped at
   * {@code max}). For callers that raise the wait (a {@code Retry-After}) before {@link
   * #sleep(Duration, StopSignal)}.
   */
  public Duration next() {
    Duration wait = jitter.apply(current);
    current = current.compareTo(max.dividedBy(2)) > 0 ? max : current.multipliedBy(2);
    return wait;
  }

  /**
   * Waits {@code wait} on this backoff's sleeper.
   *
   * @return false when {@code stop} fired (the wait was cut short or not started)
   * @throws InterruptedException if interrupted
   */
  public boolean sleep(Duration wait, StopSignal stop) throws InterruptedException {
    return sleeper.sleep(wait, stop) && !stop.isStopped();
  }

  /**
   * Waits {@link #next()}.
   *
   * @return false when {@code stop} fired (the wait was cut short or not started)
   * @throws InterruptedException if interrupted
   */
  public boolean pause(StopSignal stop) throws InterruptedException {
    return sleep(next(), stop);
  }
}
