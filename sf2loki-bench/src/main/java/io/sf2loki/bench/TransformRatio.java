package io.sf2loki.bench;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * Issue 15 / SPEC XF-15: what transforms add to an EventLogFile row. Runs {@link
 * TransformBench#elfRow} (CSV bytes → row → transforms → entry, one forked JVM) without rules and
 * with each three-rule set, then prints ns/row, rows/s and how much slower each rule set is than no
 * rules, against the 15 % target.
 *
 * <p>Usage: {@code java -cp ... io.sf2loki.bench.TransformRatio [--quick]}; {@code --quick} uses
 * 2×1 s warm-up and 3×1 s measurement instead of 3×2 s and 5×3 s. Compare on an idle machine: the
 * two cases run one after the other, so load changes between them skew the ratio.
 */
public final class TransformRatio {
  /** The issue 15 target: at most this much slower per row with three rules. */
  public static final double TARGET_PERCENT = 15.0;

  private TransformRatio() {}

  public static void main(String[] args) throws RunnerException {
    boolean quick = args.length > 0 && args[0].equals("--quick");
    Map<String, Double> ns = measure(quick, VerboseMode.NORMAL);
    System.out.println();
    print(ns);
  }

  /**
   * Runs {@code TransformBench.elfRow} for every {@code rules} value.
   *
   * @return rules value → mean ns per row
   */
  public static Map<String, Double> measure(boolean quick, VerboseMode verbosity)
      throws RunnerException {
    ChainedOptionsBuilder b =
        JmhRuns.options("io\\.sf2loki\\.bench\\.TransformBench\\.elfRow", quick, 3, verbosity);
    Map<String, Double> out = new LinkedHashMap<>();
    for (RunResult r : new Runner(b.build()).run()) {
      out.put(r.getParams().getParam("rules"), r.getPrimaryResult().getScore());
    }
    return out;
  }

  /** Prints one line per rule set: ns/row, rows/s and % slower than {@code none}. */
  public static void print(Map<String, Double> ns) {
    Double none = ns.get("none");
    System.out.printf(
        Locale.ROOT,
        "%-28s %10s %12s %10s%n",
        "TransformBench.elfRow rules",
        "ns/row",
        "rows/s",
        "slower");
    ns.forEach(
        (rules, v) -> {
          String slower =
              none == null || rules.equals("none")
                  ? "-"
                  : String.format(Locale.ROOT, "%+.1f %%", 100 * (v / none - 1));
          System.out.printf(Locale.ROOT, "%-28s %10.1f %,12.0f %10s%n", rules, v, 1e9 / v, slower);
        });
    System.out.printf(
        Locale.ROOT,
        "target (issue 15, XF-15): at most %+.0f %% with three rules%n",
        TARGET_PERCENT);
  }
}
