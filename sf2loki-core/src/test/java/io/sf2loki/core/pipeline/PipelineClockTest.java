package io.sf2loki.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

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
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.Ticker;
import io.sf2loki.core.time.TimeSource;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The flush interval runs on the injected monotonic ticker, never on the wall clock (SRC-26). */
class PipelineClockTest {
  private static final Instant START = Instant.parse("2026-11-29T12:00:00Z");
  private static final Duration INTERVAL = Duration.ofMillis(20);

  /** The fake ticker, counting reads so the test can wait for the consumer to re-check it. */
  private static final class CountingTicker implements Ticker {
    private final FakeTime time;
    private long reads;

    CountingTicker(FakeTime time) {
      this.time = time;
    }

    @Override
    public long nanoTime() {
      long n = time.nanoTime();
      synchronized (this) {
        reads++;
        notifyAll();
      }
      return n;
    }

    synchronized long reads() {
      return reads;
    }

    /** Waits until {@code more} further reads happened (bounded: fails the test after 5 s). */
    synchronized void awaitMoreReads(long more) throws InterruptedException {
      long target = reads + more;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (reads < target) {
        long left = deadline - System.nanoTime();
        assertThat(left).as("consumer keeps re-checking its ticker").isPositive();
        TimeUnit.NANOSECONDS.timedWait(this, left);
      }
    }
  }

