package io.sf2loki.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.app.e2e.support.LateRowsScenario;
import io.sf2loki.app.e2e.support.RunningDaemon;
import io.sf2loki.app.testing.RetainingMetricReader;
import io.sf2loki.core.time.TimeSource;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Issue 10 part 3 acceptance through the real daemon: rows of an ordinary object, a Big Object and
 * ApexLogs that become visible 5–20 minutes after their timestamp, default settle window (SPEC
 * OBJ-13…OBJ-17, APX-10).
 */
class LateVisibilityEndToEndTest {
  static final List<String> OBJECTS =
      List.of(LateRowsScenario.LH, LateRowsScenario.LE, LateRowsScenario.APEX);

  static void await(String what, Duration limit, BooleanSupplier cond) throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    while (!cond.getAsBoolean()) {
      assertThat(System.nanoTime()).as(what).isLessThan(deadline);
      TimeUnit.MILLISECONDS.sleep(50); // loopback network e2e: poll the receiver
    }
  }

  /** 0 lost, 0 stored twice, per object. */
  static void assertExactlyOnce(LateRowsScenario s) {
    Map<String, List<String>> stored = s.stored();
    for (String o : OBJECTS) {
      assertThat(stored.get(o)).as(o).doesNotHaveDuplicates();
      assertThat(new HashSet<>(stored.get(o)))
          .as(o)
          .containsExactlyInAnyOrderElementsOf(s.expected().get(o));
    }
  }

  @Test
  @DisplayName(
      "OBJ-13, OBJ-14, OBJ-16, APX-10: through the daemon, rows and ApexLogs visible 5–20 min"
          + " late with the default settle window: 0 lost, 0 duplicated; when nothing is late at"
          + " most one listing query per object per revisit_interval and no fetch")
  void obj13_daemonRecoversLateRows() throws Exception {
    try (LateRowsScenario s = LateRowsScenario.start()) {
      s.onTime(20);
      var cfg = s.writeConfig("2s");
      RetainingMetricReader metrics = new RetainingMetricReader();
      try (RunningDaemon d = RunningDaemon.start(cfg, metrics, TimeSource.system())) {
        for (int i = 0; i < 12; i++) { // 12 s of traffic, late rows every other second
          s.onTime(3);
          if (i % 2 == 1) {
            s.late(2);
          }
          TimeUnit.SECONDS.sleep(1); // the org's traffic is paced on the real clock
        }
        await("every row and log lands", Duration.ofSeconds(60), s::allStored);
        assertThat(s.lateRows()).isEqualTo(12);
        assertExactlyOnce(s);
        // the late rows were passed by the watermarks and shipped by the revisit
        assertThat(metrics.counter("sf2loki_late_rows_recovered").values())
            .containsExactly(12L, 12L, 12L);

        // quiet: nothing late; count revisit queries over a measured span
        Map<String, Long> listings0 = s.revisitListings();
        Map<String, Long> fetches0 = s.revisitFetches();
        long t0 = System.nanoTime();
        TimeUnit.SECONDS.sleep(7);
        Map<String, Long> listings1 = s.revisitListings();
        Map<String, Long> fetches1 = s.revisitFetches();
        double seconds = (System.nanoTime() - t0) / 1e9;
        for (String o : OBJECTS) {
          long n = listings1.get(o) - listings0.get(o);
          assertThat(n).as(o).isBetween(1L, (long) Math.floor(seconds / 2) + 1);
          assertThat(fetches1.get(o) - fetches0.get(o)).as(o).isZero();
        }
        assertThat(d.stop()).isZero();
      }
      assertExactlyOnce(s);
    }
  }
}
