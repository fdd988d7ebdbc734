package io.sf2loki.app.e2e.support;

import io.opentelemetry.sdk.metrics.export.MetricReader;
import io.sf2loki.app.config.ConfigLoader;
import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.app.run.Daemon;
import io.sf2loki.app.run.DaemonOptions;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.Ticker;
import io.sf2loki.core.time.TimeSource;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.InstantSource;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.UnaryOperator;

/**
 * The real in-process {@link Daemon} running endlessly (a Pub/Sub source never ends on its own) on
 * a platform thread with real clocks and every sleep (backoff, flush waits) cut to at most 2 ms;
 * {@link #stop()} fires the process stop signal and joins it.
 */
public final class RunningDaemon implements AutoCloseable {
  /** Real wall clock and ticker; every wait lasts at most 2 ms. */
  public static final TimeSource FAST =
      new TimeSource(
          InstantSource.system(),
          Ticker.system(),
          (d, stop) -> !stop.await(Duration.ofMillis(Math.min(2, Math.max(0, d.toMillis())))));

  private final Daemon daemon;
  private final StopSignal stopSignal = new StopSignal();
  private final FutureTask<Integer> task;
  private final Thread thread;
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private RunningDaemon(
      Sf2lokiConfig cfg, MetricReader reader, UnaryOperator<Sink> decorator, TimeSource time) {
    this.daemon =
        new Daemon(
            cfg,
            new DaemonOptions(false, reader, decorator, time),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    this.task = new FutureTask<>(() -> daemon.run(stopSignal));
    this.thread = Thread.ofPlatform().name("e2e-pubsub-daemon").start(task);
  }

  /** Loads {@code configFile} (empty environment) and starts the daemon. */
  public static RunningDaemon start(
      Path configFile, MetricReader reader, UnaryOperator<Sink> decorator) {
    Sf2lokiConfig cfg = new ConfigLoader().load(configFile, Map.of());
    return new RunningDaemon(cfg, reader, decorator, FAST);
  }

  /** Loads {@code configFile} and starts the daemon on {@code time} (e.g. real sleeps). */
  public static RunningDaemon start(Path configFile, MetricReader reader, TimeSource time) {
    Sf2lokiConfig cfg = new ConfigLoader().load(configFile, Map.of());
    return new RunningDaemon(cfg, reader, UnaryOperator.identity(), time);
  }

  /** As {@link #start(Path, MetricReader, UnaryOperator)} with the plain sink. */
  public static RunningDaemon start(Path configFile, MetricReader reader) {
    return start(configFile, reader, UnaryOperator.identity());
  }

  public Daemon daemon() {
    return daemon;
  }

  /** The process stop signal (a sink decorator may fire it). */
  public StopSignal stopSignal() {
    return stopSignal;
  }

  /** What the daemon wrote to its error stream so far. */
  public String stderr() {
    return err.toString(StandardCharsets.UTF_8);
  }

  /** True while {@code Daemon.run} has not returned. */
  public boolean isRunning() {
    return !task.isDone();
  }

  /**
   * Fires the stop signal and waits for {@code Daemon.run} to return.
   *
   * @return its exit status
   * @throws AssertionError when it does not return within 20 s or crashed
   */
  public int stop() throws InterruptedException {
    stopSignal.stop();
    return awaitExit(Duration.ofSeconds(20));
  }

  /** Waits for {@code Daemon.run} to return (after a stop fired by someone). */
  public int awaitExit(Duration limit) throws InterruptedException {
    try {
      return task.get(limit.toMillis(), TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError("daemon did not stop within " + limit + "; stderr: " + stderr());
    } catch (ExecutionException e) {
      throw new AssertionError("daemon crashed; stderr: " + stderr(), e.getCause());
    }
  }

  @Override
  public void close() throws InterruptedException {
    if (isRunning()) {
      stopSignal.stop();
      thread.join(Duration.ofSeconds(20));
    }
  }
}
