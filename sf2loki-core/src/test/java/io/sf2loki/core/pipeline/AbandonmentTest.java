package io.sf2loki.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.sf2loki.core.egress.BudgetAction;
import io.sf2loki.core.egress.EgressGovernor;
import io.sf2loki.core.egress.EgressSettings;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.Lane;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.spi.EntryEmitter;
import io.sf2loki.core.spi.Source;
import io.sf2loki.core.testing.InMemoryCheckpointStore;
import io.sf2loki.core.testing.ScriptedSink;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * ⚑ Seed invariant B (SPEC PIPE-14…PIPE-19): an abandoned batch is never leapfrogged. Each test
 * queues a scripted sequence of batches (max_entries=1: one entry per batch), fires the term's stop
 * while the first push is failing, and lets the lane drain the rest with single attempts.
 */
class AbandonmentTest {
  private static final String KEY = "pubsub:/event/X";
  private final InMemoryMetricReader reader = InMemoryMetricReader.create();
  private final SdkMeterProvider provider =
      SdkMeterProvider.builder().registerMetricReader(reader).build();
  private Sf2lokiMetrics metrics = new Sf2lokiMetrics(provider, "test");
  private final FakeTime time = new FakeTime(Instant.parse("2026-11-29T12:00:00Z"));
  private final InMemoryCheckpointStore store = new InMemoryCheckpointStore();
  private final ScriptedSink sink = new ScriptedSink();
  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
  private final Logger consumerLog = (Logger) LoggerFactory.getLogger(LaneConsumer.class);

  @BeforeEach
  void captureLogs() {
    logs.start();
    consumerLog.addAppender(logs);
  }

  @AfterEach
  void close() {
    consumerLog.detachAppender(logs);
    provider.close();
  }

  static LogEntry real(String key, String value) {
    return LogEntry.of(
        Instant.parse("2026-11-29T11:59:00Z"),
        Map.of("source", "pubsub", "event_type", "X"),
        "line " + value,
        Map.of(),
        new CheckpointToken(key, value));
  }

  static LogEntry keepalive(String key, String value) {
    return LogEntry.checkpointOnly(new CheckpointToken(key, value));
  }

  private Pipeline pipeline(List<LogEntry> entries, StopSignal stop) {
    return pipeline(entries, stop, null);
  }

