package io.sf2loki.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.sf2loki.core.spi.CheckpointStore;
import io.sf2loki.core.spi.StateConflictException;
import io.sf2loki.core.spi.StateException;
import io.sf2loki.core.testing.InMemoryCheckpointStore;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.Sleeper;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.Ticker;
import io.sf2loki.core.time.TimeSource;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.FutureTask;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/** STATE-16: the committer waits out a failing checkpoint store instead of ending the term. */
class StoreOutageTest {
  /** A store whose writes fail while {@link #failing} holds the exception to throw. */
  private static final class FlakyStore implements CheckpointStore {
    final AtomicReference<RuntimeException> failing = new AtomicReference<>();
    final InMemoryCheckpointStore inner = new InMemoryCheckpointStore();

    @Override
    public void commitMany(Map<String, String> values, Set<String> keysToRemove) {
      RuntimeException e = failing.get();
      if (e != null) {
        throw e;
      }
      inner.commitMany(values, keysToRemove);
    }

    @Override
    public Optional<String> load(String key) {
      return inner.load(key);
    }

    @Override
    public void delete(String key) {
      commitMany(Map.of(), Set.of(key));
    }

    @Override
    public Map<String, String> snapshot() {
      return inner.snapshot();
    }

    @Override
    public void reset() {}

    @Override
    public void close() {}
  }

  /** Each wait is recorded and blocks until the test grants it. */
  private static final class GatedSleeper implements Sleeper {
    final List<Duration> waits = new CopyOnWriteArrayList<>();
    final Semaphore grants = new Semaphore(0);
    final Semaphore asleep = new Semaphore(0);

    @Override
    public boolean sleep(Duration d, StopSignal stop) throws InterruptedException {
      waits.add(d);
      asleep.release();
      while (!grants.tryAcquire(10, TimeUnit.MILLISECONDS)) {
        if (stop.isStopped()) {
          return false;
        }
      }
      return true;
    }
  }

