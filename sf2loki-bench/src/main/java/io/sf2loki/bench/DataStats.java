package io.sf2loki.bench;

import io.sf2loki.core.model.LogEntry;
import java.util.List;
import java.util.Locale;

/** Prints the shape of the benchmark data: CSV bytes per row, line bytes per entry, columns. */
public final class DataStats {
  private DataStats() {}

  public static void main(String[] args) {
    int rows = 2000;
    for (String t : BenchData.EVENT_TYPES) {
      byte[] csv = BenchData.csv(t, rows);
      List<LogEntry> entries = BenchData.entries(t, rows, BenchData.metrics());
      long lineBytes = entries.stream().mapToLong(LogEntry::lineBytes).sum();
      System.out.printf(
          Locale.ROOT,
          "%-20s columns=%d csv=%.0f B/row line=%.0f B/entry metadata=%s%n",
          t,
          BenchData.generator(t, rows).header().size(),
          (double) csv.length / rows,
          (double) lineBytes / rows,
          entries.get(0).structuredMetadata());
    }
  }
}
