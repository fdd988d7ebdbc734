package io.sf2loki.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.core.cpu.CpuPool;
import io.sf2loki.core.model.LogEntry;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Smoke test only: the harness wiring works on tiny data (no benchmark runs during verify). */
class EndToEndSmokeTest {
  @Test
  @DisplayName("ELF-1, PIPE-3: the in-process harness delivers every row and commits every cursor")
  void harnessDeliversEveryRow() throws Exception {
    Map<String, byte[]> csv = new LinkedHashMap<>();
    for (String t : BenchData.EVENT_TYPES) {
      csv.put(t, BenchData.csv(t, 300));
    }
    try (CpuPool cpu = new CpuPool(2)) {
      // runElf checks the delivered count and the committed cursors itself
      double rps =
          EndToEnd.runElf("smoke", csv, 2, 300L * 2 * csv.size(), 0, cpu, EncodingSink::new);
      assertThat(rps).isPositive();
    }
  }

  @Test
  @DisplayName(
      "SRC-7, SINK-4: benchmark entries are shaped, labelled and ASCII (lineBytes = length)")
  void benchDataIsRealistic() {
    List<LogEntry> entries = BenchData.entries("Login", 50, BenchData.metrics());
    assertThat(entries).hasSize(50);
    for (LogEntry e : entries) {
      assertThat(e.labels()).containsEntry("event_type", "Login").containsEntry("job", "sf2loki");
      assertThat(e.lineBytes()).isEqualTo(LogEntry.utf8Length(e.line()));
      assertThat(e.structuredMetadata()).containsKey("level");
    }
  }
}
