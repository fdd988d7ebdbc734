package io.sf2loki.app.backfill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sf2loki.app.e2e.support.ChildJvm;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Issue 16 acceptance: {@code backfill} in a child JVM gets SIGKILL halfway; the rerun ingests the
 * rest and sends no row of a file committed before the kill (BF-10, BF-12).
 */
class BackfillResumeTest {
  @Test
  @DisplayName(
      "BF-12, BF-10: kill -9 halfway, rerun → every row of the range arrives; no committed file"
          + " is re-sent (only the file in flight at the kill may be)")
  void bf12_resumesAfterKill9() throws Exception {
    try (BackfillScenario s = new BackfillScenario(250, "")) {
      Set<String> expected = s.expectedRows(s.inRange);
      Set<String> committedAtKill;
      List<String> firstRows;
      // paced (CLI-20) so the kill lands while files remain
      List<String> paced = s.args("--max-bytes-per-second", "150000");
      try (ChildJvm first = ChildJvm.start(s.sf.dir(), paced.toArray(String[]::new))) {
        await("two files committed")
            .atMost(Duration.ofSeconds(120))
            .pollInterval(Duration.ofMillis(50))
            .until(
                () -> {
                  if (!first.process().isAlive()) {
                    throw new AssertionError("child exited: " + first.stderr());
                  }
                  return s.committedFiles().size() >= 2;
                });
        first.process().destroyForcibly(); // SIGKILL: no shutdown hook, no final commit
        assertThat(first.process().waitFor(10, TimeUnit.SECONDS)).isTrue();
      }
      committedAtKill = s.committedFiles();
      assertThat(committedAtKill).hasSizeLessThan(s.inRange.size());
      firstRows = BackfillScenario.rowsOf(s.sf.receiver().entries());
      s.sf.receiver().reset();

      try (ChildJvm second = ChildJvm.start(s.sf.dir(), s.args().toArray(String[]::new))) {
        assertThat(second.waitFor(Duration.ofSeconds(120))).as(second.stderr()).isZero();
        assertThat(second.stdout()).contains("sf2loki backfill summary: files=");
      }
      List<String> secondRows = BackfillScenario.rowsOf(s.sf.receiver().entries());
      assertThat(secondRows).doesNotHaveDuplicates();
      assertThat(secondRows).doesNotContainAnyElementsOf(s.expectedRows(committedAtKill));
      Set<String> all = new HashSet<>(firstRows);
      all.addAll(secondRows);
      assertThat(all).isEqualTo(expected);
      assertThat(s.committedFiles()).isEqualTo(s.inRange);
    }
  }
}
