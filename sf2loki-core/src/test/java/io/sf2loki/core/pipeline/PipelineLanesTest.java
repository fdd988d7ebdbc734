package io.sf2loki.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.Batch;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.Lane;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.spi.EntryEmitter;
import io.sf2loki.core.spi.PushResult;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.spi.Source;
import io.sf2loki.core.testing.InMemoryCheckpointStore;
import io.sf2loki.core.testing.ListSource;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Lane grouping and lane independence (SPEC PIPE-2, PIPE-25). */
class PipelineLanesTest {
  private final InMemoryMetricReader reader = InMemoryMetricReader.create();
  private final SdkMeterProvider provider =
      SdkMeterProvider.builder().registerMetricReader(reader).build();
  private final Sf2lokiMetrics metrics = new Sf2lokiMetrics(provider, "test");
  private final FakeTime time = new FakeTime(Instant.parse("2026-11-29T12:00:00Z"));
  private final InMemoryCheckpointStore store = new InMemoryCheckpointStore();

  @AfterEach
  void close() {
    provider.close();
  }

  private static LogEntry entry(String source, String key, String line) {
    return LogEntry.of(
        Instant.parse("2026-11-29T11:59:00Z"),
        Map.of("source", source, "event_type", "T"),
        line,
        Map.of(),
        new CheckpointToken(key, line));
  }

  private static PipelineSettings settings(Duration grace) {
    return new PipelineSettings(
        1,
        1_048_576,
        Duration.ofSeconds(1),
        100,
        0,
        grace,
        Duration.ofSeconds(1),
        Duration.ofSeconds(30),
        Map.of(),
        Duration.ZERO);
  }

  private Pipeline pipeline(PipelineSettings s, List<Source> sources, Sink sink) {
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

  /** Points of {@code sf2loki_pipeline_entries_abandoned}: lane → value, for one reason. */
  private Map<String, Long> abandonedByLane(String reason) {
    Map<String, Long> out = new HashMap<>();
    for (MetricData m : reader.collectAllMetrics()) {
      if (m.getName().equals("sf2loki_pipeline_entries_abandoned")) {
        for (var p : m.getLongSumData().getPoints()) {
          if (reason.equals(p.getAttributes().get(AttributeKey.stringKey("reason")))) {
            out.merge(
                p.getAttributes().get(AttributeKey.stringKey("lane")), p.getValue(), Long::sum);
          }
        }
      }
    }
    return out;
  }

  @Test
  @DisplayName(
      "PIPE-2: a bulk source feeds the bulk lane, and only lanes with at least one source exist"
          + " (a drain timeout reports the bulk lane alone)")
  void pipe2_onlyLanesWithSourcesExist() throws Exception {
    CountDownLatch allEmitted = new CountDownLatch(1);
    StopSignal termStop = new StopSignal();
    Map<String, String> pushThreads = new ConcurrentHashMap<>();
    Source bulk =
        new Source() {
          @Override
          public String name() {
            return "elf";
          }

          @Override
          public Lane lane() {
            return Lane.BULK;
          }

          @Override
          public void run(EntryEmitter emitter, StopSignal stop) throws InterruptedException {
            for (int i = 1; i <= 3; i++) {
              emitter.emit(entry("eventlogfile", "eventlogfile:T", "row" + i));
            }
            allEmitted.countDown();
            stop.await(); // an endless polling source
          }
        };
    CountDownLatch never = new CountDownLatch(1);
    Sink hanging =
        new Sink() {
          @Override
          public PushResult push(Batch batch, boolean singleAttempt, StopSignal stop)
              throws InterruptedException {
            pushThreads.put(batch.entries().getFirst().line(), Thread.currentThread().getName());
            allEmitted.await();
            termStop.stop();
            never.await(); // a push that never completes: cancelled after shutdown_grace
            throw new AssertionError("unreachable");
          }
        };

    boolean finished =
        pipeline(settings(Duration.ofMillis(50)), List.of(bulk), hanging).run(termStop);

    assertThat(finished).isFalse();
    // every entry of the bulk source was in the bulk lane (1 in the hanging batch, 2 queued);
    // no streaming lane exists, so none is reported
    assertThat(abandonedByLane("drain_timeout")).containsExactly(Map.entry("bulk", 3L));
    assertThat(pushThreads).containsExactly(Map.entry("row1", "consumer-bulk"));
    assertThat(store.snapshot()).isEmpty();
  }

  @Test
  @DisplayName(
      "PIPE-2, PIPE-25: each lane has its own consumer: streaming entries are delivered while a"
          + " bulk push hangs")
  void pipe2_lanesHaveIndependentConsumers() throws Exception {
    CountDownLatch streamingDelivered = new CountDownLatch(3);
    List<String> delivered = new ArrayList<>();
    Map<String, String> threadByLine = new ConcurrentHashMap<>();
    boolean[] bulkSawStreaming = {false};
    Sink sink =
        new Sink() {
          @Override
          public PushResult push(Batch batch, boolean singleAttempt, StopSignal stop)
              throws InterruptedException {
            LogEntry e = batch.entries().getFirst();
            threadByLine.put(e.line(), Thread.currentThread().getName());
            if (e.labels().get("source").equals("eventlogfile")) {
              // the bulk push hangs until every streaming entry was delivered
              bulkSawStreaming[0] = streamingDelivered.await(5, TimeUnit.SECONDS);
            }
            synchronized (delivered) {
              delivered.add(e.line());
            }
            if (e.labels().get("source").equals("pubsub")) {
              streamingDelivered.countDown();
            }
            return PushResult.delivered(batch.realCount());
          }
        };
    var bulk =
        new ListSource("elf", Lane.BULK, List.of(entry("eventlogfile", "eventlogfile:T", "b1")));
    var streaming =
        new ListSource(
            "ps",
            Lane.STREAMING,
            List.of(
                entry("pubsub", "pubsub:/event/X", "s1"),
                entry("pubsub", "pubsub:/event/X", "s2"),
                entry("pubsub", "pubsub:/event/X", "s3")));

    boolean finished =
        pipeline(settings(Duration.ofSeconds(5)), List.of(bulk, streaming), sink)
            .run(new StopSignal());

    assertThat(finished).isTrue();
    assertThat(bulkSawStreaming[0]).as("streaming flowed while the bulk push hung").isTrue();
    assertThat(delivered).containsExactly("s1", "s2", "s3", "b1");
    assertThat(threadByLine)
        .containsEntry("b1", "consumer-bulk")
        .containsEntry("s1", "consumer-streaming")
        .containsEntry("s3", "consumer-streaming");
    assertThat(store.snapshot())
        .containsExactlyInAnyOrderEntriesOf(
            Map.of("eventlogfile:T", "b1", "pubsub:/event/X", "s3"));
  }
}
