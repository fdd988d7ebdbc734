package io.sf2loki.core.pipeline;

import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * What {@link Pipeline#run} waits on (SPEC PIPE-13, PIPE-23): one count per pipeline thread, and a
 * wake-up that fires when the last thread finished or when the term's stop fired, whichever comes
 * first. Both waits are signal-driven: {@link #awaitFinishedOrStopped()} has no timeout and no
 * polling; {@link #await(Duration)} bounds the grace and closer waits after stop. Thread-safe.
 */
final class DrainLatch {
  private final CountDownLatch done;
  private final CountDownLatch settled = new CountDownLatch(1);

  /**
   * @param threads number of {@link #countDown()} calls that mean "finished"
   * @param stop the term's stop signal: it ends {@link #awaitFinishedOrStopped()}
   */
  DrainLatch(int threads, StopSignal stop) {
    this.done = new CountDownLatch(threads);
    if (threads == 0) {
      settled.countDown();
    }
    stop.onStop(settled::countDown);
  }

  /** Called once by each thread when it finished. */
  void countDown() {
    done.countDown();
    if (done.getCount() == 0) {
      settled.countDown();
    }
  }

  /** Threads not finished yet. */
  long getCount() {
    return done.getCount();
  }

  /**
   * Blocks until every thread finished or the stop signal fired.
   *
   * @throws InterruptedException if interrupted
   */
  void awaitFinishedOrStopped() throws InterruptedException {
    settled.await();
  }

  /**
   * Waits up to {@code timeout} for every thread to finish.
   *
   * @return true when every thread finished
   * @throws InterruptedException if interrupted
   */
  boolean await(Duration timeout) throws InterruptedException {
    return done.await(Math.max(0, timeout.toNanos()), TimeUnit.NANOSECONDS);
  }
}