  private Pipeline pipeline(List<LogEntry> entries, StopSignal stop, EgressGovernor governor) {
    CountDownLatch allQueued = new CountDownLatch(1);
    // the first push waits until every entry is queued, fires stop, and fails retryably
    sink.onPush(
        b -> {
          if (sink.singleAttemptFlags().isEmpty()) {
            try {
              allQueued.await(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
            stop.stop();
          }
        });
    Source source =
        new Source() {
          @Override
          public String name() {
            return "scripted";
          }

          @Override
          public Lane lane() {
            return Lane.STREAMING;
          }

          @Override
          public void run(EntryEmitter emitter, StopSignal s) throws InterruptedException {
            for (LogEntry e : entries) {
              emitter.emit(e);
            }
            allQueued.countDown();
          }
        };
    return new Pipeline(
        new PipelineSettings(
            1,
            1_048_576,
            Duration.ofSeconds(1),
            100,
            0,
            Duration.ofSeconds(5),
            Duration.ofSeconds(1),
            Duration.ofSeconds(30),
            Map.of(),
            Duration.ZERO),
        List.of(source),
        sink,
        store,
        metrics,
        time.timeSource(),
        UnaryOperator.identity(),
        CommitListener.none(),
        governor == null
            ? new EgressGovernor(
                EgressSettings.disabled(), time.timeSource(), metrics, Optional.empty())
            : governor);
  }

  private long abandoned(String reason) {
    long n = 0;
    for (MetricData m : reader.collectAllMetrics()) {
      if (m.getName().equals("sf2loki_pipeline_entries_abandoned")) {
        for (var p : m.getLongSumData().getPoints()) {
          if (reason.equals(p.getAttributes().get(AttributeKey.stringKey("reason")))) {
            n += p.getValue();
          }
        }
      }
    }
    return n;
  }

  @Test
  @DisplayName(
      "PIPE-19 (1), PIPE-16: batch 1 abandoned, batch 2 of the same key pushed successfully → the key is not committed")
  void pipe19_1_successAfterAbandonDoesNotCommit() throws Exception {
    sink.then(new ScriptedSink.Retry(503)).then(new ScriptedSink.Ok());
    StopSignal stop = new StopSignal();
    pipeline(List.of(real(KEY, "r1"), real(KEY, "r2")), stop).run(stop);
    assertThat(sink.delivered()).extracting(LogEntry::line).containsExactly("line r2");
    assertThat(store.snapshot()).doesNotContainKey(KEY);
  }

  @Test
  @DisplayName(
      "FEAT-10/OBS-37: with drop attribution on, the batch abandoned at shutdown counts under"
          + " lane, reason=shutdown, source and event_type")
  void feat10_abandonedAttributed() throws Exception {
    metrics = new Sf2lokiMetrics(provider, "test", io.sf2loki.core.metrics.DropAttribution.ON);
    sink.then(new ScriptedSink.Retry(503)).then(new ScriptedSink.Ok());
    StopSignal stop = new StopSignal();
    pipeline(List.of(real(KEY, "r1"), real(KEY, "r2")), stop).run(stop);
    long attributed = 0;
    for (MetricData m : reader.collectAllMetrics()) {
      if (m.getName().equals("sf2loki_pipeline_entries_abandoned")) {
        for (var p : m.getLongSumData().getPoints()) {
          if (p.getValue() > 0) {
            assertThat(p.getAttributes().asMap())
                .containsOnlyKeys(
                    Sf2lokiMetrics.LANE,
                    Sf2lokiMetrics.REASON,
                    Sf2lokiMetrics.SOURCE,
                    Sf2lokiMetrics.EVENT_TYPE)
                .containsEntry(Sf2lokiMetrics.REASON, "shutdown")
                .containsEntry(Sf2lokiMetrics.SOURCE, "pubsub")
                .containsEntry(Sf2lokiMetrics.EVENT_TYPE, "X");
            attributed += p.getValue();
          }
        }
      }
    }
    assertThat(attributed).isEqualTo(abandoned("shutdown")).isEqualTo(1);
  }

  @Test
  @DisplayName(
      "PIPE-19 (2), (8), PIPE-15, PIPE-16: batch 1 abandoned, then a keepalive of the same key → nothing committed")
  void pipe19_2_keepaliveAfterAbandonDoesNotCommit() throws Exception {
    sink.setFailAlways(true);
    StopSignal stop = new StopSignal();
    pipeline(List.of(real(KEY, "r1"), keepalive(KEY, "r9")), stop).run(stop);
    assertThat(store.snapshot()).isEmpty();
    assertThat(store.writes()).isEmpty();
  }

  @Test
  @DisplayName(
      "PIPE-19 (3), PIPE-16: batch 1 abandoned, batch 2 permanently rejected → not committed")
  void pipe19_3_permanentAfterAbandonDoesNotCommit() throws Exception {
    sink.then(new ScriptedSink.Retry(503)).then(new ScriptedSink.Permanent("bad_request"));
    StopSignal stop = new StopSignal();
    pipeline(List.of(real(KEY, "r1"), real(KEY, "r2")), stop).run(stop);
    assertThat(store.snapshot()).doesNotContainKey(KEY);
  }

  static LogEntry sized(String key, String value, int lineBytes) {
    return LogEntry.of(
        Instant.parse("2026-11-29T11:59:00Z"),
        Map.of("source", "pubsub", "event_type", "X"),
        "x".repeat(lineBytes),
        Map.of(),
        new CheckpointToken(key, value));
  }

  @Test
  @DisplayName(
      "PIPE-19 (4), EGR-4, PIPE-16: batch 1 abandoned, batch 2 of the same key dropped by the budget → not committed, counted")
  void pipe19_4_budgetDropAfterAbandonDoesNotCommit() throws Exception {
    sink.then(new ScriptedSink.Retry(503));
    EgressGovernor governor =
        new EgressGovernor(
            new EgressSettings(0, 0, 1000, BudgetAction.DROP),
            time.timeSource(),
            metrics,
            Optional.of("{\"date\": \"2026-11-29\", \"bytes\": 500}"));
    StopSignal stop = new StopSignal();
    pipeline(List.of(sized(KEY, "r1", 400), sized(KEY, "r2", 600)), stop, governor).run(stop);
    assertThat(sink.delivered()).isEmpty();
    assertThat(store.snapshot()).doesNotContainKey(KEY);
    assertThat(dropped("budget")).isEqualTo(1);
  }

  @Test
  @DisplayName(
      "PIPE-19 (10), PIPE-14 (d), EGR-7: a rate wait cut short by stop abandons the batch; a later keepalive of its key does not commit")
  void pipe19_10_rateWaitCutByStopFencesKey() throws Exception {
    // every governor wait lasts until stop fires (the rate wait is "cut short by stop")
    io.sf2loki.core.time.TimeSource waitsForStop =
        new io.sf2loki.core.time.TimeSource(
            time.wall(),
            time.ticker(),
            (d, s) -> {
              s.await();
              return false;
            });
    EgressGovernor governor =
        new EgressGovernor(
            new EgressSettings(1, 0, 0, BudgetAction.PAUSE),
            waitsForStop,
            metrics,
            Optional.empty());
    StopSignal stop = new StopSignal();
    pipeline(
            List.of(real("pubsub:/event/A", "a1"), real(KEY, "r2"), keepalive(KEY, "r9")),
            stop,
            governor)
        .run(stop);
    assertThat(sink.delivered()).extracting(LogEntry::line).containsExactly("line a1");
    assertThat(store.snapshot()).containsExactlyEntriesOf(Map.of("pubsub:/event/A", "a1"));
    assertThat(abandoned("shutdown")).isEqualTo(1);
  }

  @Test
  @DisplayName(
      "EGR-6, PIPE-9: after a push the governor's egress:budget value is committed with the batch")
  void egr6_budgetCommittedWithBatch() throws Exception {
    EgressGovernor governor =
        new EgressGovernor(
            new EgressSettings(0, 0, 1_000_000, BudgetAction.PAUSE),
            time.timeSource(),
            metrics,
            Optional.empty());
    Pipeline p =
        new Pipeline(
            PipelineSettings.defaults(Map.of()),
            List.of(
                new io.sf2loki.core.testing.ListSource(
                    "s", Lane.STREAMING, List.of(sized(KEY, "r1", 100), sized(KEY, "r2", 50)))),
            sink,
            store,
            metrics,
            time.timeSource(),
            UnaryOperator.identity(),
            CommitListener.none(),
            governor);
    p.run(new StopSignal());
    assertThat(store.snapshot())
        .containsEntry(KEY, "r2")
        .containsEntry("egress:budget", "{\"date\": \"2026-11-29\", \"bytes\": 150}");
  }

  private long dropped(String reason) {
    long n = 0;
    for (MetricData m : reader.collectAllMetrics()) {
      if (m.getName().equals("sf2loki_loki_entries_dropped")) {
        for (var pt : m.getLongSumData().getPoints()) {
          if (reason.equals(pt.getAttributes().get(AttributeKey.stringKey("reason")))) {
            n += pt.getValue();
          }
        }
      }
    }
    return n;
  }

  @Test
  @DisplayName("PIPE-19 (5): a key untouched by the abandoned batch still commits in the same lane")
  void pipe19_5_otherKeyCommits() throws Exception {
    sink.then(new ScriptedSink.Retry(503)).then(new ScriptedSink.Ok());
    StopSignal stop = new StopSignal();
    pipeline(List.of(real(KEY, "r1"), real("pubsub:/event/Y", "y1")), stop).run(stop);
    assertThat(store.snapshot()).containsExactlyEntriesOf(Map.of("pubsub:/event/Y", "y1"));
  }

  @Test
  @DisplayName(
      "PIPE-19 (6), PIPE-18: a second term on a fresh pipeline commits the abandoned key normally")
  void pipe19_6_nextTermCommits() throws Exception {
    sink.then(new ScriptedSink.Retry(503));
    StopSignal stop = new StopSignal();
    pipeline(List.of(real(KEY, "r1")), stop).run(stop);
    assertThat(store.snapshot()).isEmpty();
    ScriptedSink ok = new ScriptedSink();
    Pipeline second =
        new Pipeline(
            PipelineSettings.defaults(Map.of()),
            List.of(
                new io.sf2loki.core.testing.ListSource(
                    "again", Lane.STREAMING, List.of(real(KEY, "r1")))),
            ok,
            store,
            metrics,
            time.timeSource(),
            UnaryOperator.identity(),
            CommitListener.none());
    assertThat(second.abandonedKeys().snapshot()).isEmpty();
    second.run(new StopSignal());
    assertThat(store.snapshot()).containsEntry(KEY, "r1");
  }

  @Test
  @DisplayName(
      "PIPE-19 (7), PIPE-17: the abandonment logs WARN with lane, sorted keys, entries and checkpoint_only, and counts the real entries")
  void pipe19_7_warnAndCounter() throws Exception {
    sink.setFailAlways(true);
    StopSignal stop = new StopSignal();
    pipeline(List.of(real(KEY, "r1")), stop).run(stop);
    assertThat(abandoned("shutdown")).isEqualTo(1);
    assertThat(logs.list)
        .filteredOn(e -> e.getFormattedMessage().equals("batch abandoned at shutdown"))
        .singleElement()
        .satisfies(
            e -> {
              Map<String, Object> kv = new java.util.HashMap<>();
              e.getKeyValuePairs().forEach(p -> kv.put(p.key, p.value));
              assertThat(kv)
                  .containsEntry("lane", "streaming")
                  .containsEntry("keys", List.of(KEY))
                  .containsEntry("entries", 1)
                  .containsEntry("checkpoint_only", 0);
            });
  }
}
