package io.sf2loki.bench;

import io.sf2loki.salesforce.elf.ElfStages;
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

/**
 * Stage 1: EventLogFile CSV bytes → rows, through the source's own reader (FastCSV, UTF-8 decoding
 * with replacement, header mapping). One operation = one row.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class CsvParseBench {
  /** Rows per invocation. */
  public static final int ROWS = 2000;

  @Param({"Login"})
  public String eventType;

  private byte[] csv;

  @Setup
  public void setup() {
    csv = BenchData.csv(eventType, ROWS);
  }

  @Benchmark
  @OperationsPerInvocation(ROWS)
  public long csvToRows() {
    return ElfStages.parseCount(csv);
  }
}
