package io.sf2loki.app.demo;

import io.sf2loki.app.cli.DemoOptions;
import io.sf2loki.app.config.ConfigLoader;
import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.app.logging.LogSetup;
import io.sf2loki.app.run.Daemon;
import io.sf2loki.app.run.DaemonOptions;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.sim.loki.LokiReceiver;
import io.sf2loki.sim.loki.ReceivedEntry;
import io.sf2loki.state.file.FileCheckpointStore;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

/**
 * {@code sf2loki demo} (SPEC FEAT-17): starts the simulated org and (unless {@code --loki-url}) the
 * built-in Loki receiver on loopback ports, runs the real daemon — configuration loader, OAuth JWT
 * bearer, SOQL listing, LogFile download, CSV parsing, pipeline, protobuf+snappy push, file
 * checkpoints — with a temporary state directory, shows progress, prints what landed, and exits 0
 * once every generated row was delivered.
 */
public final class DemoRunner {
  /** Rows per generated file when {@code --rate} is not given. */
  static final int DEFAULT_ROWS_PER_FILE = 2000;

  private final PrintStream out;
  private final PrintStream err;

  public DemoRunner(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  /**
   * Runs the demo.
   *
   * @param options {@code --duration} bounds the run; {@code --rate N} sets the rows of each
   *     generated EventLogFile; {@code --loki-url} pushes to a real Loki
   * @return 0 when delivered == generated, 1 otherwise (timeout, failure)
   */
  public int run(DemoOptions options) {
    return run(options, new StopSignal());
  }

  /**
   * Runs the demo until every row was delivered, {@code --duration} passed, or {@code stop} fired
   * (SIGTERM/SIGINT: the demo stops, cleans its temporary directory and reports).
   */
  public int run(DemoOptions options, StopSignal stop) {
    long rowsPerFile = options.rate().orElse(DEFAULT_ROWS_PER_FILE);
    boolean builtIn = options.lokiUrl().isEmpty();
    LogSetup.configure("warning", "logfmt");
    try (DemoScenario scenario = DemoScenario.start(rowsPerFile, builtIn, builtIn, Instant.now())) {
      scenario.addLoginHistoryFeed(
          (int) Math.min(1000, Math.max(1, rowsPerFile / 4)), Instant.now());
      scenario.addPubSubStreams((int) Math.min(2000, Math.max(1, rowsPerFile / 2)));
      String pushUrl =
          options.lokiUrl().map(Object::toString).orElseGet(() -> scenario.receiver().pushUrl());
      Path state = scenario.dir().resolve("state/state.json");
      Path cfgFile = scenario.writeConfig(pushUrl, state);
      Sf2lokiConfig cfg = new ConfigLoader().load(cfgFile, Map.of());
      out.printf(
          "sf2loki demo: simulated org %s, %d EventLogFiles of %s, a LoginHistory feed and"
              + " Pub/Sub streams %s (%d entries in all), pushing to %s%n",
          scenario.org().instanceUrl(),
          scenario.fileIds().size(),
          String.join(", ", scenario.eventTypes()),
          scenario.expectedPerTopic(),
          scenario.expectedRows(),
          pushUrl);

      AtomicReference<CountingSink> counter = new AtomicReference<>();
      DaemonOptions dopts =
          new DaemonOptions(
              true,
              null,
              sink -> {
                CountingSink c = new CountingSink(sink);
                counter.set(c);
                return c;
              },
              TimeSource.system());
      Daemon daemon = new Daemon(cfg, dopts, err);
      AtomicInteger status = new AtomicInteger(-1);
      CountDownLatch done = new CountDownLatch(1);
      Thread runner =
          Thread.ofPlatform()
              .name("sf2loki-demo-daemon")
              .start(
                  () -> {
                    status.set(daemon.run(stop));
                    done.countDown();
                  });
      long started = System.nanoTime();
      long deadline = started + options.duration().toNanos();
      awaitDaemon(done, counter, scenario.expectedRows(), deadline, stop);
      runner.join();
      Duration took = Duration.ofNanos(System.nanoTime() - started);
      CountingSink c = counter.get();
      long delivered = c == null ? 0 : c.delivered();
      report(scenario, state, delivered, c == null ? 0 : c.dropped(), took);
      boolean ok = status.get() == 0 && delivered == scenario.expectedRows();
      out.printf(
          "%s: delivered %d of %d generated entries in %.1f s (daemon exit %d)%n",
          ok ? "OK" : "FAILED",
          delivered,
          scenario.expectedRows(),
          took.toMillis() / 1000.0,
          status.get());
      return ok ? 0 : 1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 1;
    } catch (Exception e) {
      err.println("sf2loki: demo failed: " + e);
      return 1;
    }
  }

  /**
   * Waits for the daemon thread to end, printing progress each second; fires {@code stop} once
   * {@code expected} entries were delivered (the Pub/Sub source streams until stopped) or at {@code
   * deadline} ({@link System#nanoTime()} units).
   */
  private void awaitDaemon(
      CountDownLatch done,
      AtomicReference<CountingSink> counter,
      long expected,
      long deadline,
      StopSignal stop)
      throws InterruptedException {
    long nextProgress = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
    while (!done.await(100, TimeUnit.MILLISECONDS)) {
      CountingSink c = counter.get();
      long delivered = c == null ? 0 : c.delivered();
      if (delivered >= expected && !stop.isStopped()) {
        stop.stop();
      }
      if (System.nanoTime() >= nextProgress) {
        nextProgress += TimeUnit.SECONDS.toNanos(1);
        out.printf("  … %d / %d entries delivered%n", delivered, expected);
      }
      if (System.nanoTime() > deadline && !stop.isStopped()) {
        out.println("  demo duration reached; stopping");
        stop.stop();
      }
    }
  }

  private void report(
      DemoScenario scenario, Path state, long delivered, long dropped, Duration took) {
    LokiReceiver receiver = scenario.receiver();
    if (receiver != null) {
      List<ReceivedEntry> entries = receiver.entries();
      Map<String, Long> perStream =
          entries.stream()
              .collect(
                  Collectors.groupingBy(
                      e -> new TreeMap<>(e.labels()).toString(),
                      TreeMap::new,
                      Collectors.counting()));
      out.println();
      out.printf(
          "streams in the receiver (%d entries, %d requests):%n",
          entries.size(), receiver.requestCount());
      perStream.forEach((labels, n) -> out.printf("  %6d  %s%n", n, labels));
      Map<String, Long> perType =
          entries.stream()
              .collect(
                  Collectors.groupingBy(
                      e -> e.labels().get("source") + "/" + e.labels().get("event_type"),
                      TreeMap::new,
                      Collectors.counting()));
      out.println("entries per source/event_type:");
      perType.forEach((k, n) -> out.printf("  %6d  %s%n", n, k));
      out.println("sample lines:");
      entries.stream()
          .collect(
              Collectors.toMap(
                  e -> e.labels().get("event_type"), e -> e, (a, b) -> a, TreeMap::new))
          .values()
          .forEach(
              e ->
                  out.printf(
                      "  %s %s %s%n",
                      e.timestamp(),
                      e.structuredMetadata(),
                      e.line().length() > 160 ? e.line().substring(0, 160) + "…" : e.line()));
    }
    if (dropped > 0) {
      out.printf("dropped by Loki: %d entries%n", dropped);
    }
    try (FileCheckpointStore store =
        new FileCheckpointStore(state, FileCheckpointStore.LockMode.NONE)) {
      out.println("committed checkpoints:");
      store
          .snapshot()
          .forEach(
              (k, v) ->
                  out.printf("  %s\t%s%n", k, v.length() > 120 ? v.substring(0, 120) + "…" : v));
    } catch (RuntimeException e) {
      out.println("committed checkpoints: unreadable (" + e.getMessage() + ")");
    }
  }
}
