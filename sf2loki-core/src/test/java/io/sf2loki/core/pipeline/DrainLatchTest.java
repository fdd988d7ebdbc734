package io.sf2loki.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@link Pipeline#run}'s wait for its threads is signal-driven (PIPE-13, PIPE-23). */
class DrainLatchTest {
  private static final long SYNC_NANOS = TimeUnit.SECONDS.toNanos(5);

  /** Waits until {@code t} blocks without a timeout (fails after 5 s). */
  private static void awaitUntimedWait(Thread t) {
    long deadline = System.nanoTime() + SYNC_NANOS;
    while (t.getState() != Thread.State.WAITING) {
      assertThat(t.getState())
          .as("the drain wait never uses a timed (polling) wait")
          .isNotEqualTo(Thread.State.TIMED_WAITING);
      assertThat(System.nanoTime()).as("thread reaches its wait").isLessThan(deadline);
      Thread.onSpinWait();
    }
  }

  private static Thread waiter(DrainLatch latch, CountDownLatch returned) {
    return Thread.ofPlatform()
        .start(
            () -> {
              try {
                latch.awaitFinishedOrStopped();
                returned.countDown();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });
  }

  @Test
  @DisplayName(
      "PIPE-13: before stop the pipeline waits for its threads without a timeout (no polling) and"
          + " is woken by the stop signal")
  void pipe13_wokenByStopNotPolling() throws Exception {
    StopSignal stop = new StopSignal();
    DrainLatch latch = new DrainLatch(2, stop);
    CountDownLatch returned = new CountDownLatch(1);
    Thread t = waiter(latch, returned);
    awaitUntimedWait(t);
    latch.countDown();
    awaitUntimedWait(t); // one thread left: still waiting, still untimed
    assertThat(returned.getCount()).isOne();

    stop.stop();
    assertThat(returned.await(5, TimeUnit.SECONDS)).isTrue();
    assertThat(latch.getCount()).isOne();
    assertThat(latch.await(Duration.ZERO)).as("grace wait sees the unfinished thread").isFalse();
    t.join(5000);
  }

  @Test
  @DisplayName("PIPE-23: the wait ends when the last thread finished, without stop")
  void pipe23_wokenByLastThread() throws Exception {
    DrainLatch latch = new DrainLatch(2, new StopSignal());
    CountDownLatch returned = new CountDownLatch(1);
    Thread t = waiter(latch, returned);
    awaitUntimedWait(t);
    latch.countDown();
    latch.countDown();
    assertThat(returned.await(5, TimeUnit.SECONDS)).isTrue();
    assertThat(latch.await(Duration.ZERO)).isTrue();
    t.join(5000);

    DrainLatch none = new DrainLatch(0, new StopSignal());
    none.awaitFinishedOrStopped(); // nothing to wait for: returns at once
    assertThat(none.getCount()).isZero();
  }
}
