package io.sf2loki.core.egress;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** ⚑ Seed invariant A: every paused waiter resumes at rollover (SPEC EGR-9…EGR-14). */
class EgressSeedInvariantTest extends GovernorFixture {
  private static final LocalDate DAY = LocalDate.parse("2026-11-29");
  private static final LocalDate NEXT = DAY.plusDays(1);

  /** Bounded real-time wait for a released waiter; a regression times out here. */
  private static final long RELEASE_SECONDS = 2;

  private ManualClock clock;
  private EgressGovernor gov;

  private void start(String wall) {
    clock = new ManualClock(at(wall));
    gov = budgetGovernor(clock.timeSource(), BudgetAction.PAUSE, Optional.empty());
    gov.record(BUDGET); // exhaust today's budget
  }

  private static Admission released(CompletableFuture<Admission> f) throws Exception {
    try {
      return f.get(RELEASE_SECONDS, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError("waiter not released within " + RELEASE_SECONDS + " s (stranded)");
    }
  }

  @Test
  @DisplayName("EGR-14 (1): two concurrent paused admissions both complete after one UTC midnight")
  void egr14_1_twoPausedWaitersBothResumeAtMidnight() throws Exception {
    start("2026-11-29T23:59:30Z");
    CompletableFuture<Admission> a = admitAsync("a", gov, 10, 1, newStop());
    CompletableFuture<Admission> b = admitAsync("b", gov, 10, 1, newStop());
    clock.awaitSleepers(2);
    assertThat(clock.sleepsOf("a")).containsExactly(Duration.ofSeconds(30));
    assertThat(clock.sleepsOf("b")).containsExactly(Duration.ofSeconds(30));
    assertThat(a).isNotDone();
    assertThat(b).isNotDone();

    clock.advance(Duration.ofSeconds(30)); // one fake-clock UTC midnight

    assertThat(released(a)).isEqualTo(Admission.ADMITTED);
    assertThat(released(b)).isEqualTo(Admission.ADMITTED);
    assertThat(gov.pausedReason()).isEmpty();
    assertThat(pausedGauge()).isZero();
    assertThat(gov.day()).isEqualTo(NEXT);
  }

  @Test
  @DisplayName(
      "EGR-14 (2): after both waiters resume, recorded bytes are the gauge: reset exactly once")
  void egr14_2_counterResetExactlyOnce() throws Exception {
    start("2026-11-29T23:57:00Z");
    CompletableFuture<Admission> a = admitAsync("a", gov, 10, 1, newStop());
    clock.awaitSleepers(1); // a sleeps 60 s (cap), deadline tick +60 s
    clock.advance(Duration.ofSeconds(30));
    CompletableFuture<Admission> b = admitAsync("b", gov, 10, 1, newStop());
    clock.awaitSleepers(2); // b sleeps 60 s, deadline tick +90 s
    clock.setWall(at("2026-11-30T00:00:10Z")); // wall passes midnight; nobody wakes yet

    clock.advance(Duration.ofSeconds(30)); // a wakes on the new day, b still sleeps
    assertThat(released(a)).isEqualTo(Admission.ADMITTED);
    clock.awaitSleepers(1);
    assertThat(b).isNotDone();
    gov.record(300); // a's push succeeds
    assertThat(usedGauge()).isEqualTo(300);

    clock.advance(Duration.ofSeconds(30)); // b wakes late: must not reset again
    assertThat(released(b)).isEqualTo(Admission.ADMITTED);
    assertThat(usedGauge()).isEqualTo(300);
    Optional<CheckpointToken> token = gov.record(200); // b's push succeeds
    assertThat(usedGauge()).isEqualTo(500);
    assertThat(token.orElseThrow().value()).isEqualTo("{\"date\": \"2026-11-30\", \"bytes\": 500}");
  }

  @Test
  @DisplayName(
      "EGR-14 (3): one waiter stopped, the other held on a static clock: reason and gauge stay"
          + " until the second leaves")
  void egr14_3_pausedStateIsReferenceCounted() throws Exception {
    start("2026-11-29T12:00:00Z");
    StopSignal stopA = newStop();
    StopSignal stopB = newStop();
    CompletableFuture<Admission> a = admitAsync("a", gov, 10, 1, stopA);
    CompletableFuture<Admission> b = admitAsync("b", gov, 10, 1, stopB);
    clock.awaitSleepers(2);
    String reason = "degraded: daily byte budget exhausted, pushes paused until 2026-11-30";
    assertThat(gov.pausedReason()).contains(reason);
    assertThat(pausedGauge()).isEqualTo(1);

    stopA.stop();
    assertThat(released(a)).isEqualTo(Admission.ABANDONED);
    clock.awaitSleepers(1);
    assertThat(b).isNotDone();
    assertThat(gov.pausedReason()).contains(reason);
    assertThat(pausedGauge()).isEqualTo(1);
    assertThat(gov.pausedWaiters()).isEqualTo(1);

    stopB.stop();
    assertThat(released(b)).isEqualTo(Admission.ABANDONED);
    assertThat(gov.pausedReason()).isEmpty();
    assertThat(pausedGauge()).isZero();
  }

  @Test
  @DisplayName("EGR-14 (4): stop during a single pause clears the gauge and the reason")
  void egr14_4_stopDuringSinglePauseClears() throws Exception {
    start("2026-11-29T12:00:00Z");
    StopSignal stop = newStop();
    CompletableFuture<Admission> a = admitAsync("a", gov, 10, 1, stop);
    clock.awaitSleepers(1);
    assertThat(pausedGauge()).isEqualTo(1);
    assertThat(gov.pausedReason()).isPresent();

    stop.stop();

    assertThat(released(a)).isEqualTo(Admission.ABANDONED);
    assertThat(pausedGauge()).isZero();
    assertThat(gov.pausedReason()).isEmpty();
    assertThat(gov.usedBytes()).isEqualTo(BUDGET); // not pushed: the budget stays exhausted
  }

  @Test
  @DisplayName(
      "EGR-14 (5): a record from the other lane that rolls the day first does not strand a"
          + " waiter")
  void egr14_5_recordRollingFirstDoesNotStrandWaiter() throws Exception {
    start("2026-11-29T23:59:00Z");
    CompletableFuture<Admission> a = admitAsync("a", gov, 10, 1, newStop());
    clock.awaitSleepers(1); // sleeps 60 s, until midnight
    clock.setWall(at("2026-11-30T00:00:05Z"));
    Optional<CheckpointToken> other = gov.record(50); // other lane rolls the day first
    assertThat(other.orElseThrow().value()).isEqualTo("{\"date\": \"2026-11-30\", \"bytes\": 50}");
    assertThat(a).isNotDone();

    clock.advance(Duration.ofSeconds(60));

    assertThat(released(a)).isEqualTo(Admission.ADMITTED);
    assertThat(gov.usedBytes()).isEqualTo(50); // EGR-10: bytes of the new day are kept
    assertThat(usedGauge()).isEqualTo(50);
    assertThat(pausedGauge()).isZero();
  }

  @Test
  @DisplayName("EGR-14 (6): a single waiter stays paused until midnight and is then admitted")
  void egr14_6_singleWaiterPausesUntilMidnight() throws Exception {
    start("2026-11-29T23:58:30Z");
    CompletableFuture<Admission> a = admitAsync("a", gov, 10, 1, newStop());
    clock.awaitSleepers(1);
    clock.advance(Duration.ofSeconds(60)); // 23:59:30: still the pause day
    clock.awaitSleepCalls(2);
    clock.awaitSleepers(1);
    assertThat(a).isNotDone();
    assertThat(pausedGauge()).isEqualTo(1);
    assertThat(gov.pausedReason())
        .contains("degraded: daily byte budget exhausted, pushes paused until 2026-11-30");

    clock.advance(Duration.ofSeconds(30)); // midnight

    assertThat(released(a)).isEqualTo(Admission.ADMITTED);
    assertThat(clock.sleepsOf("a")).containsExactly(Duration.ofSeconds(60), Duration.ofSeconds(30));
    assertThat(pausedGauge()).isZero();
    assertThat(gov.usedBytes()).isZero();
  }

  @Test
  @DisplayName(
      "EGR-14 (7): a budget persisted yesterday is ignored today; today's is reused after restart")
  void egr14_7_persistedBudgetOnlyReusedOnSameDay() {
    ManualClock today = new ManualClock(at("2026-11-29T10:00:00Z"));
    EgressGovernor first = budgetGovernor(today.timeSource(), BudgetAction.PAUSE, Optional.empty());
    String stored = first.record(400).orElseThrow().value();
    assertThat(stored).isEqualTo("{\"date\": \"2026-11-29\", \"bytes\": 400}");

    // restart on the same UTC day: the count continues
    EgressGovernor restarted =
        budgetGovernor(today.timeSource(), BudgetAction.PAUSE, Optional.of(stored));
    assertThat(restarted.usedBytes()).isEqualTo(400);
    assertThat(usedGauge()).isEqualTo(400);
    assertThat(restarted.record(100).orElseThrow().value())
        .isEqualTo("{\"date\": \"2026-11-29\", \"bytes\": 500}");

    // restart the next UTC day with yesterday's value: ignored
    ManualClock tomorrow = new ManualClock(at("2026-11-30T10:00:00Z"));
    EgressGovernor nextDay =
        budgetGovernor(tomorrow.timeSource(), BudgetAction.PAUSE, Optional.of(stored));
    assertThat(nextDay.usedBytes()).isZero();
    assertThat(usedGauge()).isZero();
    assertThat(nextDay.record(10).orElseThrow().value())
        .isEqualTo("{\"date\": \"2026-11-30\", \"bytes\": 10}");
    assertThat(logs.list).isEmpty(); // a valid old value is not "corrupt"
  }

  @Test
  @DisplayName("EGR-5: a waiter released by rollover is admitted without a second budget check")
  void egr5_releasedWaiterSkipsSecondBudgetCheck() throws Exception {
    start("2026-11-29T23:59:00Z");
    CompletableFuture<Admission> a = admitAsync("a", gov, 600, 1, newStop());
    clock.awaitSleepers(1);
    clock.setWall(at("2026-11-30T00:00:05Z"));
    gov.record(900); // the other lane already used most of the new day's budget
    clock.advance(Duration.ofSeconds(60));
    assertThat(released(a)).isEqualTo(Admission.ADMITTED); // 900 + 600 > 1000, admitted anyway
    assertThat(gov.record(600).orElseThrow().value())
        .isEqualTo("{\"date\": \"2026-11-30\", \"bytes\": 1500}");
  }

  @Test
  @DisplayName("EGR-9: the waiter's sleeps are min(next UTC midnight, 60 s), recomputed each turn")
  void egr9_sleepsAreBoundedAndRecomputed() throws Exception {
    start("2026-11-29T23:57:45Z");
    CompletableFuture<Admission> a = admitAsync("a", gov, 10, 1, newStop());
    clock.awaitSleepers(1);
    clock.advance(Duration.ofSeconds(60));
    clock.awaitSleepCalls(2);
    clock.advance(Duration.ofSeconds(60));
    clock.awaitSleepCalls(3);
    clock.awaitSleepers(1);
    clock.advance(Duration.ofSeconds(15));
    assertThat(released(a)).isEqualTo(Admission.ADMITTED);
    assertThat(clock.sleepsOf("a"))
        .isEqualTo(List.of(Duration.ofSeconds(60), Duration.ofSeconds(60), Duration.ofSeconds(15)));
  }
}
