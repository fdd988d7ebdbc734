package io.sf2loki.bench;

import io.sf2loki.core.model.LogEntry;
import io.sf2loki.salesforce.elf.ElfStages;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Stage 2: parsed row → {@link LogEntry} through the source's {@code RowShaper}: canonical JSON
 * line (SRC-7), labels, structured metadata with level (SRC-9/10), timestamp (SRC-11/12), the
 * line's UTF-8 length and the rows-ingested counter. One operation = one row.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ShapeBench {
  @Param({"Login"})
  public String eventType;

  private List<Map<String, Object>> rows;
  private ElfStages.Shaper shaper;

  @Setup
  public void setup() {
    byte[] csv = BenchData.csv(eventType, CsvParseBench.ROWS);
    rows = ElfStages.parseAll(csv);
    shaper =
        new ElfStages.Shaper(
            eventType, ElfStages.header(csv), BenchData.METADATA_FIELDS, BenchData.metrics());
  }

  @Benchmark
  @OperationsPerInvocation(CsvParseBench.ROWS)
  public void rowToEntry(Blackhole bh) {
    for (int i = 0; i < rows.size(); i++) {
      bh.consume(shaper.shape(rows.get(i)));
    }
  }
}
