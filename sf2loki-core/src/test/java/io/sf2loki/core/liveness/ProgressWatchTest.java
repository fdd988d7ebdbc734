package io.sf2loki.core.liveness;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.Sleeper;
import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ProgressWatchTest {
  final FakeTime time = new FakeTime(Instant.parse("2026-01-01T00:00:00Z"));
  final ProgressWatch watch = new ProgressWatch(time.ticker());
  final Duration timeout = Duration.ofMinutes(5);

  @Test
  @DisplayName("FEAT-21: a component with no progress for the timeout is reported; progress clears")
  void feat21_staleComponentReported() {
    try (ProgressWatch.Beat b = watch.register("lane bulk")) {
      time.advance(Duration.ofMinutes(4));
      assertThat(watch.wedged(timeout)).isEmpty();
      time.advance(Duration.ofMinutes(1));
      assertThat(watch.wedged(timeout)).hasValue("wedged: lane bulk");
      ProgressWatch.progress();
      assertThat(watch.wedged(timeout)).isEmpty();
      time.advance(Duration.ofMinutes(5));
      assertThat(watch.wedged(timeout)).hasValue("wedged: lane bulk");
    }
    assertThat(watch.wedged(timeout)).isEmpty(); // closed: no longer watched
    assertThat(watch.size()).isZero();
  }

  @Test
  @DisplayName(
      "FEAT-21: a component inside a stop-aware wait is never wedged; leaving it is progress")
  void feat21_waitingIsNotWedged() {
    try (ProgressWatch.Beat b = watch.register("source eventlogfile")) {
      try (ProgressWatch.Waiting w = ProgressWatch.waiting()) {
        try (ProgressWatch.Waiting nested = ProgressWatch.waiting()) {
          time.advance(Duration.ofHours(2));
        }
        assertThat(watch.wedged(timeout)).isEmpty(); // still inside the outer wait
        time.advance(Duration.ofHours(1));
        assertThat(watch.wedged(timeout)).isEmpty();
      }
      assertThat(watch.wedged(timeout)).isEmpty(); // the wait just ended
      time.advance(timeout);
      assertThat(watch.wedged(timeout)).hasValue("wedged: source eventlogfile");
    }
  }

  @Test
  @DisplayName("FEAT-21: a watched sleeper's wait counts as waiting")
  void feat21_watchedSleeper() throws Exception {
    AtomicReference<Optional<String>> during = new AtomicReference<>();
    Sleeper inner =
        (d, stop) -> {
          time.advance(d);
          during.set(watch.wedged(timeout));
          return true;
        };
    try (ProgressWatch.Beat b = watch.register("source apexlog")) {
      assertThat(ProgressWatch.watched(inner).sleep(Duration.ofHours(1), new StopSignal()))
          .isTrue();
      assertThat(during.get()).isEmpty();
      assertThat(watch.wedged(timeout)).isEmpty();
    }
    // no beat on this thread: the hooks are no-ops
    ProgressWatch.progress();
    ProgressWatch.waiting().close();
    assertThat(
            ProgressWatch.watched(time.timeSource())
                .sleeper()
                .sleep(Duration.ZERO, new StopSignal()))
        .isTrue();
  }

  @Test
  @DisplayName("FEAT-21: the stalest of several components is named; a zero timeout is off")
  void feat21_stalestNamedAndZeroIsOff() throws Exception {
    CountDownLatch registered = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Thread other =
        Thread.ofPlatform()
            .start(
                () -> {
                  try (ProgressWatch.Beat b = watch.register("topic /event/LoginEventStream")) {
                    registered.countDown();
                    release.await();
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                });
    registered.await();
    time.advance(Duration.ofMinutes(1));
    try (ProgressWatch.Beat b = watch.register("lane streaming")) {
      time.advance(Duration.ofMinutes(9));
      assertThat(watch.wedged(timeout)).hasValue("wedged: topic /event/LoginEventStream");
      assertThat(watch.wedged(Duration.ZERO)).isEmpty();
      ProgressWatch.progress(); // this thread's beat only
      assertThat(watch.wedged(timeout)).hasValue("wedged: topic /event/LoginEventStream");
    } finally {
      release.countDown();
      other.join();
    }
    assertThat(watch.size()).isZero();
  }

  @Test
  @DisplayName("FEAT-21: nested registrations restore the outer beat on close")
  void feat21_nestedRegistration() {
    try (ProgressWatch.Beat outer = watch.register("source pubsub")) {
      try (ProgressWatch.Beat inner = watch.register("topic t")) {
        time.advance(timeout);
        ProgressWatch.progress();
        assertThat(watch.wedged(timeout)).hasValue("wedged: source pubsub");
      }
      ProgressWatch.progress();
      assertThat(watch.wedged(timeout)).isEmpty();
    }
  }
}