  @Test
  @DisplayName(
      "SRC-26, PIPE-5: the flush interval is measured on the monotonic ticker: a wall-clock step"
          + " forward does not flush early, a step backward does not delay the flush")
  void src26_flushIntervalOnTickerNotWallClock() throws Exception {
    FakeTime time = new FakeTime(START);
    CountingTicker ticker = new CountingTicker(time);
    TimeSource ts = new TimeSource(time.wall(), ticker, time.sleeper());
    CountDownLatch emitted = new CountDownLatch(1);
    CountDownLatch pushed = new CountDownLatch(1);
    List<Batch> pushes = new CopyOnWriteArrayList<>();
    Source source =
        new Source() {
          @Override
          public String name() {
            return "one-entry";
          }

          @Override
          public Lane lane() {
            return Lane.BULK;
          }

          @Override
          public void run(EntryEmitter emitter, StopSignal stop) throws InterruptedException {
            emitter.emit(
                LogEntry.of(
                    START,
                    Map.of("source", "eventlogfile", "event_type", "T"),
                    "line",
                    Map.of(),
                    new CheckpointToken("eventlogfile:T", "v1")));
            emitted.countDown();
            stop.await(); // keep the lane open: only the interval can flush
          }
        };
    Sink sink =
        new Sink() {
          @Override
          public PushResult push(Batch batch, boolean singleAttempt, StopSignal stop) {
            pushes.add(batch);
            pushed.countDown();
            return PushResult.delivered(batch.realCount());
          }
        };
    PipelineSettings settings =
        new PipelineSettings(
            1000,
            1_048_576,
            INTERVAL,
            100,
            0,
            Duration.ofSeconds(5),
            Duration.ofSeconds(1),
            Duration.ofSeconds(30),
            Map.of(),
            Duration.ZERO);
    InMemoryCheckpointStore store = new InMemoryCheckpointStore();
    Pipeline p =
        new Pipeline(
            settings,
            List.of(source),
            sink,
            store,
            Sf2lokiMetrics.noop(),
            ts,
            UnaryOperator.identity(),
            CommitListener.none());
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
      ticker.awaitMoreReads(2); // the entry is batched and its age was checked

      // wall clock jumps 2 h ahead: the batch is not flushed, over several re-checks
      time.setWall(START.plus(Duration.ofHours(2)));
      ticker.awaitMoreReads(6);
      assertThat(pushes).isEmpty();

      // wall clock jumps 3 h back; the ticker moves to 1 ns short of the interval: no flush
      time.setWall(START.minus(Duration.ofHours(1)));
      time.advance(INTERVAL.minusNanos(1));
      ticker.awaitMoreReads(6);
      assertThat(pushes).isEmpty();

      // the ticker reaches the interval: flushed at once, although the wall clock is behind
      time.advance(Duration.ofNanos(1));
      assertThat(pushed.await(5, TimeUnit.SECONDS)).isTrue();
      assertThat(pushes).singleElement().satisfies(b -> assertThat(b.realCount()).isEqualTo(1));
    } finally {
      stop.stop();
      runner.join(5000);
    }
    assertThat(runner.isAlive()).isFalse();
    assertThat(store.snapshot()).containsEntry("eventlogfile:T", "v1");
  }

  @Test
  @DisplayName(
      "SRC-26, PIPE-11: how long the sink has been failing is measured on the monotonic ticker:"
          + " a wall-clock step neither freezes nor rushes it; a success clears it")
  void src26_sinkFailingTimeOnTicker() throws Exception {
    FakeTime time = new FakeTime(START);
    CountDownLatch secondPush = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    java.util.concurrent.atomic.AtomicInteger calls =
        new java.util.concurrent.atomic.AtomicInteger();
    Sink sink =
        new Sink() {
          @Override
          public PushResult push(Batch batch, boolean singleAttempt, StopSignal stop)
              throws io.sf2loki.core.spi.RetryableSinkException, InterruptedException {
            if (calls.incrementAndGet() == 1) {
              throw new io.sf2loki.core.spi.RetryableSinkException("HTTP 500", 500);
            }
            secondPush.countDown(); // the retry, after the fake 1 s backoff, hangs in flight
            assertThat(release.await(5, TimeUnit.SECONDS)).isTrue();
            return PushResult.delivered(batch.realCount());
          }
        };
    Pipeline p =
        new Pipeline(
            new PipelineSettings(
                1,
                1_048_576,
                INTERVAL,
                100,
                0,
                Duration.ofSeconds(5),
                Duration.ofSeconds(1),
                Duration.ofSeconds(30),
                Map.of(),
                Duration.ZERO),
            List.of(
                new io.sf2loki.core.testing.ListSource(
                    "one",
                    Lane.BULK,
                    List.of(
                        LogEntry.of(
                            START,
                            Map.of("source", "eventlogfile"),
                            "line",
                            Map.of(),
                            new CheckpointToken("eventlogfile:T", "v1"))))),
            sink,
            new InMemoryCheckpointStore(),
            Sf2lokiMetrics.noop(),
            time.timeSource(),
            UnaryOperator.identity(),
            CommitListener.none());
    assertThat(p.failingFor()).isEmpty();
    Thread runner =
        Thread.ofPlatform()
            .start(
                () -> {
                  try {
                    p.run(new StopSignal());
                  } catch (Exception e) {
                    throw new IllegalStateException(e);
                  }
                });
    try {
      assertThat(secondPush.await(5, TimeUnit.SECONDS)).isTrue();
      assertThat(p.failingFor()).contains(Duration.ofSeconds(1)); // the backoff wait

      time.setWall(START.minus(Duration.ofHours(2))); // a step back does not freeze it
      assertThat(p.failingFor()).contains(Duration.ofSeconds(1));
      time.advance(Duration.ofSeconds(5));
      assertThat(p.failingFor()).contains(Duration.ofSeconds(6));

      time.setWall(START.plus(Duration.ofHours(5))); // a step ahead does not rush it
      assertThat(p.failingFor()).contains(Duration.ofSeconds(6));
    } finally {
      release.countDown();
      runner.join(5000);
    }
    assertThat(runner.isAlive()).isFalse();
    assertThat(p.failingFor()).as("a success clears the mark").isEmpty();
  }

  @Test
  @DisplayName(
      "PIPE-11: the failing mark starts at the first failed attempt inside the sink (reported"
          + " to the lane's retry layer through Sink.open's Retries), not when the push finally"
          + " throws after its request retries")
  void pipe11_markStartsAtFirstFailedAttempt() throws Exception {
    FakeTime time = new FakeTime(START);
    CountDownLatch inSinkRetry = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Sink sink =
        new Sink() {
          @Override
          public PushResult push(Batch batch, boolean singleAttempt, StopSignal stop) {
            throw new AssertionError("the lane opens a delivery");
          }

          @Override
          public Delivery open(Batch batch, Retries retries) {
            return (singleAttempt, stop) -> {
              // first request failed; the lane's retry layer hears of it before any wait
              assertThat(retries.request().failed(Duration.ZERO)).isPresent();
              inSinkRetry.countDown();
              assertThat(release.await(5, TimeUnit.SECONDS)).isTrue();
              return PushResult.delivered(batch.realCount());
            };
          }
        };
    Pipeline p = onePipeline(sink, time);
    Thread runner =
        Thread.ofPlatform()
            .start(
                () -> {
                  try {
                    p.run(new StopSignal());
                  } catch (Exception e) {
                    throw new IllegalStateException(e);
                  }
                });
    try {
      assertThat(inSinkRetry.await(5, TimeUnit.SECONDS)).isTrue();
      assertThat(p.failingSince()).as("marked while the push is still retrying").contains(START);
      time.advance(Duration.ofSeconds(9)); // the in-sink retries of SINK-9
      assertThat(p.failingFor()).contains(Duration.ofSeconds(9));
    } finally {
      release.countDown();
      runner.join(5000);
    }
    assertThat(runner.isAlive()).isFalse();
    assertThat(p.failingFor()).as("a success clears the mark").isEmpty();
  }

  private static Pipeline onePipeline(Sink sink, FakeTime time) {
    return new Pipeline(
        new PipelineSettings(
            1,
            1_048_576,
            INTERVAL,
            100,
            0,
            Duration.ofSeconds(5),
            Duration.ofSeconds(1),
            Duration.ofSeconds(30),
            Map.of(),
            Duration.ZERO),
        List.of(
            new io.sf2loki.core.testing.ListSource(
                "one",
                Lane.BULK,
                List.of(
                    LogEntry.of(
                        START,
                        Map.of("source", "eventlogfile"),
                        "line",
                        Map.of(),
                        new CheckpointToken("eventlogfile:T", "v1"))))),
        sink,
        new InMemoryCheckpointStore(),
        Sf2lokiMetrics.noop(),
        time.timeSource(),
        UnaryOperator.identity(),
        CommitListener.none());
  }
}
