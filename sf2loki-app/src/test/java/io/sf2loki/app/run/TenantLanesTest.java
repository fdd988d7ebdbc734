package io.sf2loki.app.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.sf2loki.core.egress.EgressGovernor;
import io.sf2loki.core.egress.EgressSettings;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.Batch;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.Lane;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.pipeline.LaneStatus;
import io.sf2loki.core.pipeline.Pipeline;
import io.sf2loki.core.pipeline.PipelineSettings;
import io.sf2loki.core.spi.EntryEmitter;
import io.sf2loki.core.spi.PushResult;
import io.sf2loki.core.spi.RetryableSinkException;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.spi.Source;
import io.sf2loki.core.testing.InMemoryCheckpointStore;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.Sleeper;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * PIPE-28, ORG-16: with per-org Loki tenants, one tenant's retryable failure holds only its own
 * lanes; the other tenant's rows keep landing and committing, and the failing tenant's checkpoint
 * never moves until its rows are delivered, exactly once.
 */
class TenantLanesTest {
  private static final String KEY_A = "org=a:apexlog";
  private static final String KEY_B = "org=b:apexlog";

  private final SdkMeterProvider provider = SdkMeterProvider.builder().build();
  private final Sf2lokiMetrics metrics = new Sf2lokiMetrics(provider, "test");
  private final FakeTime time = new FakeTime(Instant.parse("2026-12-03T10:00:00Z"));
  private final InMemoryCheckpointStore store = new InMemoryCheckpointStore();

  /** Tenant B answers 503 until {@link #up}; each tenant records what it stored. */
  private final AtomicBoolean up = new AtomicBoolean();

  private final AtomicInteger bFailures = new AtomicInteger();
  private final List<String> storedA = Collections.synchronizedList(new ArrayList<>());
  private final List<String> storedB = Collections.synchronizedList(new ArrayList<>());

  /** B's batch retries: the first 5 pass on fake time, then B's lane waits until woken. */
  private final CountDownLatch bHeld = new CountDownLatch(1);

  private final CountDownLatch wake = new CountDownLatch(1);
  private final AtomicInteger sleeps = new AtomicInteger();

  @AfterEach
  void close() {
    wake.countDown();
    provider.close();
  }

  private final class Tenant implements Sink {
    private final List<String> stored;
    private final boolean failsUntilUp;

    Tenant(List<String> stored, boolean failsUntilUp) {
      this.stored = stored;
      this.failsUntilUp = failsUntilUp;
    }

    @Override
    public PushResult push(Batch batch, boolean singleAttempt, StopSignal stop)
        throws RetryableSinkException {
      if (failsUntilUp && !up.get()) {
        bFailures.incrementAndGet();
        throw new RetryableSinkException("loki push not stored: HTTP 503", 503, null);
      }
      batch.realEntries().forEach(e -> stored.add(e.line()));
      return PushResult.delivered(1);
    }
  }

  private final Sleeper sleeper =
      (duration, stop) -> {
        time.advance(duration); // the wait passes on fake time
        if (Thread.currentThread().getName().equals("consumer-bulk/b")
            && sleeps.incrementAndGet() >= 5) {
          bHeld.countDown();
          wake.await(); // B keeps failing "for a long time": its lane is held here
        }
        return !stop.isStopped();
      };

  private static LogEntry entry(String org, String line) {
    return LogEntry.of(
        Instant.parse("2026-12-03T09:00:00Z"),
        Map.of("org", org, "source", "apexlog"),
        line,
        Map.of(),
        new CheckpointToken("org=" + org + ":apexlog", line));
  }

  /** Emits {@code lines}, each after {@code before} is released (or at once when null). */
  private static Source source(
      String org, List<String> lines, Semaphore before, CountDownLatch go) {
    return new Source() {
      @Override
      public String name() {
        return org + "/apexlog";
      }

      @Override
      public Lane lane() {
        return Lane.BULK;
      }

      @Override
      public void run(EntryEmitter emitter, StopSignal stop) throws Exception {
        go.await();
        for (String line : lines) {
          if (before != null) {
            before.acquire();
          }
          emitter.emit(entry(org, line));
        }
        stop.await(); // an endless polling source
      }
    };
  }

