package io.sf2loki.salesforce.pubsub;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.core.liveness.ProgressWatch;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * FEAT-21 for Pub/Sub: {@link PubSubFactory#watched} registers each topic reader as {@code topic
 * <topic>} on its own thread, so {@code /healthz}'s reason ({@code Daemon.wedged()} = {@link
 * ProgressWatch#wedged}) names a stuck reader, while one waiting in its inbox poll (the server's
 * turn, as {@code TopicReader} marks it) is never wedged.
 */
class PubSubWedgeTest {
  private static final Duration TIMEOUT = Duration.ofMinutes(10);
  private static final String STUCK = "/event/LoginEventStream";
  private static final String IDLE = "/event/ApiEventStream";

  private final FakeTime time = new FakeTime(Instant.parse("2026-12-03T09:00:00Z"));
  private final ProgressWatch watch = new ProgressWatch(time.ticker());
  private final CountDownLatch release = new CountDownLatch(1);
  private final StopSignal stop = new StopSignal();
  private final List<Thread> readers = new ArrayList<>();

  @AfterEach
  void joinReaders() throws InterruptedException {
    release.countDown();
    stop.stop();
    for (Thread t : readers) {
      t.join(TimeUnit.SECONDS.toMillis(10));
      assertThat(t.isAlive()).as(t.getName()).isFalse();
    }
  }

  /** A reader blocked in a call that is neither progress nor a stop-aware wait. */
  private TopicRunner stuck(CountDownLatch inside) {
    return (topic, bridge, s) -> {
      inside.countDown();
      release.await();
    };
  }

  /**
   * A reader waiting for the server's next response inside a stop-aware wait, as TopicReader marks
   * its inbox poll; the wait ends when the test releases it.
   */
  private TopicRunner waitingForServer(CountDownLatch inside) {
    return (topic, bridge, s) -> {
      try (ProgressWatch.Waiting w = ProgressWatch.waiting()) {
        inside.countDown();
        release.await();
      }
    };
  }

  private void start(TopicRunner runner, String topic) {
    TopicRunner watched = PubSubFactory.watched(watch, runner);
    Thread t =
        Thread.ofPlatform()
            .name("reader " + topic)
            .start(
                () -> {
                  try {
                    watched.run(topic, null, stop);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                });
    readers.add(t);
  }

  @Test
  @DisplayName(
      "FEAT-21: a topic reader that neither progresses nor waits for the liveness timeout makes"
          + " /healthz's reason 'wedged: topic <topic>'; a reader waiting in its inbox poll beside"
          + " it is not named")
  void feat21_stuckTopicReaderNamed() throws Exception {
    CountDownLatch stuckInside = new CountDownLatch(1);
    CountDownLatch idleInside = new CountDownLatch(1);
    start(waitingForServer(idleInside), IDLE);
    start(stuck(stuckInside), STUCK);
    assertThat(idleInside.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(stuckInside.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(watch.size()).isEqualTo(2);

    time.advance(TIMEOUT.minusSeconds(1));
    assertThat(watch.wedged(TIMEOUT)).isEmpty();
    time.advance(Duration.ofSeconds(1));
    assertThat(watch.wedged(TIMEOUT)).isEqualTo(Optional.of("wedged: topic " + STUCK));
  }

  @Test
  @DisplayName(
      "FEAT-21: a topic reader waiting in its inbox poll for the server's next response is never"
          + " wedged, however long it waits; its beat ends with the reader")
  void feat21_readerWaitingInInboxPollNotWedged() throws Exception {
    CountDownLatch inside = new CountDownLatch(1);
    start(waitingForServer(inside), IDLE);
    assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
    time.advance(TIMEOUT.multipliedBy(6));
    assertThat(watch.wedged(TIMEOUT)).isEmpty();
    assertThat(watch.size()).isEqualTo(1);

    release.countDown();
    readers.get(0).join(TimeUnit.SECONDS.toMillis(10));
    assertThat(watch.size()).as("the beat ends with the reader").isZero();
    assertThat(watch.wedged(TIMEOUT)).isEmpty();
  }
}
