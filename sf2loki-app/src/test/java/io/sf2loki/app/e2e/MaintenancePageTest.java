package io.sf2loki.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.sf2loki.app.config.ConfigLoader;
import io.sf2loki.app.e2e.support.ChildJvm;
import io.sf2loki.app.e2e.support.RunningDaemon;
import io.sf2loki.app.e2e.support.SalesforceScenario;
import io.sf2loki.app.run.Daemon;
import io.sf2loki.app.run.DaemonOptions;
import io.sf2loki.app.testing.RetainingMetricReader;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.salesforce.apexlog.ApexLogCursor;
import io.sf2loki.salesforce.apexlog.ApexLogSource;
import io.sf2loki.sim.elf.GeneratedLogFile;
import io.sf2loki.sim.loki.ReceivedEntry;
import io.sf2loki.sim.org.Fault;
import io.sf2loki.sim.org.SimApexLog;
import io.sf2loki.sim.org.SimEndpoint;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Issue 10 part 4 end to end: the org (or a proxy in front of it) answers {@code 200 text/html}
 * maintenance pages on EventLogFile downloads, ApexLog bodies and SOQL for a while. In the default
 * suite "a while" is a number of requests (more than APX-6's three-poll skip threshold), not two
 * minutes of wall time; the sim's clock-window form of the same fault is covered by {@code
 * SimOrgRealErrorsTest}, and {@link #twoMinuteMaintenance()} (tag {@code large}, {@code -Plarge})
 * runs the real two-minute window with real poll intervals.
 */
class MaintenancePageTest {
  private static final List<String> TYPES = List.of("Login", "API");
  private static final int FAULTED_REQUESTS = 6;

  private record Data(Map<String, Long> rowsPerType, List<String> fileIds, List<SimApexLog> logs) {
    long elfRows() {
      return rowsPerType.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  /** Two Hourly files per type (1–3 h old) and {@code logs} ApexLogs of the last ten minutes. */
  private static Data addData(SalesforceScenario s, long rows, int logs) {
    Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS);
    Map<String, Long> perType = new HashMap<>();
    List<String> ids = new ArrayList<>();
    long seed = 11;
    for (String type : TYPES) {
      for (int h = 3; h >= 2; h--) {
        Instant logDate = hour.minus(Duration.ofHours(h));
        GeneratedLogFile f =
            s.org()
                .addGeneratedLogFile(
                    type, "Hourly", logDate, logDate.plus(Duration.ofMinutes(70)), rows, seed++);
        perType.merge(type, f.rowCount(), Long::sum);
        ids.add(f.id());
      }
    }
    List<SimApexLog> apex =
        s.org()
            .apexLogs()
            .generate(
                logs,
                Instant.now().minusSeconds(600),
                Duration.ofSeconds(1),
                List.of("integration@example.com"),
                3);
    return new Data(perType, ids, apex);
  }

  private static String sources(String pollInterval) {
    return "  eventlogfile:\n"
        + "    enabled: true\n"
        + "    interval: Hourly\n"
        + pollInterval
        + "    event_types:\n"
        + "      - Login\n"
        + "      - API\n"
        + "  apexlog:\n"
        + "    enabled: true\n"
        + pollInterval;
  }

  private static long counter(RetainingMetricReader reader, String name, String reason) {
    long sum = 0;
    for (MetricData m : reader.collectAllMetrics()) {
      if (m.getName().equals(name)) {
        for (var p : m.getLongSumData().getPoints()) {
          String r = p.getAttributes().get(AttributeKey.stringKey("reason"));
          if (reason == null || reason.equals(r)) {
            sum += p.getValue();
          }
        }
      }
    }
    return sum;
  }

  private static void assertNothingFromThePage(SalesforceScenario s) {
    for (ReceivedEntry e : s.receiver().entries()) {
      assertThat(e.line()).doesNotContain("<!DOCTYPE").doesNotContain("maintenance");
    }
  }

  /** Every ApexLog once with its real body, every ELF row once. */
  private static void assertEverythingLanded(SalesforceScenario s, Data d) {
    for (String type : TYPES) {
      assertThat(s.receiver().entries(Map.of("source", "eventlogfile", "event_type", type)))
          .as(type)
          .hasSize(d.rowsPerType().get(type).intValue());
    }
    List<ReceivedEntry> apex = s.receiver().entries(Map.of("source", "apexlog"));
    assertThat(apex).hasSize(d.logs().size());
    for (SimApexLog log : d.logs()) {
      assertThat(apex)
          .filteredOn(e -> log.id().equals(e.structuredMetadata().get("Id")))
          .singleElement()
          .satisfies(
              e -> {
                assertThat(e.line()).isEqualTo(new String(log.body(), StandardCharsets.UTF_8));
                assertThat(e.structuredMetadata()).doesNotContainKey("body_skipped");
              });
    }
  }

  @Test
  @DisplayName(
      "SRC-28, SRC-29, APX-6, ELF-12: 200 text/html maintenance pages on ApexLog bodies,"
          + " EventLogFile downloads and SOQL: nothing shipped from them, no body skipped, the real"
          + " bodies land afterwards, every page counted")
  void pagesAreNeverShipped() throws Exception {
    try (SalesforceScenario s = SalesforceScenario.start(b -> {})) {
      Data d = addData(s, 60, 12);
      s.org().faults().add(SimEndpoint.LOGFILE, Fault.maintenancePage().times(FAULTED_REQUESTS));
      s.org().faults().add(SimEndpoint.QUERY, Fault.maintenancePage().times(3));
      s.org().apexLogs().failBodies(Fault.maintenancePage().times(FAULTED_REQUESTS));
      s.org().apexLogs().failListing(Fault.maintenancePage().times(2));
      RetainingMetricReader reader = new RetainingMetricReader();

      try (RunningDaemon daemon = RunningDaemon.start(s.writeConfig(sources(""), ""), reader)) {
        await("every real body lands")
            .atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(20))
            .until(
                () ->
                    s.receiver().totalEntries() >= d.elfRows() + d.logs().size()
                        || !daemon.isRunning());
        assertThat(daemon.stop()).as(daemon.stderr()).isZero();
      }

      assertNothingFromThePage(s);
      assertEverythingLanded(s, d);
      assertThat(s.receiver().duplicatesDropped()).isZero();
      assertThat(counter(reader, "sf2loki_eventlogfile_download_errors", "invalid_body"))
          .isEqualTo(FAULTED_REQUESTS);
      assertThat(counter(reader, "sf2loki_apexlog_download_errors", "invalid_body"))
          .isEqualTo(FAULTED_REQUESTS);
      assertThat(counter(reader, "sf2loki_salesforce_malformed_responses", null)).isEqualTo(5);
      assertThat(counter(reader, "sf2loki_apexlog_bodies_skipped", null)).isZero();
      assertThat(counter(reader, "sf2loki_eventlogfile_files_abandoned", null)).isZero();
    }
  }

  @Test
  @DisplayName(
      "SRC-28, APX-3, ELF-10, PIPE-9: SIGKILL while one EventLogFile and one ApexLog answer"
          + " maintenance pages, then a restart after the maintenance: nothing shipped from a page,"
          + " no checkpoint past the faulted file or log, nothing lost")
  void sigkillDuringMaintenanceLosesNothing() throws Exception {
    try (SalesforceScenario s = SalesforceScenario.start(b -> {})) {
      Data d = addData(s, 300, 30);
      String faultedFile = d.fileIds().get(1); // the second Login file
      SimApexLog faultedLog = d.logs().get(10);
      s.org().faults().failDownload(faultedFile, Fault.maintenancePage().untilCleared());
      s.org().apexLogs().failBody(faultedLog.id(), Fault.maintenancePage().untilCleared());
      Path cfg = s.writeConfig(sources("    poll_interval: 1s\n"), "");

      try (ChildJvm first = ChildJvm.start(s.dir(), "run", "--config", cfg.toString())) {
        await("everything before the faulted file and log is shipped and committed")
            .atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(20))
            .until(
                () -> {
                  if (!first.process().isAlive()) {
                    throw new AssertionError("child exited: " + first.stderr());
                  }
                  Map<String, String> cp = s.checkpoints();
                  return s.org().apexLogs().bodyCalls(faultedLog.id()) >= 2
                      && s.org().callCount(SimEndpoint.LOGFILE) >= 5
                      && cp.containsKey(ApexLogSource.KEY)
                      && cp.containsKey("eventlogfile:API")
                      && cp.get("eventlogfile:API").contains(d.fileIds().get(3));
                });
        first.process().destroyForcibly(); // SIGKILL during the maintenance
        assertThat(first.process().waitFor(10, TimeUnit.SECONDS)).isTrue();
      }
      assertNothingFromThePage(s);
      Map<String, String> cp = s.checkpoints();
      assertThat(cp.getOrDefault("eventlogfile:Login", "")).doesNotContain(faultedFile);
      ApexLogCursor apex = ApexLogCursor.load(cp.get(ApexLogSource.KEY), "x").cursor();
      assertThat(apex.ids()).doesNotContain(faultedLog.id());
      assertThat(apex.ids()).contains(d.logs().get(9).id());
      assertThat(s.receiver().entries(Map.of("source", "apexlog"))).hasSize(10);

      s.org().faults().clear(); // the maintenance is over
      s.org().apexLogs().clearBodyFaults();
      try (ChildJvm second = ChildJvm.start(s.dir(), "run", "--config", cfg.toString())) {
        await("the restart ships the faulted file, the faulted log and everything after them")
            .atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(20))
            .until(
                () -> {
                  if (!second.process().isAlive()) {
                    throw new AssertionError("child exited: " + second.stderr());
                  }
                  return s.receiver().totalEntries() >= d.elfRows() + d.logs().size();
                });
        second.process().destroy();
        assertThat(second.waitFor(Duration.ofSeconds(30))).isZero();
      }
      assertNothingFromThePage(s);
      assertEverythingLanded(s, d);
    }
  }

  @Test
  @Tag("large")
  @DisplayName(
      "SRC-28, APX-6, ELF-12: a real two-minute maintenance window (org clock) on ApexLog bodies"
          + " and EventLogFile downloads with 10 s polls: nothing shipped from it, no body"
          + " skipped, everything lands afterwards")
  void twoMinuteMaintenance() throws Exception {
    try (SalesforceScenario s = SalesforceScenario.start(b -> {})) {
      Data d = addData(s, 60, 12);
      Instant end = Instant.now().plus(Duration.ofMinutes(2));
      s.org().faults().add(SimEndpoint.LOGFILE, Fault.maintenancePage().untilCleared().until(end));
      s.org().apexLogs().failBodies(Fault.maintenancePage().untilCleared().until(end));
      Path cfg = s.writeConfig(sources("    poll_interval: 10s\n"), "");
      RetainingMetricReader reader = new RetainingMetricReader();
      var daemon =
          new Daemon(
              new ConfigLoader().load(cfg, Map.of()),
              new DaemonOptions(false, reader, UnaryOperator.identity(), TimeSource.system()),
              new PrintStream(OutputStream.nullOutputStream()));
      var stop = new StopSignal();
      var task = new FutureTask<>(() -> daemon.run(stop));
      Thread t = Thread.ofPlatform().name("e2e-maintenance-daemon").start(task);
      try {
        await("everything lands after the window")
            .atMost(Duration.ofMinutes(4))
            .pollInterval(Duration.ofMillis(200))
            .until(() -> s.receiver().totalEntries() >= d.elfRows() + d.logs().size());
        assertThat(Instant.now()).isAfterOrEqualTo(end);
      } finally {
        stop.stop();
        assertThat(task.get(30, TimeUnit.SECONDS)).isZero();
        t.join();
      }
      assertNothingFromThePage(s);
      assertEverythingLanded(s, d);
      assertThat(counter(reader, "sf2loki_apexlog_download_errors", "invalid_body"))
          .isGreaterThanOrEqualTo(ApexLogSource.FAILING_CYCLES_BEFORE_SKIP + 1);
      assertThat(counter(reader, "sf2loki_eventlogfile_download_errors", "invalid_body"))
          .isGreaterThanOrEqualTo(2);
      assertThat(counter(reader, "sf2loki_apexlog_bodies_skipped", null)).isZero();
    }
  }
}