  /** Waits (at most 10 s) until {@code t} parks, i.e. is held inside {@code submit}. */
  private static void awaitParked(Thread t) {
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
    while (t.getState() != Thread.State.WAITING) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("thread not held in submit: " + t.getState());
      }
      Thread.onSpinWait();
    }
  }

  @Test
  @DisplayName(
      "STATE-16: a failing store write is retried with 1 s doubling backoff, holds the lanes,"
          + " and commits the latest values once the store recovers")
  void state16_outageIsWaitedOut() throws Exception {
    FlakyStore store = new FlakyStore();
    GatedSleeper sleeper = new GatedSleeper();
    TimeSource time = new TimeSource(InstantSource.system(), Ticker.system(), sleeper);
    Committer c =
        new Committer(
            store,
            new AbandonedKeys(),
            CommitListener.none(),
            Duration.ZERO,
            time,
            null,
            new StopSignal());
    FutureTask<Void> loop =
        new FutureTask<>(
            () -> {
              c.run();
              return null;
            });
    Thread writer = Thread.ofPlatform().name("committer").start(loop);

    store.failing.set(new StateException("cannot write state file: Read-only file system"));
    c.submit(Map.of("k", "1")); // outage not known yet: returns
    sleeper.asleep.acquire(); // first write failed, committer waits
    assertThat(c.storeFailingFor()).isPresent();
    assertThat(store.snapshot()).isEmpty();

    AtomicBoolean secondReturned = new AtomicBoolean();
    Thread lane =
        Thread.ofPlatform()
            .start(
                () -> {
                  c.submit(Map.of("k", "2"));
                  secondReturned.set(true);
                });
    sleeper.grants.release(); // retry while still failing
    sleeper.asleep.acquire();
    assertThat(secondReturned).as("the lane is held while the store fails").isFalse();
    assertThat(sleeper.waits).containsExactly(Duration.ofSeconds(1), Duration.ofSeconds(2));
    awaitParked(lane); // its value is pending before the store recovers (CI13 raced here)

    store.failing.set(null);
    sleeper.grants.release();
    lane.join();
    assertThat(secondReturned).isTrue();
    assertThat(store.snapshot()).containsExactly(Map.entry("k", "2"));
    assertThat(c.storeFailingFor()).isEmpty();
    c.finish(true);
    loop.get();
    writer.join();
  }

  @Test
  @DisplayName("STATE-16: backoff doubles to at most 30 s; a conflict still ends the term")
  void state16_backoffCapAndFatalFailures() throws Exception {
    StoreOutage o = new StoreOutage(null, Ticker.system());
    StateException e = new StateException("disk full");
    List<Duration> waits = new java.util.ArrayList<>();
    for (int i = 0; i < 8; i++) {
      waits.add(o.failed(e));
    }
    assertThat(waits)
        .containsExactly(
            Duration.ofSeconds(1),
            Duration.ofSeconds(2),
            Duration.ofSeconds(4),
            Duration.ofSeconds(8),
            Duration.ofSeconds(16),
            Duration.ofSeconds(30),
            Duration.ofSeconds(30),
            Duration.ofSeconds(30));
    o.succeeded();
    assertThat(o.failingFor()).isEmpty();
    assertThat(o.failed(e)).isEqualTo(Duration.ofSeconds(1));
    assertThat(StoreOutage.waitable(new StateConflictException("x"))).isFalse();
    assertThat(StoreOutage.waitable(e)).isTrue();

    FlakyStore store = new FlakyStore();
    store.failing.set(new StateConflictException("another writer"));
    TimeSource time = TimeSource.system();
    Committer c =
        new Committer(store, new AbandonedKeys(), CommitListener.none(), Duration.ZERO, time);
    c.submit(Map.of("k", "1"));
    c.finish(true);
    assertThatThrownBy(c::run).isInstanceOf(StateConflictException.class);
  }

  @Test
  @DisplayName(
      "STATE-16: the recovery INFO names how long the store was failing (failing_for, on the"
          + " ticker, from the first failed write)")
  void state16_recoveryLogNamesTheOutageLength() {
    FakeTime time = new FakeTime(Instant.parse("2026-12-03T08:00:00Z"));
    ListAppender<ILoggingEvent> logs = new ListAppender<>();
    Logger log = (Logger) LoggerFactory.getLogger(StoreOutage.class);
    Level before = log.getLevel();
    log.setLevel(Level.INFO); // the test configuration's root level is WARN
    logs.start();
    log.addAppender(logs);
    try {
      StoreOutage o = new StoreOutage(null, time.ticker());
      StateException e = new StateException("No space left on device");
      o.failed(e);
      time.advance(Duration.ofSeconds(90));
      o.failed(e);
      time.advance(Duration.ofSeconds(30));
      o.succeeded();
      o.succeeded(); // healthy already: logs nothing

      assertThat(logs.list)
          .filteredOn(ev -> ev.getLevel() == Level.INFO)
          .singleElement()
          .satisfies(
              ev -> {
                assertThat(ev.getFormattedMessage())
                    .isEqualTo("checkpoint store recovered; committing again");
                assertThat(ev.getKeyValuePairs())
                    .singleElement()
                    .satisfies(
                        kv -> {
                          assertThat(kv.key).isEqualTo("failing_for");
                          assertThat(kv.value).isEqualTo(Duration.ofSeconds(120));
                        });
              });
    } finally {
      log.detachAppender(logs);
      log.setLevel(before);
    }
  }

  @Test
  @DisplayName("STATE-16: a store still failing when the term ends fails the term")
  void state16_failureAtTermEnd() {
    FlakyStore store = new FlakyStore();
    store.failing.set(new StateException("disk full"));
    Committer c =
        new Committer(
            store, new AbandonedKeys(), CommitListener.none(), Duration.ZERO, TimeSource.system());
    c.submit(Map.of("k", "1"));
    c.finish(true);
    assertThatThrownBy(c::run).isInstanceOf(StateException.class).hasMessage("disk full");
  }
}
