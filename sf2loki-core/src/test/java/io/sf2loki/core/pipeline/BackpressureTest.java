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
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Structural backpressure (SPEC PIPE-1, PIPE-3): with Loki down, producers block on the lane's byte
 * budget, so what the lanes hold stays within lanes × {@code queue_max_bytes} plus one entry per
 * lane and one batch in hand, whatever the sources could produce.
 */
class BackpressureTest {
  private static final int ENTRY_BYTES = 64 * 1024;
  private static final long QUEUE_MAX_BYTES = 4L * 1024 * 1024;
  private static final int MAX_ENTRIES = 10;

  /** Produces up to 10,000 large entries (640 MiB) if nothing stops it. */
  private static final class Flood implements Source {
    private final Lane lane;
    final AtomicLong emitted = new AtomicLong();

    Flood(Lane lane) {
      this.lane = lane;
    }

    @Override
    public String name() {
      return "flood-" + lane.label();
    }

    @Override
    public Lane lane() {
      return lane;
    }

    @Override
    public void run(EntryEmitter emitter, StopSignal stop) throws InterruptedException {
      for (int i = 0; i < 10_000; i++) {
        LogEntry e =
            LogEntry.of(
                Instant.EPOCH,
                Map.of("source", name()),
                String.valueOf((char) ('a' + i % 26)).repeat(ENTRY_BYTES),
                Map.of(),
                new CheckpointToken(name(), "v" + i));
        if (!emitter.emit(e)) {
          return;
        }
        emitted.incrementAndGet();
      }
    }
  }

  /** Loki down: every push fails after the term's stop; until then it hangs. */
  private static final Sink DOWN =
      new Sink() {
        @Override
        public PushResult push(Batch batch, boolean singleAttempt, StopSignal stop)
            throws RetryableSinkException, InterruptedException {
          stop.await();
          throw new RetryableSinkException("down", 503);
        }
      };

  private static long usedHeapAfterGc() {
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  @Test
  @DisplayName(
      "PIPE-1, PIPE-3: with the receiver down producers block; both lanes hold at most lanes × queue_max_bytes plus one entry and one batch each")
  void pipe3_backpressureBoundsMemory() throws Exception {
    long heapBefore = usedHeapAfterGc();
    Flood bulk = new Flood(Lane.BULK);
    Flood streaming = new Flood(Lane.STREAMING);
    Pipeline p =
        new Pipeline(
            new PipelineSettings(
                MAX_ENTRIES,
                1L << 30,
                Duration.ofHours(1),
                10_000,
                QUEUE_MAX_BYTES,
                Duration.ofSeconds(5),
                Duration.ofSeconds(1),
                Duration.ofSeconds(30),
                Map.of(),
                Duration.ZERO),
            List.of(bulk, streaming),
            DOWN,
            new InMemoryCheckpointStore(),
            Sf2lokiMetrics.noop(),
            new FakeTime(Instant.parse("2026-11-29T00:00:00Z")).timeSource(),
            UnaryOperator.identity(),
            CommitListener.none());
    StopSignal stop = new StopSignal();
    CompletableFuture<Boolean> run =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return p.run(stop);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    // the producers fill their lanes and block: the charged bytes stop growing at the budget
    long perLaneBound = QUEUE_MAX_BYTES + ENTRY_BYTES + 1024;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (p.chargedBytes() < 2 * QUEUE_MAX_BYTES) {
      assertThat(System.nanoTime()).as("lanes fill up").isLessThan(deadline);
      Thread.onSpinWait();
    }
    long emittedAtFull = bulk.emitted.get() + streaming.emitted.get();
    assertThat(p.chargedBytes()).isLessThanOrEqualTo(2 * perLaneBound);
    // per lane: what fits the budget (+1 oversized admission) plus the batch in the consumer's hand
    long perLaneEntries = QUEUE_MAX_BYTES / ENTRY_BYTES + 1 + MAX_ENTRIES;
    assertThat(emittedAtFull).isLessThanOrEqualTo(2 * perLaneEntries);
    long heapHeld = usedHeapAfterGc() - heapBefore;
    // Java strings of Latin-1 text take ~1 byte per char: the bound plus a fixed 32 MiB margin
    assertThat(heapHeld)
        .isLessThan(2 * perLaneBound + 2L * MAX_ENTRIES * ENTRY_BYTES + (32L << 20));
    stop.stop();
    assertThat(run.get(20, TimeUnit.SECONDS)).isFalse();
    assertThat(p.chargedBytes()).isZero();
  }
}
