package io.sf2loki.salesforce.pubsub;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.Batch;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.pipeline.CommitListener;
import io.sf2loki.core.pipeline.Pipeline;
import io.sf2loki.core.pipeline.PipelineSettings;
import io.sf2loki.core.spi.PushResult;
import io.sf2loki.core.spi.RetryableSinkException;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.spi.Source;
import io.sf2loki.core.term.ActiveTerm;
import io.sf2loki.core.term.TermListener;
import io.sf2loki.core.term.TermManager;
import io.sf2loki.core.testing.InMemoryCheckpointStore;
import io.sf2loki.core.testing.ManualCoordinator;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Issue 4 acceptance "at pipeline level, two terms with the first cancelled mid-drain both
 * deliver": the real {@link Pipeline} and {@link TermManager} with a {@link PubSubSource} per term
 * (bridge_max_bytes = 300) and a fake topic runner.
 */
class PubSubTermPipelineTest {
  private static final String TOPIC = "/event/LoginEventStream";
  private static final String KEY = "pubsub:" + TOPIC;

  private final SdkMeterProvider provider = SdkMeterProvider.builder().build();
  private final Sf2lokiMetrics metrics = new Sf2lokiMetrics(provider, "test");
  private final FakeTime time = new FakeTime(Instant.parse("2026-11-29T12:00:00Z"));
  private final InMemoryCheckpointStore store = new InMemoryCheckpointStore();
  private final StopSignal processStop = new StopSignal();

  @AfterEach
  void close() {
    processStop.stop();
    provider.close();
  }

  private static LogEntry entry(int term, int n) {
    return LogEntry.of(
        Instant.parse("2026-11-29T11:00:00Z").plusMillis(n),
        Map.of("source", "pubsub", "event_type", "LoginEventStream"),
        "{\"term\": " + term + ", \"n\": " + n + ", \"pad\": \"" + "x".repeat(60) + "\"}",
        Map.of(),
        new CheckpointToken(KEY, "t" + term + "-" + n));
  }

  /** Hangs every push of term 1 until that term stops; delivers afterwards. */
  private static final class TermAwareSink implements Sink {
    final List<String> delivered = new CopyOnWriteArrayList<>();
    final AtomicInteger hungPushes = new AtomicInteger();
    volatile boolean hang = true;

    @Override
    public PushResult push(Batch batch, boolean singleAttempt, StopSignal stop)
        throws RetryableSinkException, InterruptedException {
      if (hang) {
        hungPushes.incrementAndGet();
        stop.await();
        throw new RetryableSinkException("term ended", 0);
      }
      batch.realEntries().forEach(e -> delivered.add(e.checkpoint().value()));
      return PushResult.delivered(batch.realCount());
    }
  }

  @Test
  @DisplayName(
      "PIPE-20, PIPE-21, PIPE-24, PS-17: with bridge_max_bytes = 300, a term ended while its"
          + " bridge and lane are full mid-drain leaves nothing that blocks the next term: the"
          + " second term delivers and commits, and its drained bridge accounts zero")
  void pipe24_twoTermsFirstCancelledMidDrainBothDeliver() throws Exception {
    TermAwareSink sink = new TermAwareSink();
    List<PubSubSource> sources = new CopyOnWriteArrayList<>();
    AtomicInteger termNo = new AtomicInteger();
    CountDownLatch secondTermDone = new CountDownLatch(1);
    int perTerm = 50;
    TopicRunner runner =
        (topic, bridge, stop) -> {
          int term = termNo.get();
          int limit = term == 1 ? Integer.MAX_VALUE : perTerm;
          for (int n = 0; n < limit; n++) {
            if (!bridge.put(entry(term, n), stop)) {
              return;
            }
          }
          secondTermDone.countDown();
          stop.await(); // a topic reader runs until its term stops
        };
    PipelineSettings settings =
        new PipelineSettings(
            1,
            1_048_576,
            Duration.ofSeconds(1),
            4,
            0,
            Duration.ofSeconds(5),
            Duration.ofSeconds(1),
            Duration.ofSeconds(30),
            Map.of("job", "sf2loki"),
            Duration.ZERO);
    ActiveTerm holder = new ActiveTerm();
    TermManager manager =
        new TermManager(
            () -> {
              termNo.incrementAndGet();
              PubSubSource s =
                  new PubSubSource(
                      PubSubSourceSettings.of(List.of(TOPIC), t -> true, Duration.ZERO, 300),
                      runner,
                      () -> List.of(),
                      PubSubSource.TopicOwnership.none(),
                      time.timeSource());
              sources.add(s);
              List<Source> list = List.of(s);
              return new Pipeline(
                  settings,
                  list,
                  sink,
                  store,
                  metrics,
                  time.timeSource(),
                  UnaryOperator.identity(),
                  CommitListener.none());
            },
            holder,
            store,
            metrics,
            new TermListener() {
              @Override
              public void termStarted() {}

              @Override
              public void standby() {}
            },
            processStop,
            t -> false);
    ManualCoordinator c = new ManualCoordinator();
    CompletableFuture<TermManager.Outcome> run =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return manager.run(c);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });

    // term 1: the sink hangs, the lane fills, the bridge fills to its byte budget (mid-drain)
    c.acquire();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    // stable only once the consumer is hung, the lane is full (the drain thread blocks in emit
    // holding its entry) and the reader waits on a charged bridge
    while (sources.isEmpty()
        || sink.hungPushes.get() == 0
        || holder.queueDepth() < 4
        || sources.getFirst().bridge().waitingWriters() == 0
        || sources.getFirst().bridge().chargedBytes() == 0) {
      assertThat(System.nanoTime()).as("term 1 backs up into the bridge").isLessThan(deadline);
      Thread.onSpinWait();
    }
    PubSubBridge first = sources.getFirst().bridge();
    assertThat(first.chargedBytes()).isGreaterThan(0);
    c.lose(); // end the term mid-drain
    assertThat(store.load(KEY)).isEmpty(); // nothing delivered, nothing committed

    // term 2 on the same process: delivers within a bounded wait
    sink.hang = false;
    c.acquire();
    assertThat(secondTermDone.await(10, TimeUnit.SECONDS)).isTrue();
    deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (!store.load(KEY).orElse("").equals("t2-" + (perTerm - 1))) {
      assertThat(System.nanoTime()).as("term 2 commits its last entry").isLessThan(deadline);
      Thread.onSpinWait();
    }
    assertThat(sink.delivered).contains("t2-0", "t2-" + (perTerm - 1));
    PubSubBridge second = sources.get(1).bridge();
    assertThat(second).isNotSameAs(first);
    assertThat(second.entries()).isZero();
    assertThat(second.chargedBytes()).isZero();
    assertThat(second.waitingWriters()).isZero();

    processStop.stop();
    assertThat(run.get(10, TimeUnit.SECONDS)).isNotEqualTo(TermManager.Outcome.CRASHED);
    assertThat(manager.termsStarted()).isEqualTo(2);
  }
}
