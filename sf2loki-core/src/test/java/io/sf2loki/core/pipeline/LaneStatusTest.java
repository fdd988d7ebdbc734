package io.sf2loki.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.Batch;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.Lane;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.spi.EntryEmitter;
import io.sf2loki.core.spi.PushResult;
import io.sf2loki.core.spi.RetryableSinkException;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.spi.Source;
import io.sf2loki.core.testing.InMemoryCheckpointStore;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The lock-free per-lane view of {@code /statusz} (FEAT-3, OBS-36). */
class LaneStatusTest {
  private static final Instant START = Instant.parse("2026-12-03T08:00:00Z");

  private static LogEntry entry(String key, String value, String line) {
    return LogEntry.of(START, Map.of("a", "b"), line, Map.of(), new CheckpointToken(key, value));
  }

  @Test
  @DisplayName(
      "FEAT-3, OBS-36: the queue's published depth and bytes follow every put, putAll, poll,"
          + " pollBatch and drainAll (equal to the locked figures once each call returned)")
  void obs36_publishedCountersFollowTheQueue() throws Exception {
    LaneQueue q = new LaneQueue(100, 0, 1, new StopSignal());
    assertThat(q.publishedSize()).isZero();
    assertThat(q.publishedBytes()).isZero();
    q.put(entry("k", "1", "xy"));
    assertSame(q, 1);
    q.putAll(List.of(entry("k", "2", "abc"), entry("k", "3", "defg"), entry("j", "1", "h")));
    assertSame(q, 4);
    assertThat(q.poll(0)).isNotNull();
    assertSame(q, 3);
    List<LogEntry> out = new ArrayList<>();
    assertThat(q.pollBatch(out, 2, Long.MAX_VALUE, 0)).isEqualTo(2);
    assertSame(q, 1);
    q.drainAll();
    assertSame(q, 0);
    assertThat(q.publishedBytes()).isZero();
  }

  private static void assertSame(LaneQueue q, int size) {
    assertThat(q.publishedSize()).isEqualTo(size).isEqualTo(q.size());
    assertThat(q.publishedBytes()).isEqualTo(q.chargedBytes());
    if (size > 0) {
      assertThat(q.publishedBytes()).isPositive();
    }
  }

  @Test
  @DisplayName(
      "FEAT-3, OBS-36, PIPE-11: the pipeline's lane view lists each lane present with its depth,"
          + " bytes and failing mark (the fake wall clock at the first failed push); a success"
          + " clears the mark and the drained lane shows 0")
  void obs36_pipelineLaneView() throws Exception {
    FakeTime time = new FakeTime(START);
    CountDownLatch emitted = new CountDownLatch(1);
    CountDownLatch secondPush = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    CountDownLatch delivered = new CountDownLatch(3);
    AtomicInteger calls = new AtomicInteger();
    Sink sink =
        new Sink() {
          @Override
          public PushResult push(Batch batch, boolean singleAttempt, StopSignal stop)
              throws RetryableSinkException, InterruptedException {
            int n = calls.incrementAndGet();
            if (n == 1) {
              throw new RetryableSinkException("HTTP 500", 500);
            }
            if (n == 2) {
              secondPush.countDown(); // the retry hangs in flight
              assertThat(release.await(5, TimeUnit.SECONDS)).isTrue();
            }
            for (int i = 0; i < batch.realCount(); i++) {
              delivered.countDown();
            }
            return PushResult.delivered(batch.realCount());
          }
        };
    Source bulk =
        new Source() {
          @Override
          public String name() {
            return "bulk";
          }

          @Override
          public Lane lane() {
            return Lane.BULK;
          }

          @Override
          public void run(EntryEmitter emitter, StopSignal stop) throws InterruptedException {
            for (int i = 1; i <= 3; i++) {
              emitter.emit(entry("eventlogfile:T", "v" + i, "line-" + i));
            }
            emitted.countDown();
            stop.await();
          }
        };
    Source idle =
        new Source() {
          @Override
          public String name() {
            return "idle";
          }

          @Override
          public Lane lane() {
            return Lane.STREAMING;
          }

          @Override
          public void run(EntryEmitter emitter, StopSignal stop) throws InterruptedException {
            stop.await();
          }
        };
    Pipeline p =
        new Pipeline(
            new PipelineSettings(
                1,
                1_048_576,
                Duration.ofMillis(20),
                100,
                0,
                Duration.ofSeconds(5),
                Duration.ofSeconds(1),
                Duration.ofSeconds(30),
                Map.of(),
                Duration.ZERO),
            List.of(bulk, idle),
            sink,
            new InMemoryCheckpointStore(),
            Sf2lokiMetrics.noop(),
            time.timeSource(),
            UnaryOperator.identity(),
            CommitListener.none());
    assertThat(p.laneStatus())
        .extracting(LaneStatus::lane)
        .containsExactly(Lane.STREAMING, Lane.BULK);
    StopSignal stop = new StopSignal();
    Thread runner =
        Thread.ofPlatform()
            .start(
                () -> {
                  try {
                    p.run(stop);
                  } catch (Exception e) {
                    throw new IllegalStateException(e);
                  }
                });
    try {
      assertThat(emitted.await(5, TimeUnit.SECONDS)).isTrue();
      assertThat(secondPush.await(5, TimeUnit.SECONDS)).isTrue();
      LaneStatus b = p.laneStatus().get(1);
      assertThat(b.lane()).isEqualTo(Lane.BULK);
      assertThat(b.depth()).as("one entry in flight (batch of 1), two queued").isEqualTo(2);
      assertThat(b.bytes()).isEqualTo(p.chargedBytes()).isPositive();
      assertThat(b.failingSince()).contains(START);
      assertThat(p.laneStatus().get(0))
          .isEqualTo(new LaneStatus(Lane.STREAMING, 0, 0, Optional.empty()));
      release.countDown();
      assertThat(delivered.await(5, TimeUnit.SECONDS)).isTrue();
    } finally {
      release.countDown();
      stop.stop();
      runner.join(5000);
    }
    assertThat(runner.isAlive()).isFalse();
    assertThat(p.laneStatus())
        .containsExactly(
            new LaneStatus(Lane.STREAMING, 0, 0, Optional.empty()),
            new LaneStatus(Lane.BULK, 0, 0, Optional.empty()));
  }
}
