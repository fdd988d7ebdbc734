package io.sf2loki.bench;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Runs the JMH stage benchmarks ({@link CsvParseBench}, {@link ShapeBench}, {@link EncodeBench}) in
 * one forked JVM each and prints ns/row and rows/s per stage, plus the stage-sum limit of the
 * default ELF path (CSV → entry → protobuf → snappy): {@code 1e9 / Σ ns/row} rows/s on one core.
 *
 * <p>Usage: {@code java -cp ... io.sf2loki.bench.Bench [--quick]}; {@code --quick} uses 2×1 s
 * warm-up and 3×1 s measurement instead of 3×2 s and 5×2 s.
 */
public final class Bench {
  /** Stage names of the default ELF path whose costs add up to the in-run limit. */
  public static final String[] ELF_PATH = {
    "CsvParseBench.csvToRows",
    "ShapeBench.rowToEntry",
    "EncodeBench.protobuf",
    "EncodeBench.snappyJava"
  };

  private Bench() {}

  public static void main(String[] args) throws RunnerException {
    boolean quick = args.length > 0 && args[0].equals("--quick");
    Map<String, Double> costs = measure(quick, VerboseMode.NORMAL);
    System.out.println();
    print(costs);
  }

  /**
   * Runs every stage benchmark.
   *
   * @param quick shorter warm-up and measurement
   * @return benchmark name (class.method) → mean ns per row (per entry for the encoders)
   */
  public static Map<String, Double> measure(boolean quick, VerboseMode verbosity)
      throws RunnerException {
    ChainedOptionsBuilder b =
        JmhRuns.options(
            "io\\.sf2loki\\.bench\\.(CsvParseBench|ShapeBench|EncodeBench)\\..*",
            quick,
            2,
            verbosity);
    Collection<RunResult> results = new Runner(b.build()).run();
    Map<String, Double> out = new LinkedHashMap<>();
    for (RunResult r : results) {
      String label = r.getParams().getBenchmark();
      String shortName = label.substring(label.lastIndexOf('.', label.lastIndexOf('.') - 1) + 1);
      out.put(shortName, r.getPrimaryResult().getScore());
    }
    return out;
  }

  /** Sum of the ELF path's stage costs in ns/row (NaN when a stage is missing). */
  public static double elfPathSum(Map<String, Double> costs) {
    double sum = 0;
    for (String s : ELF_PATH) {
      Double v = costs.get(s);
      if (v == null) {
        return Double.NaN;
      }
      sum += v;
    }
    return sum;
  }

  /** Prints the stage table and the stage-sum limit. */
  public static void print(Map<String, Double> costs) {
    System.out.printf(Locale.ROOT, "%-34s %12s %14s%n", "stage", "ns/row", "rows/s");
    costs.forEach(
        (name, ns) -> System.out.printf(Locale.ROOT, "%-34s %12.1f %,14.0f%n", name, ns, 1e9 / ns));
    double sum = elfPathSum(costs);
    System.out.printf(
        Locale.ROOT,
        "%-34s %12.1f %,14.0f%n",
        "ELF path sum (csv+shape+pb+snappy)",
        sum,
        1e9 / sum);
  }
}
