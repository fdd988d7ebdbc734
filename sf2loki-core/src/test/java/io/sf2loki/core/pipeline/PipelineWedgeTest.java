package io.sf2loki.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.core.egress.EgressGovernor;
import io.sf2loki.core.egress.EgressSettings;
import io.sf2loki.core.liveness.ProgressWatch;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.Lane;
import io.sf2loki.core.spi.PushResult;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.spi.Source;
import io.sf2loki.core.testing.InMemoryCheckpointStore;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.Sleeper;
import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * FEAT-21 hooks of the pipeline: lane consumers and producers are watched, waits are not wedges.
 */
class PipelineWedgeTest {
  final FakeTime time = new FakeTime(Instant.parse("2026-11-29T12:00:00Z"));
  final ProgressWatch watch = new ProgressWatch(time.ticker());
  final Duration timeout = Duration.ofMinutes(5);
  final CountDownLatch pushing = new CountDownLatch(1);
  final CountDownLatch releasePush = new CountDownLatch(1);
  final CountDownLatch sleeping = new CountDownLatch(1);

  /** A sink whose first push blocks (not stop-aware) until released: a wedged consumer. */
  final Sink stuckSink =
      new Sink() {
        @Override
        public PushResult push(io.sf2loki.core.model.Batch b, boolean single, StopSignal stop)
            throws InterruptedException {
          pushing.countDown();
          releasePush.await();
          return PushResult.delivered(1);
        }

        @Override
        public void close() {}
      };

  /** Real-time, stop-aware wait (the source sleeps until the term stops). */
  final Sleeper untilStop =
      (d, stop) -> {
        sleeping.countDown();
        return !stop.await(Duration.ofHours(1));
      };

  Source source(String name, boolean emitFirst) {
    Sleeper sleeper = ProgressWatch.watched(untilStop); // as the daemon wires the sources
    return new Source() {
      @Override
      public String name() {
        return name;
      }

      @Override
      public Lane lane() {
        return Lane.BULK;
      }

      @Override
      public void run(io.sf2loki.core.spi.EntryEmitter emitter, StopSignal stop) throws Exception {
        if (emitFirst) {
          emitter.emit(PipelineTest.real(name + ":k", "v1", "line"));
        }
        sleeper.sleep(Duration.ofMinutes(30), stop);
      }
    };
  }

  Pipeline pipeline(List<Source> sources) {
    PipelineSettings s =
        new PipelineSettings(
            1,
            1_048_576,
            Duration.ofMillis(50),
            100,
            0,
            Duration.ofSeconds(5),
            Duration.ofSeconds(1),
            Duration.ofSeconds(30),
            Map.of("job", "sf2loki"),
            Duration.ZERO);
    Sf2lokiMetrics metrics = Sf2lokiMetrics.noop();
    return new Pipeline(
        s,
        sources,
        stuckSink,
        new InMemoryCheckpointStore(),
        metrics,
        time.timeSource(),
        UnaryOperator.identity(),
        CommitListener.none(),
        new EgressGovernor(EgressSettings.disabled(), time.timeSource(), metrics, Optional.empty()),
        watch);
  }

  @Test
  @DisplayName(
      "FEAT-21: a lane consumer stuck in a push is named wedged; a source in a stop-aware wait is"
          + " not; ended components are unregistered")
  void feat21_stuckConsumerNamedSleepingSourceNot() throws Exception {
    Pipeline p = pipeline(List.of(source("eventlogfile", true)));
    StopSignal stop = new StopSignal();
    Thread term = Thread.ofPlatform().start(() -> run(p, stop));
    pushing.await();
    sleeping.await();
    time.advance(Duration.ofMinutes(6));
    assertThat(watch.wedged(timeout)).hasValue("wedged: lane bulk");
    assertThat(watch.wedged(Duration.ZERO)).isEmpty(); // off

    releasePush.countDown();
    stop.stop();
    term.join();
    assertThat(watch.size()).isZero();
    assertThat(watch.wedged(timeout)).isEmpty();
  }

  @Test
  @DisplayName("FEAT-21: an idle term (a source waiting, nothing queued) is not wedged")
  void feat21_idleTermNotWedgedAfterTurns() throws Exception {
    Pipeline p = pipeline(List.of(source("apexlog", false)));
    StopSignal stop = new StopSignal();
    Thread term = Thread.ofPlatform().start(() -> run(p, stop));
    sleeping.await();
    // the source is inside its wait: however long, it is not wedged
    time.advance(Duration.ofHours(2));
    assertThat(watch.wedged(timeout)).isNotEqualTo(Optional.of("wedged: source apexlog"));
    stop.stop();
    term.join();
    assertThat(watch.size()).isZero();
  }

  private static void run(Pipeline p, StopSignal stop) {
    try {
      p.run(stop);
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }
}
