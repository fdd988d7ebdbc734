package io.sf2loki.core.time;

import java.time.Duration;

/**
 * Waits for a duration, stop-aware (SPEC SRC-2). Production uses real time; tests inject a fake
 * that advances a fake clock instead of sleeping.
 */
@FunctionalInterface
public interface Sleeper {
  /**
   * Waits for {@code duration} or until {@code stop} fires, whichever comes first.
   *
   * @param duration how long to wait; zero or negative returns at once
   * @param stop the term's stop signal
   * @return true if the full duration elapsed, false if the stop signal cut the wait short
   * @throws InterruptedException if the thread is interrupted
   */
  boolean sleep(Duration duration, StopSignal stop) throws InterruptedException;

  /** The real-time sleeper: waits on the stop signal's latch. */
  static Sleeper system() {
    return (duration, stop) -> {
      if (stop.isStopped()) {
        return false;
      }
      if (duration.isZero() || duration.isNegative()) {
        return true;
      }
      return !stop.await(duration);
    };
  }
}
