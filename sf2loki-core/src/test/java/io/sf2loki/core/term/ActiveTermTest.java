package io.sf2loki.core.term;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.Batch;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.Lane;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.pipeline.CommitListener;
import io.sf2loki.core.pipeline.Pipeline;
import io.sf2loki.core.pipeline.PipelineSettings;
import io.sf2loki.core.spi.EntryEmitter;
import io.sf2loki.core.spi.PushResult;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.spi.Source;
import io.sf2loki.core.testing.InMemoryCheckpointStore;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The process-lifetime holder behind observable instruments (SPEC OBS-13, PIPE-24 (6)). */
class ActiveTermTest {
  private final InMemoryMetricReader reader = InMemoryMetricReader.create();
  private final SdkMeterProvider provider =
      SdkMeterProvider.builder().registerMetricReader(reader).build();
  private final Sf2lokiMetrics metrics = new Sf2lokiMetrics(provider, "test");
  private final FakeTime time = new FakeTime(Instant.parse("2026-11-29T12:00:00Z"));
  private final InMemoryCheckpointStore store = new InMemoryCheckpointStore();

  @AfterEach
  void close() {
    metrics.close();
    provider.close();
  }

  private long queueDepthGauge() {
    long value = -1;
    int points = 0;
    for (MetricData m : reader.collectAllMetrics()) {
      if (m.getName().equals("sf2loki_queue_depth")) {
        for (var p : m.getLongGaugeData().getPoints()) {
          value = p.getValue();
          points++;
        }
      }
    }
    assertThat(points).as("one sf2loki_queue_depth point").isEqualTo(1);
    return value;
  }

  /** Emits {@code n} entries, then signals {@code emitted} and returns. */
  private static Source source(int n, CountDownLatch emitted) {
    return new Source() {
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
        for (int i = 0; i < n; i++) {
          emitter.emit(
              LogEntry.of(
                  Instant.parse("2026-11-29T11:00:00Z"),
                  Map.of("source", "eventlogfile", "event_type", "T"),
                  "row" + i,
                  Map.of(),
                  new CheckpointToken("eventlogfile:T", "v" + i)));
        }
        emitted.countDown();
      }
    };
  }

  @Test
  @DisplayName(
      "OBS-13, PIPE-24: sf2loki_queue_depth reads the running term through the ActiveTerm holder,"
          + " reads 0 after the term ended, and the ended pipeline is not kept reachable")
  void obs13_queueDepthThroughHolderNoTermObjectRetained() throws Exception {
    ActiveTerm holder = new ActiveTerm();
    metrics.installQueueDepth(holder::queueDepth); // once per application instance
    assertThat(queueDepthGauge()).isZero();
    assertThat(holder.everStarted()).isFalse();

    CountDownLatch emitted = new CountDownLatch(1);
    CountDownLatch pushing = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Sink blockingFirstPush =
        new Sink() {
          @Override
          public PushResult push(Batch batch, boolean singleAttempt, StopSignal stop)
              throws InterruptedException {
            pushing.countDown();
            assertThat(release.await(5, TimeUnit.SECONDS)).isTrue();
            return PushResult.delivered(batch.realCount());
          }
        };
    AtomicReference<WeakReference<Pipeline>> built = new AtomicReference<>();
    TermFactory factory =
        () -> {
          Pipeline p =
              new Pipeline(
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
                  List.of(source(4, emitted)),
                  blockingFirstPush,
                  store,
                  metrics,
                  time.timeSource(),
                  UnaryOperator.identity(),
                  CommitListener.none());
          built.set(new WeakReference<>(p));
          return p;
        };
    TermManager terms =
        new TermManager(
            factory, holder, store, metrics, TermListener.none(), new StopSignal(), t -> false);
    Thread runner =
        Thread.ofPlatform()
            .start(
                () -> {
                  try {
                    terms.run(new NoopCoordinator());
                  } catch (Exception e) {
                    throw new IllegalStateException(e);
                  }
                });
    try {
      assertThat(emitted.await(5, TimeUnit.SECONDS)).isTrue();
      assertThat(pushing.await(5, TimeUnit.SECONDS)).isTrue();
      // max_entries=1: the consumer holds entry 0 in its hanging push, 3 entries are queued
      assertThat(holder.running()).isTrue();
      assertThat(queueDepthGauge()).isEqualTo(3);
    } finally {
      release.countDown();
      runner.join(5000);
    }
    assertThat(runner.isAlive()).isFalse();
    assertThat(store.snapshot()).containsEntry("eventlogfile:T", "v3");

    // the term ended: the holder is cleared and the same callback reads 0
    assertThat(holder.running()).isFalse();
    assertThat(holder.everStarted()).isTrue();
    assertThat(holder.sinkFailingSince()).isEmpty();
    assertThat(queueDepthGauge()).isZero();

    // no callback or holder keeps the ended term's pipeline reachable
    WeakReference<Pipeline> ref = built.get();
    for (int i = 0; i < 50 && ref.get() != null; i++) {
      System.gc();
      Thread.sleep(10);
    }
    assertThat(ref.get()).as("the ended pipeline was collected").isNull();
    assertThat(queueDepthGauge()).isZero();
  }
}
