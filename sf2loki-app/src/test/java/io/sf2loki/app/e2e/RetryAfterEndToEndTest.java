package io.sf2loki.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.app.config.ConfigLoader;
import io.sf2loki.app.demo.DemoScenario;
import io.sf2loki.app.e2e.support.Await;
import io.sf2loki.app.e2e.support.ChildJvm;
import io.sf2loki.app.e2e.support.ConfigText;
import io.sf2loki.app.run.Daemon;
import io.sf2loki.app.run.DaemonOptions;
import io.sf2loki.app.testing.RetainingMetricReader;
import io.sf2loki.core.time.Sleeper;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.Ticker;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.sim.loki.LokiFault;
import io.sf2loki.sim.loki.LokiReceiver;
import io.sf2loki.sim.loki.RecordedRequest;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Issue 10 part 5 end to end: Loki answers 429 with {@code Retry-After} on every attempt for a
 * while, both lanes busy (Pub/Sub streaming + EventLogFile bulk); no request reaches the tenant
 * inside an announced window (SINK-9, SINK-17, PIPE-27), asserted from the receiver's request log.
 */
class RetryAfterEndToEndTest {
  /** Requests already on the wire when an answer announced a window may still arrive in it. */
  private static final Duration IN_FLIGHT = Duration.ofMillis(200);

  /** The demo configuration pushing to tenant {@code acme}, {@code extraLoki} in the loki block. */
  private static Path config(DemoScenario s, LokiReceiver loki, String extraLoki) throws Exception {
    Path cfg = s.writeConfig(loki.pushUrl(), s.dir().resolve("state/state.json"));
    return ConfigText.read(cfg)
        .insertAfter("    url: \"" + loki.pushUrl() + "\"", "    tenant_id: acme\n" + extraLoki)
        .writeTo(cfg);
  }

  /**
   * Requests of a tenant that arrived inside a window announced to it (after {@link #IN_FLIGHT}).
   */
  private static List<String> violations(List<RecordedRequest> log) {
    List<String> violations = new ArrayList<>();
    for (RecordedRequest a : log) {
      Instant until = a.retryAfterUntil();
      if (until == null) {
        continue;
      }
      for (RecordedRequest r : log) {
        if (r.tenant().equals(a.tenant())
            && r.arrived().isAfter(a.answered().plus(IN_FLIGHT))
            && r.arrived().isBefore(until)) {
          violations.add(r.arrived() + " inside [" + a.answered() + ", " + until + ")");
        }
      }
    }
    return violations;
  }

