package io.sf2loki.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.sf2loki.app.e2e.support.ChildJvm;
import io.sf2loki.app.e2e.support.FiniteDaemon;
import io.sf2loki.app.e2e.support.LogCapture;
import io.sf2loki.app.e2e.support.SalesforceScenario;
import io.sf2loki.app.testing.RetainingMetricReader;
import io.sf2loki.salesforce.elf.EventLogFileSource;
import io.sf2loki.sim.elf.GeneratedLogFile;
import io.sf2loki.sim.org.SoqlErrorEcho;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Issue 10 part 1 end to end: an org without hourly Event Monitoring answers every query naming
 * {@code Interval}/{@code Sequence} with 400 INVALID_FIELD in Salesforce's real format, echoing the
 * whole query (the 547-byte form whose {@code errorCode} lies beyond the 500-character excerpt).
 */
class NoIntervalOrgTest {
  private static final List<String> TYPES = List.of("Login", "API", "URI");
  private static final String SWITCH_WARN =
      "EventLogFile has no Interval/Sequence fields for this user; listing daily files without"
          + " them from now on";

  private static SalesforceScenario scenario() throws Exception {
    return SalesforceScenario.start(
        b -> b.hourlyAvailable(false).invalidFieldEcho(SoqlErrorEcho.FULL_QUERY));
  }

  /** Two Daily files per type, created within the last two days; expected rows per type. */
  private static Map<String, Long> addDailyFiles(SalesforceScenario s, long rows) {
    Instant now = Instant.now();
    Instant today = now.truncatedTo(ChronoUnit.DAYS);
    Map<String, Long> expected = new HashMap<>();
    long seed = 7;
    for (String type : TYPES) {
      for (int d = 2; d >= 1; d--) {
        Instant logDate = today.minus(Duration.ofDays(d));
        Instant created = now.minus(Duration.ofHours(6L * d + 1)).truncatedTo(ChronoUnit.SECONDS);
        GeneratedLogFile f =
            s.org().addGeneratedLogFile(type, "Daily", logDate, created, rows, seed++);
        expected.merge(type, f.rowCount(), Long::sum);
      }
    }
    return expected;
  }

  private static String elfYaml(String extra) {
    return "  eventlogfile:\n"
        + "    enabled: true\n"
        + "    interval: Daily\n"
        + "    lookback: 72h\n"
        + extra
        + "    event_types:\n"
        + "      - Login\n"
        + "      - API\n"
        + "      - URI\n";
  }

  private static long counter(RetainingMetricReader reader, String name) {
    long sum = 0;
    for (MetricData m : reader.collectAllMetrics()) {
      if (m.getName().equals(name)) {
        for (var p : m.getLongSumData().getPoints()) {
          sum += p.getValue();
        }
      }
    }
    return sum;
  }

  private static long landed(SalesforceScenario s, String type) {
    return s.receiver().entries(Map.of("source", "eventlogfile", "event_type", type)).size();
  }

  @Test
  @DisplayName(
      "ELF-5, SRC-27: no-Interval org answering the listing with the long full-query INVALID_FIELD"
          + " body and interval: Daily: every Daily row lands once; the switch is logged once and"
          + " no listing failure is logged or counted")
  void everyDailyRowLands() throws Exception {
    try (SalesforceScenario s = scenario();
        LogCapture logs = LogCapture.of(EventLogFileSource.class)) {
      Map<String, Long> expected = addDailyFiles(s, 40);
      Path cfg = s.writeConfig(elfYaml(""), "");
      RetainingMetricReader reader = new RetainingMetricReader();

      FiniteDaemon.Result r = FiniteDaemon.run(cfg, reader, Duration.ofSeconds(30));

      assertThat(r.status()).as(r.stderr()).isZero();
      for (String type : TYPES) {
        assertThat(landed(s, type)).as(type).isEqualTo(expected.get(type));
      }
      assertThat(s.receiver().duplicatesDropped()).isZero();
      assertThat(logs.events(Level.WARN, SWITCH_WARN)).hasSize(1);
      assertThat(logs.events(Level.WARN, "eventlogfile listing failed")).isEmpty();
      assertThat(logs.events(Level.ERROR, "eventlogfile listing failed")).isEmpty();
      assertThat(counter(reader, "sf2loki_soql_poll_errors")).isZero();
      // the org did reject the Interval form with the long body (at least once, by at most
      // the concurrently listing types)
      assertThat(s.org().callCount("query")).isGreaterThan(TYPES.size());
    }
  }

  private static int count(String text, String fragment) {
    return text.split(Pattern.quote(fragment), -1).length - 1;
  }

  @Test
  @DisplayName(
      "ELF-5, SRC-27, PIPE-9: SIGKILL mid-shipping on the no-Interval org and a restart lose no"
          + " Daily row; each run logs the switch once")
  void sigkillLosesNothing() throws Exception {
    try (SalesforceScenario s = scenario()) {
      Map<String, Long> expected = addDailyFiles(s, 700);
      long total = expected.values().stream().mapToLong(Long::longValue).sum();
      Path cfg =
          s.writeConfig(
              elfYaml("    poll_interval: 1s\n"),
              "    batch:\n      max_entries: 100\n    egress:\n      max_lines_per_second: 1000\n");

      String firstLog;
      try (ChildJvm first = ChildJvm.start(s.dir(), "run", "--config", cfg.toString())) {
        await("the first run ships and commits part of the rows")
            .atMost(Duration.ofSeconds(60))
            .pollInterval(Duration.ofMillis(20))
            .until(
                () -> {
                  if (!first.process().isAlive()) {
                    throw new AssertionError("child exited: " + first.stderr());
                  }
                  return s.receiver().totalEntries() >= 700
                      && s.checkpoints().keySet().stream()
                          .anyMatch(k -> k.startsWith("eventlogfile:"));
                });
        first.process().destroyForcibly(); // SIGKILL: no shutdown, no final commit
        assertThat(first.process().waitFor(10, TimeUnit.SECONDS)).isTrue();
        firstLog = first.stdout() + first.stderr();
      }
      assertThat(s.receiver().totalEntries()).isLessThan(total); // killed mid-way

      try (ChildJvm second = ChildJvm.start(s.dir(), "run", "--config", cfg.toString())) {
        await("the restart ships the rest")
            .atMost(Duration.ofSeconds(90))
            .pollInterval(Duration.ofMillis(20))
            .until(
                () -> {
                  if (!second.process().isAlive()) {
                    throw new AssertionError("child exited: " + second.stderr());
                  }
                  return s.receiver().totalEntries() >= total;
                });
        second.process().destroy(); // SIGTERM: clean stop
        assertThat(second.waitFor(Duration.ofSeconds(30))).isZero();
        String secondLog = second.stdout() + second.stderr();
        assertThat(count(secondLog, SWITCH_WARN)).isEqualTo(1);
        assertThat(secondLog).doesNotContain("eventlogfile listing failed");
      }
      assertThat(count(firstLog, SWITCH_WARN)).isEqualTo(1);
      assertThat(firstLog).doesNotContain("eventlogfile listing failed");
      assertThat(s.receiver().totalEntries()).isEqualTo(total);
      for (String type : TYPES) {
        assertThat(landed(s, type)).as(type).isEqualTo(expected.get(type));
      }
    }
  }
}
