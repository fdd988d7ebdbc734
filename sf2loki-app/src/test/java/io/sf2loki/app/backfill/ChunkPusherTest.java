package io.sf2loki.app.backfill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.api.metrics.MeterProvider;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.Batch;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.spi.PermanentSinkException;
import io.sf2loki.core.spi.PushResult;
import io.sf2loki.core.spi.RetryableSinkException;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** BF-9 push retries and the CLI-20 byte cap, on {@link FakeTime}. */
class ChunkPusherTest {
  final FakeTime time = new FakeTime(Instant.parse("2026-11-01T00:00:00Z"));
  final BackfillSummary summary = new BackfillSummary();
  final Sf2lokiMetrics metrics = new Sf2lokiMetrics(MeterProvider.noop(), "test");
  final Deque<Object> answers = new ArrayDeque<>();
  final List<Batch> pushed = new ArrayList<>();

  final Sink sink =
      new Sink() {
        @Override
        public PushResult push(Batch batch, boolean singleAttempt, StopSignal stop)
            throws RetryableSinkException, PermanentSinkException {
          pushed.add(batch);
          Object a = answers.isEmpty() ? PushResult.delivered(1) : answers.poll();
          if (a instanceof RetryableSinkException r) {
            throw r;
          }
          if (a instanceof PermanentSinkException p) {
            throw p;
          }
          return (PushResult) a;
        }
      };

  static List<LogEntry> chunk(int n, int lineBytes) {
    List<LogEntry> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(
          LogEntry.of(
              Instant.EPOCH,
              Map.of("backfill", "true"),
              "x".repeat(lineBytes),
              Map.of(),
              new CheckpointToken("k", "")));
    }
    return out;
  }

  ChunkPusher pusher(long cap) {
    return new ChunkPusher(sink, metrics, time.timeSource(), new StopSignal(), summary, cap);
  }

  @Test
  @DisplayName(
      "BF-9: a retryable failure waits 1 s doubling to 30 s (at least Retry-After) and retries the"
          + " same batch; success resets the count; a permanent failure drops the chunk, counted")
  void bf9_retriesThenDrops() throws Exception {
    for (int i = 0; i < 6; i++) {
      answers.add(new RetryableSinkException("503", 503));
    }
    answers.add(PushResult.delivered(10));
    answers.add(new RetryableSinkException("429", 429, null, Duration.ofSeconds(45)));
    answers.add(new PermanentSinkException("400", 400, "bad_request"));
    ChunkPusher p = pusher(0);
    p.push(chunk(3, 10));
    p.push(chunk(2, 10));

    assertThat(time.sleeps())
        .containsExactly(
            Duration.ofSeconds(1),
            Duration.ofSeconds(2),
            Duration.ofSeconds(4),
            Duration.ofSeconds(8),
            Duration.ofSeconds(16),
            Duration.ofSeconds(30),
            Duration.ofSeconds(45));
    assertThat(pushed.subList(0, 7)).allMatch(b -> b == pushed.getFirst());
    assertThat(summary.rowsPushed.get()).isEqualTo(3);
    assertThat(summary.rowsDropped.get()).isEqualTo(2);
    assertThat(summary.bytesPushed.get()).isEqualTo(30);
  }

  @Test
  @DisplayName("BF-9: 10 consecutive retryable failures abandon the run")
  void bf9_tenFailuresAbandon() {
    for (int i = 0; i < 10; i++) {
      answers.add(new RetryableSinkException("503", 503));
    }
    assertThatThrownBy(() -> pusher(0).push(chunk(1, 1)))
        .isInstanceOf(ChunkPusher.PushAbandonedException.class)
        .hasMessageContaining("10 consecutive retryable push failures");
    assertThat(pushed).hasSize(10);
    assertThat(summary.rowsPushed.get()).isZero();
  }

  @Test
  @DisplayName(
      "CLI-20, BF-15: --max-bytes-per-second paces the chunks on the injected clock, so the"
          + " backfill's share of Loki is bounded")
  void cli20_pacesPushes() throws Exception {
    ChunkPusher p = pusher(1000);
    p.push(chunk(10, 50)); // 500 B: no wait before the first
    p.push(chunk(10, 100)); // due at 0.5 s
    p.push(chunk(1, 1)); // due at 1.5 s
    assertThat(time.sleeps()).containsExactly(Duration.ofMillis(500), Duration.ofMillis(1000));
    assertThat(pushed).hasSize(3);
  }
}
