package io.sf2loki.core.egress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EgressBudgetTest extends GovernorFixture {

  @Test
  @DisplayName("EGR-1: a governor exists only when a limit is > 0; a disabled one admits at once")
  void egr1_enabled() throws Exception {
    assertThat(EgressSettings.disabled().enabled()).isFalse();
    assertThat(new EgressSettings(0.5, 0, 0, BudgetAction.PAUSE).enabled()).isTrue();
    assertThat(new EgressSettings(0, 1, 0, BudgetAction.PAUSE).enabled()).isTrue();
    assertThat(new EgressSettings(0, 0, 1, BudgetAction.DROP).enabled()).isTrue();
    assertThatThrownBy(() -> new EgressSettings(-1, 0, 0, BudgetAction.PAUSE))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new EgressSettings(0, Double.NaN, 0, BudgetAction.PAUSE))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new EgressSettings(0, 0, -1, BudgetAction.PAUSE))
        .isInstanceOf(IllegalArgumentException.class);

    FakeTime time = new FakeTime(at("2026-11-29T12:00:00Z"));
    EgressGovernor off =
        new EgressGovernor(
            EgressSettings.disabled(), time.timeSource(), metrics, Optional.of("garbage"));
    assertThat(off.admit(Long.MAX_VALUE / 2, 1_000_000, newStop())).isEqualTo(Admission.ADMITTED);
    assertThat(off.record(1_000)).isEmpty();
    assertThat(time.sleeps()).isEmpty();
    assertThat(logs.list).isEmpty(); // without a budget the stored value is not even read
  }

  @Test
  @DisplayName("EGR-2: today's stored count is reused, yesterday's and a future one are ignored")
  void egr2_loadOnlyToday() {
    TimeSource t = new FakeTime(at("2026-11-29T00:00:00Z")).timeSource();
    assertThat(
            budgetGovernor(
                    t, BudgetAction.PAUSE, Optional.of("{\"date\": \"2026-11-29\", \"bytes\": 7}"))
                .usedBytes())
        .isEqualTo(7);
    assertThat(usedGauge()).isEqualTo(7);
    assertThat(
            budgetGovernor(
                    t, BudgetAction.PAUSE, Optional.of("{\"date\": \"2026-11-28\", \"bytes\": 7}"))
                .usedBytes())
        .isZero();
    assertThat(
            budgetGovernor(
                    t, BudgetAction.PAUSE, Optional.of("{\"date\": \"2026-11-30\", \"bytes\": 7}"))
                .usedBytes())
        .isZero();
    // any valid JSON with the fields: other key order, whitespace, extra members
    assertThat(
            budgetGovernor(
                    t,
                    BudgetAction.PAUSE,
                    Optional.of(
                        " {\"x\": [1, {\"y\": null}], \"bytes\":9,\n\"date\":\"2026-11-29\"} "))
                .usedBytes())
        .isEqualTo(9);
    assertThat(budgetGovernor(t, BudgetAction.PAUSE, Optional.empty()).usedBytes()).isZero();
    assertThat(logs.list).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "not json",
        "{\"date\": \"2026-11-29\"}",
        "{\"bytes\": 5}",
        "{\"date\": \"2026-11-29\", \"bytes\": -5}",
        "{\"date\": \"2026-11-29\", \"bytes\": 1.5}",
        "{\"date\": \"2026-11-29\", \"bytes\": \"5\"}",
        "{\"date\": 20261129, \"bytes\": 5}",
        "{\"date\": \"29.11.2026\", \"bytes\": 5}",
        "{\"date\": \"2026-11-29\", \"bytes\": 5",
        "[\"2026-11-29\", 5]",
        "{\"date\": \"2026-11-29\", \"bytes\": 5} trailing"
      })
  @DisplayName("EGR-2: a corrupt stored value counts as 0 and logs WARN")
  void egr2_corruptCountsAsZero(String stored) {
    TimeSource t = new FakeTime(at("2026-11-29T08:00:00Z")).timeSource();
    EgressGovernor g = budgetGovernor(t, BudgetAction.PAUSE, Optional.of(stored));
    assertThat(g.usedBytes()).isZero();
    assertThat(usedGauge()).isZero();
    assertThat(logged(Level.WARN, EgressGovernor.CORRUPT_WARN)).hasSize(1);
  }

  @Test
  @DisplayName("EGR-3: a backward wall-clock step across midnight never resets the count")
  void egr3_backwardStepNeverResets() {
    ManualClock clock = new ManualClock(at("2026-11-29T23:59:50Z"));
    EgressGovernor g = budgetGovernor(clock.timeSource(), BudgetAction.PAUSE, Optional.empty());
    g.record(100);
    clock.advance(Duration.ofSeconds(20)); // 2026-11-30T00:00:10
    assertThat(g.record(10).orElseThrow().value())
        .isEqualTo("{\"date\": \"2026-11-30\", \"bytes\": 10}");
    clock.setWall(at("2026-11-29T23:59:55Z")); // backward step across midnight
    assertThat(g.record(5).orElseThrow().value())
        .isEqualTo("{\"date\": \"2026-11-30\", \"bytes\": 15}");
    assertThat(g.day()).hasToString("2026-11-30");
    clock.setWall(at("2026-11-30T00:00:20Z")); // forward again, same day as the governor's
    assertThat(g.record(5).orElseThrow().value())
        .isEqualTo("{\"date\": \"2026-11-30\", \"bytes\": 20}");
    assertThat(usedGauge()).isEqualTo(20);
  }

  @Test
  @DisplayName(
      "EGR-3: a backward step never releases a waiter; its pause day is the governor's day")
  void egr3_backwardStepNeverReleasesWaiter() throws Exception {
    ManualClock clock = new ManualClock(at("2026-11-30T00:00:30Z"));
    EgressGovernor g = budgetGovernor(clock.timeSource(), BudgetAction.PAUSE, Optional.empty());
    g.record(BUDGET);
    clock.setWall(at("2026-11-29T23:59:58Z")); // backward step before the pause begins
    StopSignal stop = newStop();
    CompletableFuture<Admission> a = admitAsync("a", g, 10, 1, stop);
    clock.awaitSleepers(1);
    assertThat(g.pausedReason())
        .contains("degraded: daily byte budget exhausted, pushes paused until 2026-12-01");
    clock.advance(Duration.ofSeconds(2)); // wall reaches 2026-11-30 again: not later than pause day
    clock.awaitSleepCalls(2);
    clock.awaitSleepers(1);
    assertThat(a).isNotDone();
    assertThat(g.usedBytes()).isEqualTo(BUDGET);
    assertThat(clock.sleepsOf("a")).containsExactly(Duration.ofSeconds(2), Duration.ofSeconds(60));
    stop.stop();
    assertThat(a.get(2, TimeUnit.SECONDS)).isEqualTo(Admission.ABANDONED);
  }

  @Test
  @DisplayName(
      "EGR-4: admitted when used = 0 or used + bytes <= budget; drop mode refuses, WARN once per"
          + " 60 s")
  void egr4_dropMode() throws Exception {
    FakeTime time = new FakeTime(at("2026-11-29T12:00:00Z"));
    EgressGovernor g = budgetGovernor(time.timeSource(), BudgetAction.DROP, Optional.empty());
    StopSignal stop = newStop();
    assertThat(g.admit(5 * BUDGET, 1, stop)).isEqualTo(Admission.ADMITTED); // used == 0
    g.record(600);
    assertThat(g.admit(400, 1, stop)).isEqualTo(Admission.ADMITTED); // exactly the budget
    assertThat(g.admit(401, 1, stop)).isEqualTo(Admission.DROPPED);
    assertThat(g.admit(401, 1, stop)).isEqualTo(Admission.DROPPED);
    time.advance(Duration.ofSeconds(59));
    assertThat(g.admit(401, 1, stop)).isEqualTo(Admission.DROPPED);
    assertThat(logged(Level.WARN, EgressGovernor.DROP_WARN)).hasSize(1);
    time.advance(Duration.ofSeconds(1));
    assertThat(g.admit(401, 1, stop)).isEqualTo(Admission.DROPPED);
    assertThat(logged(Level.WARN, EgressGovernor.DROP_WARN)).hasSize(2);
    assertThat(g.usedBytes()).isEqualTo(600); // a drop records nothing
    assertThat(pausedGauge()).isZero();
    assertThat(g.pausedReason()).isEmpty();
    assertThat(time.sleeps()).isEmpty();
    time.advance(Duration.ofDays(1)); // next UTC day: admitted again
    assertThat(g.admit(401, 1, stop)).isEqualTo(Admission.ADMITTED);
  }

  @Test
  @DisplayName("EGR-5: the first pause of a UTC day logs ERROR once")
  void egr5_errorOncePerDay() throws Exception {
    ManualClock clock = new ManualClock(at("2026-11-29T12:00:00Z"));
    EgressGovernor g = budgetGovernor(clock.timeSource(), BudgetAction.PAUSE, Optional.empty());
    g.record(BUDGET);
    for (String name : List.of("a", "b")) {
      StopSignal stop = newStop();
      CompletableFuture<Admission> f = admitAsync(name, g, 10, 1, stop);
      clock.awaitSleepers(1);
      stop.stop();
      assertThat(f.get(2, TimeUnit.SECONDS)).isEqualTo(Admission.ABANDONED);
    }
    assertThat(logged(Level.ERROR, EgressGovernor.PAUSE_ERROR)).hasSize(1);
    assertThat(EgressGovernor.PAUSE_ERROR)
        .isEqualTo("daily byte budget exhausted; pausing pushes until next UTC midnight");

    clock.advance(Duration.ofDays(1));
    g.record(BUDGET); // rolls, then exhausts the new day
    StopSignal stop = newStop();
    CompletableFuture<Admission> c = admitAsync("c", g, 10, 1, stop);
    clock.awaitSleepers(1);
    stop.stop();
    assertThat(c.get(2, TimeUnit.SECONDS)).isEqualTo(Admission.ABANDONED);
    assertThat(logged(Level.ERROR, EgressGovernor.PAUSE_ERROR)).hasSize(2);
  }

  @Test
  @DisplayName(
      "EGR-6: record returns the egress:budget token in SRC-15 form; captures of two concurrent"
          + " lanes are ordered and gap-free")
  void egr6_tokenFormatAndOrdering() throws Exception {
    FakeTime time = new FakeTime(at("2026-11-29T12:00:00Z"));
    EgressGovernor g =
        new EgressGovernor(
            new EgressSettings(0, 0, 1_000_000, BudgetAction.PAUSE),
            time.timeSource(),
            metrics,
            Optional.empty());
    int perLane = 1000;
    CountDownLatch go = new CountDownLatch(1);
    List<CompletableFuture<List<CheckpointToken>>> lanes = new ArrayList<>();
    for (String lane : List.of("streaming", "bulk")) {
      lanes.add(
          runAsync(
              lane,
              () -> {
                go.await();
                List<CheckpointToken> got = new ArrayList<>();
                for (int i = 0; i < perLane; i++) {
                  got.add(g.record(1).orElseThrow());
                }
                return got;
              }));
    }
    go.countDown();
    Set<Long> all = new HashSet<>();
    for (CompletableFuture<List<CheckpointToken>> lane : lanes) {
      long previous = 0;
      boolean growing = true;
      for (CheckpointToken t : lane.get(5, TimeUnit.SECONDS)) {
        assertThat(t.key()).isEqualTo("egress:budget");
        String prefix = "{\"date\": \"2026-11-29\", \"bytes\": ";
        assertThat(t.value()).startsWith(prefix).endsWith("}");
        long bytes = Long.parseLong(t.value().substring(prefix.length(), t.value().length() - 1));
        growing &= bytes > previous; // each lane's captures only grow
        previous = bytes;
        all.add(bytes);
      }
      assertThat(growing).isTrue();
    }
    assertThat(all).hasSize(2 * perLane); // every capture is distinct: taken under the lock
    assertThat(all).allMatch(b -> b >= 1 && b <= 2 * perLane);
    assertThat(usedGauge()).isEqualTo(2 * perLane);
    assertThat(g.record(0).orElseThrow().value())
        .isEqualTo("{\"date\": \"2026-11-29\", \"bytes\": 2000}");
  }

  @Test
  @DisplayName("EGR-6: WARN once per UTC day when the count first reaches 80 %")
  void egr6_warnAt80PercentOncePerDay() {
    FakeTime time = new FakeTime(at("2026-11-29T12:00:00Z"));
    EgressGovernor g = budgetGovernor(time.timeSource(), BudgetAction.PAUSE, Optional.empty());
    g.record(799);
    assertThat(logged(Level.WARN, EgressGovernor.WARN_80)).isEmpty();
    g.record(1);
    assertThat(logged(Level.WARN, EgressGovernor.WARN_80)).hasSize(1);
    g.record(150);
    g.record(500);
    assertThat(logged(Level.WARN, EgressGovernor.WARN_80)).hasSize(1);
    time.advance(Duration.ofDays(1));
    g.record(900);
    assertThat(logged(Level.WARN, EgressGovernor.WARN_80)).hasSize(2);
  }

  @Test
  @DisplayName("EGR-6: without a daily budget record hands no token")
  void egr6_noBudgetNoToken() {
    FakeTime time = new FakeTime(at("2026-11-29T12:00:00Z"));
    EgressGovernor g =
        new EgressGovernor(
            new EgressSettings(100, 0, 0, BudgetAction.PAUSE),
            time.timeSource(),
            metrics,
            Optional.empty());
    assertThat(g.record(10)).isEmpty();
  }

  @Test
  @DisplayName("EGR-11/13: interruption during a pause is an exit path equivalent to stop")
  void egr13_interruptDuringPause() throws Exception {
    ManualClock clock = new ManualClock(at("2026-11-29T12:00:00Z"));
    EgressGovernor g = budgetGovernor(clock.timeSource(), BudgetAction.PAUSE, Optional.empty());
    g.record(BUDGET);
    StopSignal stop = newStop();
    CompletableFuture<String> a =
        runAsync(
            "a",
            () -> {
              Admission r = g.admit(10, 1, stop);
              return r + "/" + Thread.currentThread().isInterrupted();
            });
    clock.awaitSleepers(1);
    assertThat(pausedGauge()).isEqualTo(1);
    thread("a").interrupt();
    assertThat(a.get(2, TimeUnit.SECONDS)).isEqualTo("ABANDONED/true");
    assertThat(pausedGauge()).isZero();
    assertThat(g.pausedReason()).isEmpty();
  }

  @Test
  @DisplayName("EGR-11: an exception from the sleeper still releases the paused count")
  void egr11_exceptionReleasesPausedCount() {
    FakeTime fake = new FakeTime(at("2026-11-29T12:00:00Z"));
    TimeSource failing =
        new TimeSource(
            fake.wall(),
            fake.ticker(),
            (d, s) -> {
              assertThat(pausedGauge()).isEqualTo(1);
              throw new IllegalStateException("boom");
            });
    EgressGovernor g = budgetGovernor(failing, BudgetAction.PAUSE, Optional.empty());
    g.record(BUDGET);
    assertThatThrownBy(() -> g.admit(10, 1, newStop())).isInstanceOf(IllegalStateException.class);
    assertThat(pausedGauge()).isZero();
    assertThat(g.pausedReason()).isEmpty();
    assertThat(g.pausedWaiters()).isZero();
  }

  @Test
  @DisplayName("EGR-12: a stop that fired before the pause began abandons at once")
  void egr12_alreadyStopped() throws Exception {
    FakeTime time = new FakeTime(at("2026-11-29T12:00:00Z"));
    EgressGovernor g = budgetGovernor(time.timeSource(), BudgetAction.PAUSE, Optional.empty());
    g.record(BUDGET);
    StopSignal stop = newStop();
    stop.stop();
    assertThat(g.admit(10, 1, stop)).isEqualTo(Admission.ABANDONED);
    assertThat(pausedGauge()).isZero();
    assertThat(g.admit(0, 0, stop)).isEqualTo(Admission.ADMITTED); // fits: no wait, no stop check
  }
}
