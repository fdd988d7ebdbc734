package io.sf2loki.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.app.e2e.support.ChildJvm;
import io.sf2loki.app.e2e.support.LateRowsScenario;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Issue 10 part 3 with a real kill: the daemon runs in a child JVM that gets SIGKILL while late
 * rows keep arriving (also while it is down); the restart loses nothing (SPEC OBJ-16, OBJ-17).
 */
class LateVisibilityKillTest {
  @Test
  @DisplayName(
      "OBJ-16, OBJ-17, SRC-13: SIGKILL mid-scenario and a restart lose no late or on-time row;"
          + " re-shipped rows collapse in the receiver, so every row is stored once")
  void obj17_sigkillLosesNothing() throws Exception {
    try (LateRowsScenario s = LateRowsScenario.start()) {
      s.onTime(20);
      var cfg = s.writeConfig("2s");
      var work = s.dir();
      try (ChildJvm first = ChildJvm.start(work, "run", "--config", cfg.toString())) {
        LateVisibilityEndToEndTest.await(
            "the first run ships and commits",
            Duration.ofSeconds(60),
            () -> {
              if (!first.process().isAlive()) {
                throw new AssertionError("child exited: " + first.stderr());
              }
              return s.receiver().totalEntries() >= 60 && s.stateFile().toFile().length() > 0;
            });
        for (int i = 0; i < 6; i++) {
          s.onTime(2);
          s.late(1);
          TimeUnit.MILLISECONDS.sleep(700); // traffic paced on the real clock
        }
        first.process().destroyForcibly(); // SIGKILL: no shutdown, no final commit
        assertThat(first.process().waitFor(10, TimeUnit.SECONDS)).isTrue();
      }
      // rows that arrive (late and on time) while the service is down
      s.onTime(3);
      s.late(3);
      try (ChildJvm second = ChildJvm.start(work, "run", "--config", cfg.toString())) {
        for (int i = 0; i < 4; i++) {
          s.onTime(2);
          s.late(1);
          TimeUnit.MILLISECONDS.sleep(700);
        }
        LateVisibilityEndToEndTest.await(
            "the restart delivers everything",
            Duration.ofSeconds(90),
            () -> {
              if (!second.process().isAlive()) {
                throw new AssertionError("child exited: " + second.stderr());
              }
              return s.allStored();
            });
        second.process().destroy(); // SIGTERM: clean stop
        assertThat(second.waitFor(Duration.ofSeconds(30))).isZero();
      }
      Map<String, List<String>> stored = s.stored();
      for (String o : LateVisibilityEndToEndTest.OBJECTS) {
        assertThat(stored.get(o)).as(o).doesNotHaveDuplicates();
        assertThat(new HashSet<>(stored.get(o)))
            .as(o)
            .containsExactlyInAnyOrderElementsOf(s.expected().get(o));
      }
      assertThat(s.lateRows()).isEqualTo(13);
      // the restart's first revisit re-shipped the window (empty memory): identical, collapsed
      assertThat(s.receiver().duplicatesDropped()).isPositive();
    }
  }
}
