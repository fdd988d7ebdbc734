package io.sf2loki.core.term;

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
import io.sf2loki.core.pipeline.CommitListener;
import io.sf2loki.core.pipeline.Pipeline;
import io.sf2loki.core.pipeline.PipelineSettings;
import io.sf2loki.core.spi.EntryEmitter;
import io.sf2loki.core.spi.PushResult;
import io.sf2loki.core.spi.RetryableSinkException;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.spi.Source;
import io.sf2loki.core.spi.StateException;
import io.sf2loki.core.testing.InMemoryCheckpointStore;
import io.sf2loki.core.testing.ListSource;
import io.sf2loki.core.testing.ManualCoordinator;
import io.sf2loki.core.testing.ScriptedSink;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class TermManagerTest {
  private final InMemoryMetricReader reader = InMemoryMetricReader.create();
  private final SdkMeterProvider provider =
      SdkMeterProvider.builder().registerMetricReader(reader).build();
  private final Sf2lokiMetrics metrics = new Sf2lokiMetrics(provider, "test");
  private final FakeTime time = new FakeTime(Instant.parse("2026-11-29T12:00:00Z"));
  private final InMemoryCheckpointStore store = new InMemoryCheckpointStore();
  private final ActiveTerm holder = new ActiveTerm();
  private final StopSignal processStop = new StopSignal();
  private final List<String> transitions = new ArrayList<>();
  private final TermListener listener =
      new TermListener() {
        @Override
        public synchronized void termStarted() {
          transitions.add("ready");
        }

        @Override
        public synchronized void standby() {
          transitions.add("standby");
        }
      };

  @AfterEach
  void close() {
    processStop.stop();
    provider.close();
  }

  private static final int QUEUE_MAX = 100;

  private PipelineSettings settings() {
    return new PipelineSettings(
        10,
        1_048_576,
        Duration.ofSeconds(1),
        QUEUE_MAX,
        0,
        Duration.ofSeconds(5),
        Duration.ofSeconds(1),
        Duration.ofSeconds(30),
        Map.of("job", "sf2loki"),
        Duration.ZERO);
  }

  private static LogEntry entry(String key, long n) {
    return LogEntry.of(
        Instant.parse("2026-11-29T11:00:00Z"),
        Map.of("source", "eventlogfile", "event_type", "Login"),
        "line " + n,
        Map.of(),
        new CheckpointToken(key, "v" + n));
  }

  /** Emits entries of key {@code k} until stopped; records that its run returned. */
  private static final class EndlessSource implements Source {
    final AtomicLong emitted = new AtomicLong();
    final AtomicBoolean returned = new AtomicBoolean();

    @Override
    public String name() {
      return "endless";
    }

    @Override
    public Lane lane() {
      return Lane.BULK;
    }

    @Override
    public void run(EntryEmitter emitter, StopSignal stop) throws InterruptedException {
      try {
        for (long n = 0; ; n++) {
          if (!emitter.emit(entry("k", n))) {
            return;
          }
          emitted.incrementAndGet();
        }
      } finally {
        returned.set(true);
      }
    }
  }

  /** A Loki that never answers until the term's stop fires, then fails retryably. */
  private static final class HangingSink implements Sink {
    final AtomicInteger pushes = new AtomicInteger();

    @Override
    public PushResult push(Batch batch, boolean singleAttempt, StopSignal stop)
        throws RetryableSinkException, InterruptedException {
      pushes.incrementAndGet();
      stop.await();
      throw new RetryableSinkException("hung up", 0);
    }
  }

  private TermManager manager(
      Supplier<List<Source>> sources, Sink sink, List<WeakReference<Pipeline>> built) {
    return new TermManager(
        () -> {
          Pipeline p =
              new Pipeline(
                  settings(),
                  sources.get(),
                  sink,
                  store,
                  metrics,
                  time.timeSource(),
                  UnaryOperator.identity(),
                  CommitListener.none());
          built.add(new WeakReference<>(p));
          return p;
        },
        holder,
        store,
        metrics,
        listener,
        processStop,
        t -> false);
  }

  private double gauge(String name) {
    for (MetricData m : reader.collectAllMetrics()) {
      if (m.getName().equals(name)) {
        var points =
            m.getDoubleGaugeData().getPoints().isEmpty()
                ? m.getLongGaugeData().getPoints().stream().map(p -> (double) p.getValue()).toList()
                : m.getDoubleGaugeData().getPoints().stream().map(p -> p.getValue()).toList();
        assertThat(points).as("%s has exactly one series", name).hasSize(1);
        return points.getFirst();
      }
    }
    return Double.NaN;
  }

  private long counter(String name, String key, String value) {
    long sum = 0;
    for (MetricData m : reader.collectAllMetrics()) {
      if (m.getName().equals(name)) {
        for (var p : m.getLongSumData().getPoints()) {
          if (key == null || value.equals(p.getAttributes().get(AttributeKey.stringKey(key)))) {
            sum += p.getValue();
          }
        }
      }
    }
    return sum;
  }

  /** Waits (bounded) until the running term's lane queue is full: the source is blocked. */
  private void awaitQueueFull() {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (holder.queueDepth() < QUEUE_MAX) {
      assertThat(System.nanoTime()).as("queue fills up").isLessThan(deadline);
      Thread.onSpinWait();
    }
  }

  /**
   * Waits (bounded) until the consumer is inside its hung push (it takes no more entries) and the
   * producer has refilled the lane to its bound: the lane is full and stable.
   */
  private void awaitLaneFullAndStable(HangingSink sink, int pushesBefore) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (sink.pushes.get() <= pushesBefore || holder.queueDepth() < QUEUE_MAX) {
      assertThat(System.nanoTime()).as("queue fills up").isLessThan(deadline);
      Thread.onSpinWait();
    }
  }

  private CompletableFuture<TermManager.Outcome> start(TermManager m, ManualCoordinator c) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return m.run(c);
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
  }

  @Test
  @DisplayName(
      "HA-2, HA-6: noop acquires at once; a term whose sources all finished ends the process with FINISHED")
  void ha6_finiteTermFinishesProcess() throws Exception {
    ScriptedSink sink = new ScriptedSink();
    TermManager m =
        manager(
            () -> List.of(new ListSource("s", Lane.BULK, List.of(entry("k", 1), entry("k", 2)))),
            sink,
            new ArrayList<>());
    assertThat(m.run(new NoopCoordinator())).isEqualTo(TermManager.Outcome.FINISHED);
    assertThat(processStop.isStopped()).isTrue();
    assertThat(store.snapshot()).containsEntry("k", "v2");
    assertThat(transitions).containsExactly("ready");
  }

  @Test
  @DisplayName(
      "HA-3, HA-4, OBS-8: sf2loki_leader is 0 before acquisition, 1 while leading, 0 after loss; readiness follows")
  void ha3_leaderGaugeAndReadiness() throws Exception {
    ManualCoordinator c = new ManualCoordinator();
    TermManager m =
        manager(() -> List.of(new EndlessSource()), new HangingSink(), new ArrayList<>());
    assertThat(gauge("sf2loki_leader")).isZero();
    var run = start(m, c);
    c.acquire();
    assertThat(gauge("sf2loki_leader")).isEqualTo(1);
    c.lose();
    assertThat(gauge("sf2loki_leader")).isZero();
    assertThat(transitions).containsExactly("ready", "standby");
    processStop.stop();
    assertThat(run.get(10, TimeUnit.SECONDS)).isEqualTo(TermManager.Outcome.STOPPED);
  }

  @Test
  @DisplayName(
      "OBS-15: sf2loki_leader_acquisitions counts every acquisition, so a short term between two"
          + " scrapes is still seen")
  void obs15_acquisitionsCounted() throws Exception {
    ManualCoordinator c = new ManualCoordinator();
    TermManager m =
        manager(() -> List.of(new EndlessSource()), new HangingSink(), new ArrayList<>());
    var run = start(m, c);
    assertThat(counter("sf2loki_leader_acquisitions", null, null)).isZero();
    c.acquire();
    c.lose();
    c.acquire();
    assertThat(counter("sf2loki_leader_acquisitions", null, null)).isEqualTo(2);
    assertThat(gauge("sf2loki_leader")).isEqualTo(1);
    processStop.stop();
    assertThat(run.get(10, TimeUnit.SECONDS)).isEqualTo(TermManager.Outcome.STOPPED);
  }

  @Test
  @DisplayName(
      "HA-4, PIPE-14 (e), PIPE-17, PIPE-23: on loss the term ends without pushing or committing; queued and in-flight entries count as leadership_lost; every thread was joined")
  void ha4_lossAbandonsWithoutPushingOrCommitting() throws Exception {
    ManualCoordinator c = new ManualCoordinator();
    HangingSink sink = new HangingSink();
    EndlessSource source = new EndlessSource();
    TermManager m = manager(() -> List.of(source), sink, new ArrayList<>());
    var run = start(m, c);
    c.acquire();
    awaitQueueFull();
    c.lose();
    long emitted = source.emitted.get(); // the source has returned: nothing more is emitted
    // PIPE-23: the source's run returned before onLose returned
    assertThat(source.returned).isTrue();
    assertThat(sink.pushes.get()).isLessThanOrEqualTo(1); // a hung push is never retried
    assertThat(store.snapshot()).isEmpty();
    assertThat(store.resets()).isEqualTo(1);
    assertThat(counter("sf2loki_pipeline_entries_abandoned", "reason", "leadership_lost"))
        .isEqualTo(emitted);
    assertThat(holder.running()).isFalse();
    assertThat(holder.queueDepth()).isZero();
    processStop.stop();
    run.get(10, TimeUnit.SECONDS);
  }

  @Test
  @DisplayName(
      "PIPE-20, PIPE-21, PIPE-22, PIPE-24 (4), (6), OBS-13: 50 acquire/lose cycles mid-drain keep full capacity, one callback per instrument, and nothing of an ended term reachable")
  void pipe24_fiftyFlapsKeepFullCapacity() throws Exception {
    ManualCoordinator c = new ManualCoordinator();
    HangingSink sink = new HangingSink();
    List<WeakReference<Pipeline>> built = new ArrayList<>();
    List<EndlessSource> sources = new ArrayList<>();
    TermManager m =
        manager(
            () -> {
              EndlessSource s = new EndlessSource();
              sources.add(s);
              return List.of(s);
            },
            sink,
            built);
    var run = start(m, c);
    List<Long> admitted = new ArrayList<>();
    for (int i = 0; i < 51; i++) {
      int pushesBefore = sink.pushes.get();
      c.acquire();
      awaitLaneFullAndStable(sink, pushesBefore);
      admitted.add(holder.queueDepth());
      c.lose();
      assertThat(holder.queueDepth()).isZero();
    }
    // the 51st term admitted exactly what the first did: the configured queue bound
    assertThat(admitted).allMatch(n -> n == QUEUE_MAX);
    assertThat(m.termsStarted()).isEqualTo(51);
    assertThat(sources).allMatch(s -> s.returned.get());
    assertThat(gauge("sf2loki_queue_depth")).isZero();
    processStop.stop();
    run.get(10, TimeUnit.SECONDS);
    sources.clear();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (built.stream().anyMatch(r -> r.get() != null) && System.nanoTime() < deadline) {
      System.gc();
      Thread.sleep(10); // GC has no completion signal; bounded retry
    }
    assertThat(built).hasSize(51).allMatch(r -> r.get() == null);
  }

  /** Emits k=0000…N-1, resuming after the committed value of {@code k} (a polling source). */
  private final class ResumingSource implements Source {
    private final int total;

    ResumingSource(int total) {
      this.total = total;
    }

    @Override
    public String name() {
      return "resuming";
    }

    @Override
    public Lane lane() {
      return Lane.BULK;
    }

    @Override
    public void run(EntryEmitter emitter, StopSignal stop) throws InterruptedException {
      int start = store.load("k").map(v -> Integer.parseInt(v.substring(1)) + 1).orElse(0);
      for (int i = start; i < total; i++) {
        if (!emitter.emit(entry("k", i))) {
          return;
        }
      }
    }
  }

  @Test
  @DisplayName(
      "PIPE-1, PIPE-22, HA-4: 50 leadership flaps while sources produce deliver every entry at least once, never commit ahead of delivery, and leave no queue or budget behind")
  void pipe22_flapsWhileProducingLoseNothing() throws Exception {
    int total = 3000;
    java.util.concurrent.Semaphore permits = new java.util.concurrent.Semaphore(0);
    Set<Integer> delivered = java.util.concurrent.ConcurrentHashMap.newKeySet();
    AtomicInteger pushes = new AtomicInteger();
    Sink throttled =
        new Sink() {
          @Override
          public PushResult push(Batch batch, boolean singleAttempt, StopSignal stop)
              throws RetryableSinkException, InterruptedException {
            while (!permits.tryAcquire(1, TimeUnit.MILLISECONDS)) {
              if (stop.isStopped()) {
                throw new RetryableSinkException("term stopped", 0);
              }
            }
            // nothing is ever committed ahead of delivery
            store
                .load("k")
                .map(v -> Integer.parseInt(v.substring(1)))
                .ifPresent(
                    c -> {
                      for (int i = 0; i <= c; i++) {
                        assertThat(delivered)
                            .as("committed %d before delivering %d", c, i)
                            .contains(i);
                      }
                    });
            for (LogEntry e : batch.realEntries()) {
              delivered.add(Integer.parseInt(e.checkpoint().value().substring(1)));
            }
            pushes.incrementAndGet();
            return PushResult.delivered(batch.realCount());
          }
        };
    ManualCoordinator c = new ManualCoordinator();
    TermManager m = manager(() -> List.of(new ResumingSource(total)), throttled, new ArrayList<>());
    var run = start(m, c);
    for (int flap = 0; flap < 50; flap++) {
      int before = pushes.get();
      c.acquire();
      permits.release(3);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (pushes.get() < before + 3) {
        assertThat(System.nanoTime()).as("flap %d pushes", flap).isLessThan(deadline);
        Thread.onSpinWait();
      }
      c.lose();
      assertThat(holder.queueDepth()).isZero();
      permits.drainPermits();
    }
    c.acquire();
    permits.release(1_000_000);
    assertThat(run.get(30, TimeUnit.SECONDS)).isEqualTo(TermManager.Outcome.FINISHED);
    for (int i = 0; i < total; i++) {
      assertThat(delivered).contains(i);
    }
    assertThat(store.snapshot()).containsEntry("k", "v" + (total - 1));
    assertThat(gauge("sf2loki_queue_depth")).isZero();
    assertThat(m.termsStarted()).isEqualTo(51);
  }

  @Test
  @DisplayName("PIPE-12, HA-6: a crashing term ends the process as CRASHED with its failure")
  void pipe12_crashEndsProcess() throws Exception {
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
    TermManager m = manager(() -> List.of(boom), new ScriptedSink(), new ArrayList<>());
    assertThat(m.run(new NoopCoordinator())).isEqualTo(TermManager.Outcome.CRASHED);
    assertThat(m.crash()).get().isInstanceOf(IllegalStateException.class);
    assertThat(processStop.isStopped()).isTrue();
  }

  @Test
  @DisplayName(
      "HA-5: a fenced checkpoint write demotes through the coordinator instead of crashing")
  void ha5_fenceDemotes() throws Exception {
    InMemoryCheckpointStore fencing = new InMemoryCheckpointStore();
    fencing.failWritesWith(new StateException("fenced"));
    ManualCoordinator c = new ManualCoordinator();
    c.setDemoteAnswer(true);
    TermManager m =
        new TermManager(
            () ->
                new Pipeline(
                    settings(),
                    List.of(new ListSource("s", Lane.BULK, List.of(entry("k", 1)))),
                    new ScriptedSink(),
                    fencing,
                    metrics,
                    time.timeSource(),
                    UnaryOperator.identity(),
                    CommitListener.none()),
            holder,
            fencing,
            metrics,
            listener,
            processStop,
            t -> t instanceof StateException);
    var run = start(m, c);
    c.acquire();
    assertThat(c.awaitDemotion(10, TimeUnit.SECONDS)).isTrue();
    processStop.stop();
    assertThat(run.get(10, TimeUnit.SECONDS)).isEqualTo(TermManager.Outcome.STOPPED);
    assertThat(c.demotions()).isEqualTo(1);
  }
}
