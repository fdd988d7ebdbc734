package io.sf2loki.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.Lane;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.spi.EntryEmitter;
import io.sf2loki.core.spi.Source;
import io.sf2loki.core.testing.InMemoryCheckpointStore;
import io.sf2loki.core.testing.ListSource;
import io.sf2loki.core.testing.ScriptedSink;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class PipelineTest {
  private final InMemoryMetricReader reader = InMemoryMetricReader.create();
  private final SdkMeterProvider provider =
      SdkMeterProvider.builder().registerMetricReader(reader).build();
  private final Sf2lokiMetrics metrics = new Sf2lokiMetrics(provider, "test");
  private final FakeTime time = new FakeTime(Instant.parse("2026-11-29T12:00:00Z"));
  private final InMemoryCheckpointStore store = new InMemoryCheckpointStore();
  private final ScriptedSink sink = new ScriptedSink();

  @AfterEach
  void close() {
    provider.close();
  }

  static LogEntry real(String key, String value, String line) {
    return LogEntry.of(
        Instant.parse("2026-11-29T11:59:00Z"),
        Map.of("source", "eventlogfile", "event_type", "Login"),
        line,
        Map.of("level", "info"),
        new CheckpointToken(key, value));
  }

  private PipelineSettings settings(int maxEntries) {
    return new PipelineSettings(
        maxEntries,
        1_048_576,
        Duration.ofSeconds(1),
        100,
        0,
        Duration.ofSeconds(5),
        Duration.ofSeconds(1),
        Duration.ofSeconds(30),
        Map.of("job", "sf2loki", "source", "static-must-win"),
        Duration.ZERO);
  }

  private Pipeline pipeline(PipelineSettings s, List<Source> sources) {
    return new Pipeline(
        s,
        sources,
        sink,
        store,
        metrics,
        time.timeSource(),
        UnaryOperator.identity(),
        CommitListener.none());
  }

  private long counter(String name, String attrKey, String attrValue) {
    long sum = 0;
    for (MetricData m : reader.collectAllMetrics()) {
      if (!m.getName().equals(name)) {
        continue;
      }
      for (var p : m.getLongSumData().getPoints()) {
        if (attrKey == null
            || attrValue.equals(
                p.getAttributes()
                    .get(io.opentelemetry.api.common.AttributeKey.stringKey(attrKey)))) {
          sum += p.getValue();
        }
      }
    }
    return sum;
  }

  @Test
  @DisplayName("PIPE-1, PIPE-9: commit after push; the last value per key wins")
  void pipe1_commitAfterPushLastValueWins() throws Exception {
    var src =
        new ListSource(
            "s",
            Lane.BULK,
            List.of(real("k1", "v1", "a"), real("k1", "v2", "b"), real("k2", "w1", "c")));
    boolean finished = pipeline(settings(10), List.of(src)).run(new StopSignal());
    assertThat(finished).isTrue();
    assertThat(sink.delivered()).extracting(LogEntry::line).containsExactly("a", "b", "c");
    assertThat(store.snapshot()).containsExactlyInAnyOrderEntriesOf(Map.of("k1", "v2", "k2", "w1"));
    assertThat(store.writes()).isNotEmpty();
  }

  @Test
  @DisplayName("PIPE-4: static labels are merged over the entry's labels")
  void pipe4_staticLabelsWin() throws Exception {
    var src = new ListSource("s", Lane.BULK, List.of(real("k", "v", "x")));
    pipeline(settings(10), List.of(src)).run(new StopSignal());
    assertThat(sink.delivered().getFirst().labels())
        .containsEntry("job", "sf2loki")
        .containsEntry("source", "static-must-win")
        .containsEntry("event_type", "Login");
    assertThat(counter("sf2loki_events_ingested", "event_type", "Login")).isEqualTo(1);
  }

  @Test
  @DisplayName("PIPE-5: batches flush at max_entries")
  void pipe5_flushAtMaxEntries() throws Exception {
    List<LogEntry> es = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      es.add(real("k", "v" + i, "l" + i));
    }
    List<Integer> sizes = new ArrayList<>();
    sink.onPush(b -> sizes.add(b.entries().size()));
    pipeline(settings(3), List.of(new ListSource("s", Lane.BULK, es))).run(new StopSignal());
    assertThat(sizes).containsExactly(3, 3, 1);
    assertThat(store.snapshot()).containsEntry("k", "v6");
  }

  @Test
  @DisplayName("PIPE-6, SRC-3: checkpoint-only entries are committed, never pushed")
  void pipe6_checkpointOnlyNeverPushed() throws Exception {
    var src =
        new ListSource(
            "s",
            Lane.BULK,
            List.of(LogEntry.checkpointOnly(new CheckpointToken("eventlogfile:Login", "c1"))));
    pipeline(settings(10), List.of(src)).run(new StopSignal());
    assertThat(sink.delivered()).isEmpty();
    assertThat(sink.singleAttemptFlags()).isEmpty();
    assertThat(store.snapshot()).containsEntry("eventlogfile:Login", "c1");
  }

  @Test
  @DisplayName("PIPE-7: a retryable failure retries the same batch with 1 s doubling backoff")
  void pipe7_retryableRetriesWithBackoff() throws Exception {
    sink.thenRetry(3);
    var src = new ListSource("s", Lane.BULK, List.of(real("k", "v", "x")));
    pipeline(settings(10), List.of(src)).run(new StopSignal());
    assertThat(time.sleeps())
        .containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4));
    assertThat(sink.delivered()).hasSize(1);
    assertThat(store.snapshot()).containsEntry("k", "v");
    assertThat(counter("sf2loki_loki_push", "outcome", "retried")).isEqualTo(3);
    assertThat(counter("sf2loki_loki_push", "outcome", "success")).isEqualTo(1);
  }

  @Test
  @DisplayName(
      "PIPE-27: the batch retry waits at least the failure's Retry-After (capped at 60 s) and"
          + " counts the wait")
  void pipe27_batchRetryHonoursRetryAfter() throws Exception {
    sink.then(new ScriptedSink.Retry(429, Duration.ofSeconds(5)))
        .then(new ScriptedSink.Retry(429, Duration.ofSeconds(1)))
        .then(new ScriptedSink.Retry(429, Duration.ofSeconds(600)));
    var src = new ListSource("s", Lane.BULK, List.of(real("k", "v", "x")));
    pipeline(settings(10), List.of(src)).run(new StopSignal());
    // backoff 1 s raised to 5 s; backoff 2 s above the 1 s Retry-After; 600 s capped at 60 s
    assertThat(time.sleeps())
        .containsExactly(Duration.ofSeconds(5), Duration.ofSeconds(2), Duration.ofSeconds(60));
    assertThat(sink.delivered()).hasSize(1);
    assertThat(counter("sf2loki_loki_retry_after_waits", "layer", "batch_retry")).isEqualTo(2);
  }

  @Test
  @DisplayName("PIPE-1: during a Loki outage no checkpoint moves past an undelivered entry")
  void pipe1_outageNeverCommitsUndelivered() throws Exception {
    sink.thenRetry(40);
    var src = new ListSource("s", Lane.BULK, List.of(real("k", "v1", "x"), real("k", "v2", "y")));
    sink.onPush(
        b -> {
          if (sink.singleAttemptFlags().size() < 40) {
            assertThat(store.snapshot()).doesNotContainKey("k");
          }
        });
    pipeline(settings(10), List.of(src)).run(new StopSignal());
    assertThat(time.sleeps()).hasSize(40).last().isEqualTo(Duration.ofSeconds(30));
    assertThat(store.snapshot()).containsEntry("k", "v2");
  }

  @Test
  @DisplayName("PIPE-8: a permanent rejection drops, counts by reason and still commits")
  void pipe8_permanentDropsAndCommits() throws Exception {
    sink.then(new ScriptedSink.Permanent("bad_request"));
    var src = new ListSource("s", Lane.BULK, List.of(real("k", "v", "x"), real("k", "v2", "y")));
    pipeline(settings(10), List.of(src)).run(new StopSignal());
    assertThat(sink.delivered()).isEmpty();
    assertThat(store.snapshot()).containsEntry("k", "v2");
    assertThat(counter("sf2loki_loki_entries_dropped", "reason", "bad_request")).isEqualTo(2);
  }

  @Test
  @DisplayName(
      "PIPE-14, PIPE-16: a batch failing after stop is abandoned; a later keepalive of its key does not commit")
  void pipe16_keepaliveAfterAbandonDoesNotCommit() throws Exception {
    StopSignal stop = new StopSignal();
    CountDownLatch firstPush = new CountDownLatch(1);
    sink.setFailAlways(true);
    sink.onPush(
        b -> {
          if (firstPush.getCount() > 0) {
            stop.stop(); // stop fires while the push is failing
            firstPush.countDown();
          }
        });
    // max_entries=1: r1 is its own batch, then the keepalive r9 is a checkpoint-only batch
    Source src =
        new Source() {
          @Override
          public String name() {
            return "ps";
          }

          @Override
          public Lane lane() {
            return Lane.STREAMING;
          }

          @Override
          public void run(EntryEmitter emitter, StopSignal s) throws InterruptedException {
            emitter.emit(real("pubsub:/event/X", "r1", "x"));
            firstPush.await(5, TimeUnit.SECONDS);
            // enqueue after stop is refused by the lane; emulate a keepalive already queued
          }
        };
    Pipeline p = pipeline(settings(1), List.of(src));
    p.run(stop);
    assertThat(store.snapshot()).doesNotContainKey("pubsub:/event/X");
    assertThat(p.abandonedKeys().contains("pubsub:/event/X")).isTrue();
    assertThat(counter("sf2loki_pipeline_entries_abandoned", "reason", "shutdown")).isEqualTo(1);
    // a later commit attempt of the same key in this term is suppressed
    Committer c =
        new Committer(
            store, p.abandonedKeys(), CommitListener.none(), Duration.ZERO, time.timeSource());
    c.submit(Map.of("pubsub:/event/X", "r9"));
    c.finish(true);
    c.run();
    assertThat(store.snapshot()).doesNotContainKey("pubsub:/event/X");
    assertThat(sink.singleAttemptFlags()).containsExactly(false);
  }

  @Test
  @DisplayName(
      "PIPE-13, PIPE-14: after stop the lane drains what is queued with single push attempts")
  void pipe14_singleAttemptAfterStop() throws Exception {
    StopSignal stop = new StopSignal();
    CountDownLatch bothQueued = new CountDownLatch(1);
    sink.onPush(
        b -> {
          if (sink.singleAttemptFlags().isEmpty()) {
            try {
              bothQueued.await(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            stop.stop();
          }
        });
    Source src =
        new Source() {
          @Override
          public String name() {
            return "s";
          }

          @Override
          public Lane lane() {
            return Lane.BULK;
          }

          @Override
          public void run(EntryEmitter emitter, StopSignal s) throws InterruptedException {
            emitter.emit(real("k", "v1", "a"));
            emitter.emit(real("k", "v2", "b"));
            bothQueued.countDown();
          }
        };
    boolean finished = pipeline(settings(1), List.of(src)).run(stop);
    assertThat(finished).isFalse();
    assertThat(sink.singleAttemptFlags()).containsExactly(false, true);
    assertThat(sink.delivered()).extracting(LogEntry::line).containsExactly("a", "b");
    assertThat(store.snapshot()).containsEntry("k", "v2");
  }

  @Test
  @DisplayName("PIPE-12: a failing source ends the term and its failure propagates")
  void pipe12_sourceFailurePropagates() {
    Source boom =
        new Source() {
          @Override
          public String name() {
            return "boom";
          }

          @Override
          public Lane lane() {
            return Lane.BULK;
          }

          @Override
          public void run(EntryEmitter emitter, StopSignal stop) {
            throw new IllegalStateException("boom");
          }
        };
    assertThatThrownBy(() -> pipeline(settings(10), List.of(boom)).run(new StopSignal()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("boom");
  }

  @Test
  @DisplayName("PIPE-12: a pipeline with zero sources ends at once")
  void pipe12_zeroSourcesEndsAtOnce() throws Exception {
    assertThat(pipeline(settings(10), List.of()).run(new StopSignal())).isTrue();
  }

  @Test
  @DisplayName("PIPE-20: a pipeline runs once")
  void pipe20_pipelineRunsOnce() throws Exception {
    Pipeline p = pipeline(settings(10), List.of());
    p.run(new StopSignal());
    assertThatThrownBy(() -> p.run(new StopSignal())).isInstanceOf(IllegalStateException.class);
  }
}
