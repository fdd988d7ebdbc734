package io.sf2loki.app.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.app.backfill.BackfillPlanner.TypePlan;
import io.sf2loki.salesforce.elf.ElfFiles.ListedFile;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The dry-run estimate (BF-14, BF-17) on a known file set. */
class DryRunReportTest {
  private static ListedFile file(String id, long bytes) {
    return new ListedFile(id, "Login", "2026-11-01T01:00:00.000+0000", null, null, bytes);
  }

  private static String print(DryRunReport.Rate cap) {
    // Login: 1,000,000 B (2,000 rows, 2,000,000 line bytes) + 5,000 B (10 rows); API: 1 file of 0 B
    List<TypePlan> plans =
        List.of(
            new TypePlan("Login", List.of(file("A", 1_000_000), file("B", 5_000)), 1, null),
            new TypePlan("API", List.of(file("C", 0)), 2, null));
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    DryRunReport.print(
        new PrintStream(b, true, StandardCharsets.UTF_8),
        plans,
        new DryRunReport.Estimate(cap, 1000, 1_048_576));
    return b.toString(StandardCharsets.UTF_8);
  }

  @Test
  @DisplayName(
      "BF-17, BF-14: rows = LogFileLength / 500 B, line bytes = 2 x LogFileLength, pushes per file"
          + " = max(rows / max_entries, line bytes / max_bytes), duration at the nominal 2 MiB/s of"
          + " CSV; API calls exact; the basis is printed")
  void bf17_estimateWithoutCap() {
    String out = print(DryRunReport.rate(0, 0));
    // A: 2,000 rows → 2 pushes by entries, 2,000,000 line bytes → 2 by bytes; B: 10 rows → 1
    // duration: 1,005,000 B / 2,097,152 B/s = 0.48 s (H:MM:SS shows whole seconds)
    assertThat(out)
        .contains(
            "type=Login files=2 bytes=1005000 api_calls=3 listings=1 downloads=2 rows_est=2010"
                + " pushes_est=3 estimated=0:00:00\n")
        .contains(
            "type=API files=1 bytes=0 api_calls=3 listings=2 downloads=1 rows_est=0 pushes_est=0"
                + " estimated=0:00:00\n")
        .contains(
            "sf2loki backfill dry run: types=2 files=3 bytes=1005000 api_calls=6 rows_est=2010"
                + " pushes_est=3 estimated=0:00:00; nothing downloaded, pushed or committed\n")
        .contains("rows = LogFileLength / 500 B (nominal)")
        .contains("line bytes = 2.0 x LogFileLength (nominal)")
        .contains("pushes per file = max(rows / 1000, line bytes / 1048576)")
        .contains("at the cap (none)");
  }

  @Test
  @DisplayName(
      "BF-17, CLI-20: a cap bounds line bytes, not CSV bytes: 2,010,000 line bytes at 10,000 B/s"
          + " = 201 s")
  void bf17_capAppliesToLineBytes() {
    String out = print(DryRunReport.rate(10_000, 0));
    assertThat(out)
        .contains("pushes_est=3 estimated=0:03:21\n") // Login: 2,010,000 / 10,000 = 201 s
        .contains("at the cap 10000 B/s (--max-bytes-per-second)");
    assertThat(print(DryRunReport.rate(0, 5_000)))
        .contains("(sink.loki.egress.max_bytes_per_second)");
  }
}
