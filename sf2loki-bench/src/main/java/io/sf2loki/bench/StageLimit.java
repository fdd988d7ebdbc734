package io.sf2loki.bench;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/**
 * The stable stage-sum limit of EndToEnd phase (c) (issue 12): the four ELF-path stages of {@link
 * Bench#ELF_PATH} measured by JMH with {@code forks} forked JVMs per stage, each with {@code
 * iterations} warm-up and {@code iterations} measured iterations of {@code seconds} s, and reported
 * with JMH's 99.9 % confidence half-width per stage. The sum's error is the root of the summed
 * squared half-widths (the stages run in separate JVMs, so their errors are independent).
 *
 * <p>Why forks: one JVM's JIT decisions (inlining, profile pollution by earlier phases) move a
 * stage by several times between runs; JMH's error across forks exposes that variance instead of
 * hiding it in one number. Defaults (3 forks × 5 × 1 s) take about 2 minutes.
 */
public final class StageLimit {
  /** One stage: mean ns/row and the 99.9 % confidence half-width (NaN with one sample). */
  public record Stat(double nsPerRow, double error) {}

  /**
   * The measured stages and their sum.
   *
   * @param stages benchmark (class.method) → stat, in ELF-path order
   * @param sum Σ ns/row
   * @param sumError √Σ error², ns/row
   * @param forks forks per stage
   * @param iterations measured iterations per fork
   */
  public record Limit(
      Map<String, Stat> stages, double sum, double sumError, int forks, int iterations) {
    /** rows/s on one core at {@link #sum()}. */
    public double rowsPerSecond() {
      return 1e9 / sum;
    }
  }

  private StageLimit() {}

  /**
   * Runs the ELF-path stages.
   *
   * @param forks forked JVMs per stage, ≥ 1
   * @param iterations warm-up and measured iterations per fork, ≥ 1
   * @param seconds length of one iteration, ≥ 1
   */
  public static Limit measure(int forks, int iterations, int seconds) throws RunnerException {
    StringBuilder include = new StringBuilder("io\\.sf2loki\\.bench\\.(");
    for (int i = 0; i < Bench.ELF_PATH.length; i++) {
      include.append(i == 0 ? "" : "|").append(Bench.ELF_PATH[i].replace(".", "\\."));
    }
    include.append(")$");
    Collection<RunResult> results =
        new Runner(
                new OptionsBuilder()
                    .include(include.toString())
                    .forks(forks)
                    .warmupIterations(iterations)
                    .warmupTime(TimeValue.seconds(seconds))
                    .measurementIterations(iterations)
                    .measurementTime(TimeValue.seconds(seconds))
                    .jvmArgsAppend(
                        "--enable-native-access=ALL-UNNAMED",
                        "--sun-misc-unsafe-memory-access=allow")
                    .verbosity(VerboseMode.SILENT)
                    .build())
            .run();
    Map<String, Stat> byName = new LinkedHashMap<>();
    for (RunResult r : results) {
      String label = r.getParams().getBenchmark();
      String shortName = label.substring(label.lastIndexOf('.', label.lastIndexOf('.') - 1) + 1);
      Result<?> p = r.getPrimaryResult();
      byName.put(shortName, new Stat(p.getScore(), p.getScoreError()));
    }
    Map<String, Stat> ordered = new LinkedHashMap<>();
    double sum = 0;
    double sq = 0;
    for (String s : Bench.ELF_PATH) {
      Stat st = byName.get(s);
      if (st == null) {
        throw new IllegalStateException("stage benchmark did not run: " + s);
      }
      ordered.put(s, st);
      sum += st.nsPerRow();
      sq += Double.isNaN(st.error()) ? 0 : st.error() * st.error();
    }
    return new Limit(ordered, sum, Math.sqrt(sq), forks, iterations);
  }

  /** Prints one line per stage and the sum, each with its error. */
  public static void print(Limit l) {
    l.stages()
        .forEach(
            (name, st) ->
                System.out.printf(
                    Locale.ROOT,
                    "E2E (c) stage %-26s %9.1f ± %.1f ns/row%n",
                    name,
                    st.nsPerRow(),
                    st.error()));
    System.out.printf(
        Locale.ROOT,
        "E2E (c) stage-sum limit: %.1f ± %.1f ns/row (99.9%% CI, %d forks x %d iterations per"
            + " stage) = %,.0f rows/s (one core)%n",
        l.sum(),
        l.sumError(),
        l.forks(),
        l.iterations(),
        l.rowsPerSecond());
  }
}
