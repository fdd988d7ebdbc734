package io.sf2loki.core.egress;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** EGR-7 rate caps: token buckets on the monotonic clock, served in arrival order. */
class EgressRateTest extends GovernorFixture {

  private EgressGovernor rateGovernor(
      double linesPerSecond, double bytesPerSecond, io.sf2loki.core.time.TimeSource time) {
    return new EgressGovernor(
        new EgressSettings(linesPerSecond, bytesPerSecond, 0, BudgetAction.PAUSE),
        time,
        metrics,
        Optional.empty());
  }

  /** Bounded wait for a state another thread reaches by blocking (not by sleeping). */
  private static void awaitTrue(BooleanSupplier ok, String what) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (!ok.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for " + what);
      }
      Thread.onSpinWait();
      Thread.yield();
    }
  }

  @Test
  @DisplayName(
      "EGR-7: the wait is the larger shortfall of min(amount, capacity) over its rate; buckets"
          + " may go negative")
  void egr7_computedWaits() throws Exception {
    FakeTime time = new FakeTime(at("2026-11-29T12:00:00Z"));
    EgressGovernor g = rateGovernor(10, 1000, time.timeSource());
    StopSignal stop = newStop();

    assertThat(g.admit(500, 5, stop)).isEqualTo(Admission.ADMITTED); // full buckets: no wait
    assertThat(time.sleeps()).isEmpty();
    // lines: 2 <= 5 left; bytes: 900 - 500 = 400 short at 1000/s -> 0.4 s
    assertThat(g.admit(900, 2, stop)).isEqualTo(Admission.ADMITTED);
    // now lines 7, bytes 0; needs min(30,10)=10 lines (0.3 s) and min(5000,1000)=1000 bytes (1 s)
    assertThat(g.admit(5000, 30, stop)).isEqualTo(Admission.ADMITTED);
    // took the full amounts: lines 10-30 = -20, bytes 1000-5000 = -4000
    // next: lines need 1 -> 21/10 = 2.1 s; bytes need 100 -> 4100/1000 = 4.1 s
    assertThat(g.admit(100, 1, stop)).isEqualTo(Admission.ADMITTED);
    assertThat(time.sleeps())
        .containsExactly(Duration.ofMillis(400), Duration.ofSeconds(1), Duration.ofMillis(4100));
  }

  @Test
  @DisplayName("EGR-7: each bucket holds at most one second of rate; a cap of 0 is off")
  void egr7_capacityAndSingleBucket() throws Exception {
    FakeTime time = new FakeTime(at("2026-11-29T12:00:00Z"));
    EgressGovernor g = rateGovernor(0, 100, time.timeSource()); // bytes only
    StopSignal stop = newStop();
    assertThat(g.admit(100, 1_000_000, stop)).isEqualTo(Admission.ADMITTED); // lines uncapped
    time.advance(Duration.ofSeconds(10)); // refills to capacity (100), not 1000
    assertThat(g.admit(100, 1, stop)).isEqualTo(Admission.ADMITTED);
    assertThat(g.admit(50, 1, stop)).isEqualTo(Admission.ADMITTED); // 50 short -> 0.5 s
    assertThat(time.sleeps()).containsExactly(Duration.ofMillis(500));
  }

  @Test
  @DisplayName(
      "EGR-7: refills use the monotonic ticker; a wall-clock step neither rushes nor freezes")
  void egr7_monotonicRefill() throws Exception {
    FakeTime time = new FakeTime(at("2026-11-29T12:00:00Z"));
    EgressGovernor g = rateGovernor(10, 0, time.timeSource());
    StopSignal stop = newStop();
    g.admit(0, 10, stop); // drain
    time.setWall(at("2026-12-29T12:00:00Z")); // a month forward on the wall clock only
    assertThat(g.admit(0, 10, stop)).isEqualTo(Admission.ADMITTED);
    assertThat(time.sleeps()).containsExactly(Duration.ofSeconds(1));
  }

  @Test
  @DisplayName(
      "EGR-7 / PIPE-25: waiting batches of both lanes are served strictly in arrival order")
  void egr7_fifoAcrossLanes() throws Exception {
    ManualClock clock = new ManualClock(at("2026-11-29T12:00:00Z"));
    EgressGovernor g = rateGovernor(10, 0, clock.timeSource());
    List<String> served = new CopyOnWriteArrayList<>();
    assertThat(g.admit(0, 10, newStop())).isEqualTo(Admission.ADMITTED); // drains the bucket

    CompletableFuture<Admission> streaming =
        runAsync(
            "streaming",
            () -> {
              Admission r = g.admit(0, 10, newStop());
              served.add("streaming");
              return r;
            });
    clock.awaitSleepers(1); // the head waits 1 s for 10 lines
    assertThat(clock.sleepsOf("streaming")).containsExactly(Duration.ofSeconds(1));
    clock.advance(Duration.ofMillis(200)); // 2 lines available by now

    CompletableFuture<Admission> bulk =
        runAsync(
            "bulk",
            () -> {
              Admission r = g.admit(0, 1, newStop());
              served.add("bulk");
              return r;
            });
    // the later batch needs 1 of the 2 tokens, but must queue behind the earlier waiter
    awaitTrue(() -> g.rateWaiters() == 2 || bulk.isDone(), "bulk to queue");
    assertThat(bulk).isNotDone();
    assertThat(clock.sleepsOf("bulk")).isEmpty();

    clock.advance(Duration.ofMillis(800));
    assertThat(streaming.get(2, TimeUnit.SECONDS)).isEqualTo(Admission.ADMITTED);
    clock.awaitSleepers(1); // bulk is head now: bucket 0, needs 1 line -> 0.1 s
    assertThat(clock.sleepsOf("bulk")).containsExactly(Duration.ofMillis(100));
    clock.advance(Duration.ofMillis(100));
    assertThat(bulk.get(2, TimeUnit.SECONDS)).isEqualTo(Admission.ADMITTED);
    assertThat(served).containsExactly("streaming", "bulk");
    assertThat(g.rateWaiters()).isZero();
  }

  @Test
  @DisplayName("EGR-7 / PIPE-14 (d): stop during a rate wait abandons the batch")
  void egr7_stopDuringRateWaitAbandons() throws Exception {
    ManualClock clock = new ManualClock(at("2026-11-29T12:00:00Z"));
    EgressGovernor g = rateGovernor(0, 1000, clock.timeSource());
    g.admit(1000, 1, newStop()); // drain
    StopSignal stopHead = newStop();
    StopSignal stopQueued = newStop();
    CompletableFuture<Admission> head = admitAsync("head", g, 1000, 1, stopHead);
    clock.awaitSleepers(1);
    CompletableFuture<Admission> queued = admitAsync("queued", g, 10, 1, stopQueued);
    CompletableFuture<Admission> last = admitAsync("last", g, 10, 1, newStop());
    awaitTrue(() -> g.rateWaiters() == 3, "three waiters");

    stopQueued.stop(); // a waiter queued behind the head leaves at once
    assertThat(queued.get(2, TimeUnit.SECONDS)).isEqualTo(Admission.ABANDONED);
    stopHead.stop(); // the sleeping head leaves at once
    assertThat(head.get(2, TimeUnit.SECONDS)).isEqualTo(Admission.ABANDONED);

    clock.awaitSleepers(1); // "last" is the head now: 10 bytes short -> 10 ms
    assertThat(clock.sleepsOf("last")).containsExactly(Duration.ofMillis(10));
    clock.advance(Duration.ofMillis(10));
    assertThat(last.get(2, TimeUnit.SECONDS)).isEqualTo(Admission.ADMITTED);
    assertThat(g.rateWaiters()).isZero();
  }

  @Test
  @DisplayName("EGR-13: interruption of a queued rate waiter abandons and keeps the interrupt")
  void egr7_interruptQueuedWaiter() throws Exception {
    ManualClock clock = new ManualClock(at("2026-11-29T12:00:00Z"));
    EgressGovernor g = rateGovernor(1, 0, clock.timeSource());
    g.admit(0, 1, newStop()); // drain
    CompletableFuture<Admission> head = admitAsync("head", g, 0, 1, newStop());
    clock.awaitSleepers(1);
    CompletableFuture<String> queued =
        runAsync(
            "queued",
            () -> g.admit(0, 1, newStop()) + "/" + Thread.currentThread().isInterrupted());
    awaitTrue(() -> g.rateWaiters() == 2, "two waiters");
    thread("queued").interrupt();
    assertThat(queued.get(2, TimeUnit.SECONDS)).isEqualTo("ABANDONED/true");
    clock.advance(Duration.ofSeconds(1));
    assertThat(head.get(2, TimeUnit.SECONDS)).isEqualTo(Admission.ADMITTED);
  }

  @Test
  @DisplayName("EGR-4/7: the budget is checked before the rate buckets; a drop takes no tokens")
  void egr7_budgetBeforeRate() throws Exception {
    FakeTime time = new FakeTime(at("2026-11-29T12:00:00Z"));
    EgressGovernor g =
        new EgressGovernor(
            new EgressSettings(1, 0, BUDGET, BudgetAction.DROP),
            time.timeSource(),
            metrics,
            Optional.empty());
    StopSignal stop = newStop();
    g.record(BUDGET);
    assertThat(g.admit(10, 5, stop)).isEqualTo(Admission.DROPPED);
    assertThat(time.sleeps()).isEmpty();
    time.advance(Duration.ofDays(1));
    assertThat(g.admit(10, 1, stop)).isEqualTo(Admission.ADMITTED); // bucket still full
    assertThat(time.sleeps()).isEmpty();
  }
}
