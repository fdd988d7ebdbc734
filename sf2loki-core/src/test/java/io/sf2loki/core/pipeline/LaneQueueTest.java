package io.sf2loki.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.time.StopSignal;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class LaneQueueTest {
  private static LogEntry entry(CheckpointToken t, String line) {
    return LogEntry.of(Instant.EPOCH, Map.of("a", "b"), line, Map.of(), t);
  }

  @Test
  @DisplayName(
      "PIPE-3: entry cost is 64 + line + labels + metadata, token value charged once per token")
  void pipe3_costAndSharedToken() throws Exception {
    StopSignal stop = new StopSignal();
    LaneQueue q = new LaneQueue(100, 0, 1, stop);
    CheckpointToken shared = new CheckpointToken("k", "12345"); // 5 bytes
    q.put(entry(shared, "xy"));
    q.put(entry(shared, "xy"));
    // each entry: 64 + 2 + 2 ("a","b") = 68; the token once: 5
    assertThat(q.chargedBytes()).isEqualTo(68 * 2 + 5);
    q.poll(0);
    assertThat(q.chargedBytes()).isEqualTo(68 + 5);
    q.poll(0);
    assertThat(q.chargedBytes()).isZero();
  }

  @Test
  @DisplayName("PIPE-3: checkpoint-only entries cost 0")
  void pipe3_checkpointOnlyCostsZero() throws Exception {
    LaneQueue q = new LaneQueue(100, 10, 1, new StopSignal());
    q.put(LogEntry.checkpointOnly(new CheckpointToken("k", "v")));
    assertThat(q.chargedBytes()).isZero();
  }

  @Test
  @DisplayName(
      "PIPE-3: the byte budget blocks a producer and resumes it after a dequeue; an oversized entry is admitted alone")
  void pipe3_byteBudgetBlocksAndResumes() throws Exception {
    StopSignal stop = new StopSignal();
    LaneQueue q = new LaneQueue(100, 100, 1, stop);
    assertThat(q.put(entry(new CheckpointToken("k", "1"), "x".repeat(500)))).isTrue();
    AtomicBoolean second = new AtomicBoolean();
    CountDownLatch done = new CountDownLatch(1);
    Thread t =
        Thread.ofVirtual()
            .start(
                () -> {
                  try {
                    second.set(q.put(entry(new CheckpointToken("k", "2"), "y")));
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                  done.countDown();
                });
    assertThat(done.await(50, TimeUnit.MILLISECONDS)).isFalse(); // blocked by the budget
    assertThat(q.poll(0).line()).hasSize(500);
    assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
    assertThat(second).isTrue();
    t.join();
  }

  @Test
  @DisplayName(
      "PIPE-3: the entry bound holds with the byte bound disabled; stop releases a blocked producer without a charge")
  void pipe3_entryBoundAndStop() throws Exception {
    StopSignal stop = new StopSignal();
    LaneQueue q = new LaneQueue(1, 0, 1, stop);
    q.put(entry(new CheckpointToken("k", "1"), "a"));
    long before = q.chargedBytes();
    AtomicBoolean result = new AtomicBoolean(true);
    CountDownLatch done = new CountDownLatch(1);
    Thread.ofVirtual()
        .start(
            () -> {
              try {
                result.set(q.put(entry(new CheckpointToken("k", "2"), "b")));
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              done.countDown();
            });
    assertThat(done.await(50, TimeUnit.MILLISECONDS)).isFalse();
    stop.stop();
    assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
    assertThat(result).isFalse();
    assertThat(q.size()).isEqualTo(1);
    assertThat(q.chargedBytes()).isEqualTo(before);
  }

  @Test
  @DisplayName(
      "PIPE-3, PIPE-5: a busy lane's consumer picks up a lone entry within a 1 ms slice; an idle"
          + " lane's consumer is woken at once")
  void pipe5_slicedWakeUpsPickUpLoneEntries() throws Exception {
    StopSignal stop = new StopSignal();
    LaneQueue q = new LaneQueue(100, 0, 1, stop);
    CheckpointToken t = new CheckpointToken("k", "1");
    for (int round = 0; round < 2; round++) {
      // round 0: idle lane (no put yet); round 1: busy lane (a put just happened)
      CountDownLatch polling = new CountDownLatch(1);
      java.util.concurrent.atomic.AtomicReference<LogEntry> got =
          new java.util.concurrent.atomic.AtomicReference<>();
      Thread consumer =
          Thread.ofVirtual()
              .start(
                  () -> {
                    polling.countDown();
                    try {
                      got.set(q.poll(TimeUnit.SECONDS.toNanos(5)));
                    } catch (InterruptedException e) {
                      Thread.currentThread().interrupt();
                    }
                  });
      polling.await();
      long t0 = System.nanoTime();
      q.put(entry(t, "x" + round));
      consumer.join(2000);
      assertThat(got.get()).isNotNull();
      assertThat(System.nanoTime() - t0).isLessThan(TimeUnit.MILLISECONDS.toNanos(100));
    }
    assertThat(q.chargedBytes()).isZero();
  }
}
