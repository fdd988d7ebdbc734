package io.sf2loki.bench;

import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/** The JMH options the bench mains share: one fork with the JDK flags, quick or full iterations. */
final class JmhRuns {
  private JmhRuns() {}

  /**
   * @param include the benchmark regex
   * @param quick 2×1 s warm-up and 3×1 s measurement; otherwise 3×2 s warm-up and 5 × {@code
   *     measureSeconds}
   * @param measureSeconds seconds per measured iteration of a full run
   */
  static ChainedOptionsBuilder options(
      String include, boolean quick, int measureSeconds, VerboseMode verbosity) {
    ChainedOptionsBuilder b =
        new OptionsBuilder()
            .include(include)
            .forks(1)
            .jvmArgsAppend(
                "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow")
            .verbosity(verbosity);
    if (quick) {
      return b.warmupIterations(2)
          .warmupTime(TimeValue.seconds(1))
          .measurementIterations(3)
          .measurementTime(TimeValue.seconds(1));
    }
    return b.warmupIterations(3)
        .warmupTime(TimeValue.seconds(2))
        .measurementIterations(5)
        .measurementTime(TimeValue.seconds(measureSeconds));
  }
}