  @Test
  @DisplayName(
      "PIPE-28, ORG-16, OBS-39: tenant B answers 503 for a long time while tenant A's rows land and commit;"
          + " B's checkpoint never advances while it fails; after B recovers every B row lands"
          + " exactly once and B commits")
  void pipe28_org16_failingTenantDelaysOnlyItsOwnOrgs() throws Exception {
    Sink sink =
        new TenantSplitSink(
            new Tenant(storedA, false), Map.of("b", new Tenant(storedB, true))); // FEAT-6
    List<Map<String, String>> bWritesWhileDown = Collections.synchronizedList(new ArrayList<>());
    Semaphore aCommitted = new Semaphore(1); // A emits its next row once the last one committed
    CountDownLatch aDone = new CountDownLatch(1);
    CountDownLatch bDone = new CountDownLatch(1);
    CountDownLatch aGo = new CountDownLatch(1);
    List<String> linesA = List.of("a1", "a2", "a3", "a4", "a5");
    List<String> linesB = List.of("b1", "b2", "b3");
    Pipeline pipeline =
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
            List.of(
                source("a", linesA, aCommitted, aGo),
                source("b", linesB, null, new CountDownLatch(0))),
            sink,
            store,
            metrics,
            new TimeSource(time.wall(), time.ticker(), sleeper),
            UnaryOperator.identity(),
            written -> {
              if (written.containsKey(KEY_B) && !up.get()) {
                bWritesWhileDown.add(written);
              }
              if (written.containsKey(KEY_A)) {
                aCommitted.release();
                if ("a5".equals(written.get(KEY_A))) {
                  aDone.countDown();
                }
              }
              if ("b3".equals(written.get(KEY_B))) {
                bDone.countDown();
              }
            },
            new EgressGovernor(
                EgressSettings.disabled(), time.timeSource(), metrics, Optional.empty()),
            null,
            s -> s.name().startsWith("b/") ? "b" : ""); // ORG-15: b has its own identity
    aCommitted.acquire(); // a1 goes first, without a commit before it
    StopSignal stop = new StopSignal();
    Thread runner = Thread.ofVirtual().start(() -> runQuietly(pipeline, stop));
    try {
      assertThat(bHeld.await(10, TimeUnit.SECONDS)).as("B failed 5 batch attempts").isTrue();
      aCommitted.release();
      aGo.countDown(); // A starts only while B's lane is held
      assertThat(aDone.await(10, TimeUnit.SECONDS)).as("A's rows all committed").isTrue();

      assertThat(storedA).containsExactlyElementsOf(linesA);
      assertThat(store.load(KEY_A)).contains("a5");
      assertThat(storedB).isEmpty();
      assertThat(store.load(KEY_B)).as("B's checkpoint while B fails").isEmpty();
      assertThat(bWritesWhileDown).isEmpty();
      assertThat(bFailures.get()).isGreaterThanOrEqualTo(5);
      List<LaneStatus> lanes = pipeline.laneStatus();
      assertThat(lanes).extracting(LaneStatus::name).containsExactly("bulk", "bulk/b");
      assertThat(lanes.get(0).failingSince()).isEmpty();
      assertThat(lanes.get(1).failingSince()).isPresent();

      up.set(true); // B recovers
      wake.countDown();
      assertThat(bDone.await(10, TimeUnit.SECONDS)).as("B's rows committed").isTrue();
      assertThat(storedB).containsExactlyElementsOf(linesB); // each once, in order
      assertThat(storedA).containsExactlyElementsOf(linesA);
      assertThat(store.load(KEY_B)).contains("b3");
      assertThat(bWritesWhileDown).isEmpty();
      assertThat(pipeline.failingSince()).isEqualTo(Optional.empty());
    } finally {
      wake.countDown();
      stop.stop();
      runner.join(10_000);
    }
    assertThat(runner.isAlive()).isFalse();
  }

  private static void runQuietly(Pipeline pipeline, StopSignal stop) {
    try {
      pipeline.run(stop);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }
}
