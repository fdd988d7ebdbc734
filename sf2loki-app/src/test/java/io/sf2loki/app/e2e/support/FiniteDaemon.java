package io.sf2loki.app.e2e.support;

import io.opentelemetry.sdk.metrics.export.MetricReader;
import io.sf2loki.app.config.ConfigLoader;
import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.app.run.Daemon;
import io.sf2loki.app.run.DaemonOptions;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.UnaryOperator;

/**
 * Runs the real in-process {@link Daemon} in finite mode ({@code DaemonOptions.finite}: the
 * EventLogFile source ends after its first cycle with nothing new) on a platform thread, bounded by
 * a wall-clock limit: a daemon that does not return in time is stopped and the test fails.
 */
public final class FiniteDaemon {
  /**
   * @param status the exit status {@code Daemon.run} returned
   * @param stderr what the daemon wrote to its error stream
   */
  public record Result(int status, String stderr) {}

  private FiniteDaemon() {}

  /**
   * Loads {@code configFile} (empty environment) and runs the daemon until it returns.
   *
   * @param reader extra metric reader, or null
   * @param sinkDecorator wraps the Loki sink
   * @param limit wall-clock bound on the run
   * @throws AssertionError when the daemon did not return within {@code limit}
   */
  public static Result run(
      Path configFile, MetricReader reader, UnaryOperator<Sink> sinkDecorator, Duration limit)
      throws InterruptedException {
    Sf2lokiConfig cfg = new ConfigLoader().load(configFile, Map.of());
    ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
    PrintStream err = new PrintStream(errBytes, true, StandardCharsets.UTF_8);
    Daemon daemon =
        new Daemon(cfg, new DaemonOptions(true, reader, sinkDecorator, TimeSource.system()), err);
    StopSignal stop = new StopSignal();
    FutureTask<Integer> task = new FutureTask<>(() -> daemon.run(stop));
    Thread thread = Thread.ofPlatform().name("e2e-finite-daemon").start(task);
    try {
      int status = task.get(limit.toMillis(), TimeUnit.MILLISECONDS);
      return new Result(status, errBytes.toString(StandardCharsets.UTF_8));
    } catch (TimeoutException e) {
      stop.stop();
      thread.join(Duration.ofSeconds(30));
      throw new AssertionError(
          "finite daemon did not return within "
              + limit
              + "; stderr: "
              + errBytes.toString(StandardCharsets.UTF_8));
    } catch (ExecutionException e) {
      throw new AssertionError("daemon crashed", e.getCause());
    }
  }

  /** As {@link #run(Path, MetricReader, UnaryOperator, Duration)} with the plain sink. */
  public static Result run(Path configFile, MetricReader reader, Duration limit)
      throws InterruptedException {
    return run(configFile, reader, UnaryOperator.identity(), limit);
  }
}