  @Test
  @DisplayName(
      "SINK-17, PIPE-27: 429 Retry-After on every attempt, both lanes busy: no request to the"
          + " tenant inside an announced window; everything lands afterwards")
  void noRequestInsideAnnouncedWindow() throws Exception {
    Instant now = Instant.now();
    try (DemoScenario s = DemoScenario.start(150, false, false, now);
        LokiReceiver loki = LokiReceiver.start()) {
      s.addPubSubStreams(300);
      Path cfg = config(s, loki, "");
      loki.faults().add(LokiFault.tooManyRequests(Duration.ofSeconds(2)).times(8));
      long expected = s.expectedRows();
      RetainingMetricReader reader = new RetainingMetricReader();
      TimeSource real = new TimeSource(InstantSource.system(), Ticker.system(), Sleeper.system());
      Daemon daemon =
          new Daemon(
              new ConfigLoader().load(cfg, Map.of()),
              new DaemonOptions(false, reader, sink -> sink, real),
              new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
      StopSignal stop = new StopSignal();
      FutureTask<Integer> task = new FutureTask<>(() -> daemon.run(stop));
      Thread t = Thread.ofPlatform().name("e2e-retry-after-daemon").start(task);
      try {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (loki.totalEntries() < expected) {
          assertThat(System.nanoTime()).as("every row lands").isLessThan(deadline);
          assertThat(task.isDone()).as("daemon still running").isFalse();
          TimeUnit.MILLISECONDS.sleep(50); // loopback network e2e: poll the receiver
        }
      } finally {
        stop.stop();
        t.join(Duration.ofSeconds(30));
      }
      assertThat(task.get(1, TimeUnit.SECONDS)).isZero();

      List<RecordedRequest> log = loki.requests();
      List<String> violations = violations(log);
      long announced = log.stream().filter(r -> r.retryAfterUntil() != null).count();
      System.out.printf(
          "retry-after e2e: requests=%d announced=%d waits in_sink=%d tenant_gate=%d"
              + " batch_retry=%d%n",
          log.size(),
          announced,
          reader.counterTotal("sf2loki_loki_retry_after_waits", "layer", "in_sink"),
          reader.counterTotal("sf2loki_loki_retry_after_waits", "layer", "tenant_gate"),
          reader.counterTotal("sf2loki_loki_retry_after_waits", "layer", "batch_retry"));
      assertThat(announced).isEqualTo(8L);
      assertThat(log).allSatisfy(r -> assertThat(r.tenant()).isEqualTo("acme"));
      assertThat(violations).isEmpty();
      assertThat(loki.totalEntries()).isEqualTo(expected);
      assertThat(reader.counterTotal("sf2loki_loki_retry_after_waits")).isPositive();
    }
  }

  @Test
  @DisplayName(
      "SINK-17, PIPE-1: kill -9 while 429 Retry-After windows are announced (both lanes busy),"
          + " restart on the same state with Loki healthy: every row stored, re-sends bounded by"
          + " what the killed process had stored, no request inside a window it announced")
  void killDuringRetryAfterWindows() throws Exception {
    Instant now = Instant.now();
    try (DemoScenario s = DemoScenario.start(150, false, false, now);
        LokiReceiver loki = LokiReceiver.start()) {
      s.addPubSubStreams(300);
      Path cfg =
          config(
              s,
              loki,
              "    egress:\n      max_lines_per_second: 100\n    batch:\n      max_entries: 20\n");
      long expected = s.expectedRows();
      Path work = s.dir();
      long storedBeforeKill;
      long receivedBeforeKill;
      List<RecordedRequest> firstLog;
      try (ChildJvm first = ChildJvm.start(work, "run", "--config", cfg.toString())) {
        BooleanSupplier alive = Await.alive(first);
        Await.until(
            "part of the rows land",
            Duration.ofSeconds(90),
            () -> alive.getAsBoolean() && loki.totalEntries() >= 100);
        loki.faults().add(LokiFault.tooManyRequests(Duration.ofSeconds(2)).untilCleared());
        Await.until(
            "three windows announced",
            Duration.ofSeconds(60),
            () ->
                alive.getAsBoolean()
                    && loki.requests().stream().filter(r -> r.retryAfterUntil() != null).count()
                        >= 3);
        first.process().destroyForcibly(); // SIGKILL inside a window: no shutdown, no commit
        assertThat(first.process().waitFor(10, TimeUnit.SECONDS)).isTrue();
        storedBeforeKill = loki.totalEntries();
        receivedBeforeKill = loki.receivedEntries();
        firstLog = loki.requests();
      }
      assertThat(storedBeforeKill).isLessThan(expected); // killed mid-way
      loki.faults().clear();
      try (ChildJvm second = ChildJvm.start(work, "run", "--config", cfg.toString())) {
        BooleanSupplier alive = Await.alive(second);
        Await.until(
            "the restart ships the rest",
            Duration.ofSeconds(120),
            () -> alive.getAsBoolean() && loki.totalEntries() >= expected);
        second.process().destroy();
        assertThat(second.waitFor(Duration.ofSeconds(30))).isZero();
      }
      long resent = loki.receivedEntries() - receivedBeforeKill - (expected - storedBeforeKill);
      long announced = firstLog.stream().filter(r -> r.retryAfterUntil() != null).count();
      System.out.printf(
          "retry-after kill e2e: rows=%d stored_before_kill=%d announced=%d received=%d"
              + " resent_after_restart=%d dups=%d%n",
          expected,
          storedBeforeKill,
          announced,
          loki.receivedEntries(),
          resent,
          loki.duplicatesDropped());
      // nothing lost, each row stored once (exact re-sends collapse as Loki does)
      assertThat(loki.totalEntries()).isEqualTo(expected);
      // at-least-once from the checkpoints: the restart re-sends at most what the killed process
      // had stored without committing it (its 429-refused pushes were never stored)
      assertThat(resent).isBetween(0L, storedBeforeKill);
      assertThat(loki.duplicatesDropped()).isLessThanOrEqualTo(storedBeforeKill);
      // the killed process kept its windows; the restart does not know them (the gate is in
      // memory) and Loki was healthy again, so only the first process's log is checked
      assertThat(violations(firstLog)).isEmpty();
    }
  }
}
