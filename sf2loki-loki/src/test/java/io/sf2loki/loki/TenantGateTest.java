package io.sf2loki.loki;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** SINK-17: the tenant's Retry-After gate on a fake clock. */
class TenantGateTest {
  private final FakeTime time = new FakeTime(Instant.parse("2026-12-01T12:00:00Z"));
  private final TenantGate gate = new TenantGate(time.wall(), time.sleeper());
  private final StopSignal stop = new StopSignal();
  private final StopSignal closed = new StopSignal();

  @Test
  @DisplayName(
      "SINK-17: an announced Retry-After makes the next request of any lane wait it out; a"
          + " shorter announcement never shortens the window; the announcer's own wait serves it")
  void waitsOutTheWindow() throws Exception {
    assertThat(gate.enter(TenantGate.NONE, stop, closed))
        .isEqualTo(new TenantGate.Entry(TenantGate.Pass.OPEN, false));
    long mine = gate.exit(TenantGate.Pass.OPEN, Duration.ofSeconds(5));
    assertThat(mine).isNotEqualTo(TenantGate.NONE);
    assertThat(gate.exit(TenantGate.Pass.OPEN, Duration.ofSeconds(2))).isEqualTo(TenantGate.NONE);
    assertThat(gate.closedUntil()).isEqualTo(time.now().plusSeconds(5));

    // the announcer slept its own backoff (>= 5 s) elsewhere: it passes without a second wait
    TenantGate.Entry own = gate.enter(mine, stop, closed);
    assertThat(own).isEqualTo(new TenantGate.Entry(TenantGate.Pass.PROBE, false));
    assertThat(time.sleeps()).isEmpty();
    gate.exit(own.pass(), Duration.ZERO);
    time.advance(Duration.ofSeconds(5));

    // another lane: the window is announced again; it waits the remaining time
    gate.exit(TenantGate.Pass.OPEN, Duration.ofSeconds(3));
    time.advance(Duration.ofSeconds(1));
    TenantGate.Entry other = gate.enter(TenantGate.NONE, stop, closed);
    assertThat(other.waited()).isTrue();
    assertThat(other.pass()).isEqualTo(TenantGate.Pass.PROBE);
    assertThat(time.sleeps()).containsExactly(Duration.ofSeconds(2));
    gate.exit(other.pass(), Duration.ZERO);
    assertThat(gate.enter(TenantGate.NONE, stop, closed).pass()).isEqualTo(TenantGate.Pass.OPEN);
  }

  @Test
  @DisplayName("SINK-17: after an announcement one probe at a time; the others wait for its answer")
  void oneProbeAtATime() throws Exception {
    gate.exit(TenantGate.Pass.OPEN, Duration.ofSeconds(1));
    time.advance(Duration.ofSeconds(1));
    TenantGate.Entry probe = gate.enter(TenantGate.NONE, stop, closed);
    assertThat(probe.pass()).isEqualTo(TenantGate.Pass.PROBE);
    CountDownLatch started = new CountDownLatch(1);
    CompletableFuture<TenantGate.Entry> second =
        CompletableFuture.supplyAsync(
            () -> {
              started.countDown();
              try {
                return gate.enter(TenantGate.NONE, stop, closed);
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
            });
    assertThat(started.await(10, TimeUnit.SECONDS)).isTrue();
    assertThat(second).isNotDone();
    gate.exit(probe.pass(), Duration.ZERO);
    assertThat(second.get(10, TimeUnit.SECONDS).pass()).isEqualTo(TenantGate.Pass.OPEN);
  }

  @Test
  @DisplayName(
      "SINK-17/PIPE-14: stop during a window ends the wait; an open gate passes after stop")
  void stopAware() throws Exception {
    stop.stop();
    assertThat(gate.enter(TenantGate.NONE, stop, closed).pass()).isEqualTo(TenantGate.Pass.OPEN);
    gate.exit(TenantGate.Pass.OPEN, Duration.ofSeconds(30));
    assertThat(gate.enter(TenantGate.NONE, stop, closed).pass()).isEqualTo(TenantGate.Pass.STOPPED);
  }

  /** Starts {@code enter} on another thread; returns once that lane waits for the probe. */
  private CompletableFuture<TenantGate.Entry> waitingLane() throws InterruptedException {
    CountDownLatch waiting = new CountDownLatch(1);
    gate.onProbeWait(waiting::countDown);
    CompletableFuture<TenantGate.Entry> lane =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return gate.enter(TenantGate.NONE, stop, closed);
              } catch (InterruptedException e) {
                throw new IllegalStateException(e);
              }
            });
    assertThat(waiting.await(10, TimeUnit.SECONDS)).isTrue();
    return lane;
  }

  @Test
  @DisplayName(
      "SINK-17: a lane waiting for the probe proceeds when the probe's answer arrives, on no"
          + " timer; after an answer announcing a new window it waits that window on the injected"
          + " sleeper and never passes before it ends")
  void waitingLaneFollowsTheProbe() throws Exception {
    gate.exit(TenantGate.Pass.OPEN, Duration.ofSeconds(1));
    time.advance(Duration.ofSeconds(1));
    TenantGate.Entry probe = gate.enter(TenantGate.NONE, stop, closed);
    assertThat(probe.pass()).isEqualTo(TenantGate.Pass.PROBE);

    // the probe is answered 429 Retry-After: 4: the waiting lane sleeps exactly that window
    CompletableFuture<TenantGate.Entry> lane = waitingLane();
    Instant answered = time.now();
    gate.exit(probe.pass(), Duration.ofSeconds(4));
    TenantGate.Entry next = lane.get(10, TimeUnit.SECONDS);
    assertThat(next).isEqualTo(new TenantGate.Entry(TenantGate.Pass.PROBE, true));
    assertThat(time.sleeps()).containsExactly(Duration.ofSeconds(4));
    assertThat(time.now()).isAfterOrEqualTo(answered.plusSeconds(4));

    // the next probe succeeds: the lane waiting for it is woken by the answer, no sleep, no clock
    CompletableFuture<TenantGate.Entry> third = waitingLane();
    Instant before = time.now();
    gate.exit(next.pass(), Duration.ZERO);
    assertThat(third.get(10, TimeUnit.SECONDS))
        .isEqualTo(new TenantGate.Entry(TenantGate.Pass.OPEN, true));
    assertThat(time.sleeps()).containsExactly(Duration.ofSeconds(4));
    assertThat(time.now()).isEqualTo(before);
  }

  @Test
  @DisplayName("SINK-17: a stop wakes a lane waiting for the probe at once: it sends nothing")
  void stopWakesAProbeWaiter() throws Exception {
    gate.exit(TenantGate.Pass.OPEN, Duration.ofSeconds(1));
    time.advance(Duration.ofSeconds(1));
    assertThat(gate.enter(TenantGate.NONE, stop, closed).pass()).isEqualTo(TenantGate.Pass.PROBE);
    CompletableFuture<TenantGate.Entry> lane = waitingLane();
    closed.stop();
    assertThat(lane.get(10, TimeUnit.SECONDS))
        .isEqualTo(new TenantGate.Entry(TenantGate.Pass.STOPPED, true));
    assertThat(time.sleeps()).isEmpty();
  }
}
