package io.sf2loki.state.object;

import io.sf2loki.core.spi.StateException;
import io.sf2loki.core.time.Sleeper;
import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * The STATE-9 retry policy of the object stores: at most {@link #maxAttempts()} attempts per read
 * or write; before attempt {@code k + 1} a random wait, uniform between {@code minWait} and {@code
 * min(maxWait, 2 × minWait × 2^(k-1))} (0.1–0.2 s, 0.1–0.4 s, 0.1–0.8 s with the defaults).
 */
public final class StoreRetry {
  /** SPEC STATE-9: four attempts. */
  public static final int DEFAULT_ATTEMPTS = 4;

  /** SPEC STATE-9: the shortest wait. */
  public static final Duration DEFAULT_MIN_WAIT = Duration.ofMillis(100);

  /** SPEC STATE-9: the longest wait. */
  public static final Duration DEFAULT_MAX_WAIT = Duration.ofSeconds(2);

  private final int maxAttempts;
  private final Duration minWait;
  private final Duration maxWait;
  private final Sleeper sleeper;
  private final RandomGenerator random;
  private final StopSignal stop;

  /**
   * @param maxAttempts ≥ 1
   * @param minWait shortest wait between attempts
   * @param maxWait longest wait between attempts, ≥ {@code minWait}
   * @param sleeper waits (tests: a fake that records the waits)
   * @param random draws the waits
   * @param stop cuts a wait short (the process stop); the attempt count is unchanged
   */
  public StoreRetry(
      int maxAttempts,
      Duration minWait,
      Duration maxWait,
      Sleeper sleeper,
      RandomGenerator random,
      StopSignal stop) {
    if (maxAttempts < 1 || maxWait.compareTo(minWait) < 0 || minWait.isNegative()) {
      throw new IllegalArgumentException("invalid retry policy");
    }
    this.maxAttempts = maxAttempts;
    this.minWait = minWait;
    this.maxWait = maxWait;
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    this.random = Objects.requireNonNull(random, "random");
    this.stop = Objects.requireNonNull(stop, "stop");
  }

  /** The SPEC defaults on real time. */
  public static StoreRetry standard(Sleeper sleeper, StopSignal stop) {
    return new StoreRetry(
        DEFAULT_ATTEMPTS,
        DEFAULT_MIN_WAIT,
        DEFAULT_MAX_WAIT,
        sleeper,
        RandomGenerator.getDefault(),
        stop);
  }

  /** Attempts per operation. */
  public int maxAttempts() {
    return maxAttempts;
  }

  /**
   * Waits before attempt {@code failedAttempt + 1}.
   *
   * @param failedAttempt the attempt that just failed, from 1
   * @throws StateException when the thread is interrupted while waiting
   */
  void pause(int failedAttempt) {
    long min = minWait.toNanos();
    long cap = Math.min(maxWait.toNanos(), 2 * min << Math.min(20, failedAttempt - 1));
    long wait = cap > min ? random.nextLong(min, cap + 1) : min;
    try {
      sleeper.sleep(Duration.ofNanos(wait), stop);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StateException("interrupted while retrying a checkpoint store request", e);
    }
  }
}
