package io.sf2loki.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opentelemetry.api.common.Attributes;
import io.sf2loki.app.e2e.support.Await;
import io.sf2loki.app.e2e.support.RunningDaemon;
import io.sf2loki.app.e2e.support.SalesforceScenario;
import io.sf2loki.app.testing.RetainingMetricReader;
import io.sf2loki.core.time.Ticker;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.sim.org.SimEndpoint;
import io.sf2loki.sim.org.SimOrg;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * OBS-12 / OBS-21 end to end: the daemon's limits poller reads the simulated org's {@code /limits};
 * when {@code DailyApiRequests} falls under the reserve the polling sources stop calling the org,
 * readiness and the gauge say why, and they resume when the counter recovers.
 */
class ApiReserveEndToEndTest {
  private static final Duration LIMIT = Duration.ofSeconds(60);

  /** Real clocks; every wait (poll intervals, backoffs) cut to at most 10 ms. */
  private static final TimeSource QUICK =
      new TimeSource(
          InstantSource.system(),
          Ticker.system(),
          (d, stop) -> !stop.await(Duration.ofMillis(Math.min(10, Math.max(0, d.toMillis())))));

  private static final String SOURCES =
      """
        eventlogfile:
          enabled: true
          interval: Hourly
          poll_interval: 1s
          event_types:
            - Login
        eventlog_objects:
          enabled: true
          objects:
            - {name: LoginHistory, timestamp_field: LoginTime, poll_interval: 1s}
        apexlog:
          enabled: true
          poll_interval: 1s
      """;

  /** Every call the polling sources make: SOQL, queryMore, ELF downloads, ApexLog Tooling. */
  private static long sourceCalls(SimOrg org) {
    return org.callCount(SimEndpoint.QUERY)
        + org.callCount(SimEndpoint.QUERY_MORE)
        + org.callCount(SimEndpoint.LOGFILE)
        + org.apexLogs().listingCalls()
        + org.apexLogs().listingMoreCalls()
        + org.apexLogs().bodyCalls();
  }

  private static String readyz(HttpClient http, int port) throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/readyz")).build(),
            HttpResponse.BodyHandlers.ofString());
    return r.statusCode() + " " + r.body();
  }

  private static JsonNode statusz(HttpClient http, int port) throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/statusz")).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    return new ObjectMapper().readTree(r.body());
  }

  /** OBS-35: the last poll result of every source as {@code /statusz} shows it. */
  private static List<String> lastPolls(HttpClient http, int port) {
    try {
      return statusz(http, port).get("sources").findValuesAsText("lastPoll");
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  /** FEAT-3: {@code /statusz} names the role and every configured source by its checkpoint key. */
  private static void assertStatusz(HttpClient http, int port) throws Exception {
    JsonNode n = statusz(http, port);
    assertThat(n.get("role").asText()).isEqualTo("leader");
    assertThat(n.get("sources").findValuesAsText("name"))
        .containsExactly("eventlogfile:Login", "eventlog_objects:LoginHistory", "apexlog");
  }

  /** Waits until the org answered {@code n} more {@code /limits} calls. */
  private static void limitsPolls(SimOrg org, int n) throws InterruptedException {
    long target = org.limitsCalls() + n;
    Await.until("limits polls", LIMIT, () -> org.limitsCalls() >= target);
  }

  @Test
  @DisplayName(
      "OBS-12, OBS-21, OBS-35: remaining under the reserve pauses eventlogfile, eventlog_objects"
          + " and apexlog within one limits poll (no further org calls), /readyz 503 'degraded:"
          + " API reserve reached', gauge 1, /statusz last poll 'paused'; recovery resumes them"
          + " (gauge 0, ready, last poll 'ok', new rows flow)")
  void reservePausesAndResumes() throws Exception {
    try (SalesforceScenario s = SalesforceScenario.start(b -> {});
        HttpClient http = HttpClient.newHttpClient()) {
      SimOrg org = s.org();
      Instant now = Instant.now();
      org.objects().defineObject("LoginHistory", "LoginTime");
      org.objects().addSeries("LoginHistory", now.minusSeconds(600), Duration.ofSeconds(1), 10);
      Instant hour = now.truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(3));
      long elfRows =
          org.addGeneratedLogFile("Login", "Hourly", hour, hour.plus(Duration.ofMinutes(70)), 20, 7)
              .rowCount();
      org.apexLogs()
          .generate(3, now.minusSeconds(300), Duration.ofSeconds(1), List.of("a@example.com"), 1);
      Path cfg = s.writeConfig(SOURCES, "");
      String yaml = Files.readString(cfg);
      yaml =
          yaml.replace(
              "jwt.key\"\n",
              "jwt.key\"\n  limits:\n    enabled: true\n    poll_interval: 1s\n"
                  + "    reserve_percent: 10\n");
      Files.writeString(cfg, yaml);
      RetainingMetricReader reader = new RetainingMetricReader();

      try (RunningDaemon d = RunningDaemon.start(cfg, reader, QUICK)) {
        long before = 10 + elfRows + 3;
        Await.until("rows flow", LIMIT, () -> s.receiver().totalEntries() >= before);
        int port = d.daemon().healthPort();
        assertThat(readyz(http, port)).isEqualTo("200 ready");
        assertStatusz(http, port); // FEAT-3
        var paused = d.daemon().metrics().salesforceApiReservePaused;
        assertThat(paused.get(Attributes.empty())).isEqualTo(0.0);
        var remaining = d.daemon().metrics().salesforceLimitRemaining;
        Attributes daily =
            Attributes.of(io.sf2loki.core.metrics.Sf2lokiMetrics.LIMIT_NAME, "DailyApiRequests");
        Attributes storage =
            Attributes.of(io.sf2loki.core.metrics.Sf2lokiMetrics.LIMIT_NAME, "DataStorageMB");
        assertThat(remaining.get(storage)).isEqualTo(3.0); // from the real Limits body

        org.setDailyApiRequests(1499, 15000); // under 10 % of 15000
        Await.until("paused", LIMIT, () -> paused.get(Attributes.empty()) == 1.0);
        assertThat(readyz(http, port)).isEqualTo("503 degraded: API reserve reached");
        limitsPolls(org, 3); // a poll already in flight when the pause began has ended
        long calls = sourceCalls(org);
        long shipped = s.receiver().totalEntries();
        org.objects()
            .addSeries(
                "LoginHistory", now.minusSeconds(120), Duration.ofMillis(10), 5); // settled (OBJ-6)
        limitsPolls(org, 20); // 20 limits polls ≈ 20 due source polls, all skipped
        assertThat(sourceCalls(org)).as("no org call while paused").isEqualTo(calls);
        assertThat(s.receiver().totalEntries()).isEqualTo(shipped);
        assertThat(remaining.get(daily)).isEqualTo(1499.0);
        assertThat(readyz(http, port)).isEqualTo("503 degraded: API reserve reached");
        // FEAT-3, OBS-35: each source's last poll shows the reserve's pause
        Await.until(
            "statusz shows paused",
            LIMIT,
            () -> lastPolls(http, port).stream().allMatch("paused"::equals));

        org.setDailyApiRequests(1500, 15000); // at the reserve: resumes
        Await.until("resumed", LIMIT, () -> paused.get(Attributes.empty()) == 0.0);
        Await.until("new rows flow", LIMIT, () -> s.receiver().totalEntries() >= shipped + 5);
        assertThat(readyz(http, port)).isEqualTo("200 ready");
        Await.until(
            "statusz shows ok", LIMIT, () -> lastPolls(http, port).stream().allMatch("ok"::equals));
        assertThat(sourceCalls(org)).isGreaterThan(calls);
        assertThat(d.stop()).as(d.stderr()).isZero();
      }
      assertThat(s.receiver().duplicatesDropped()).isZero();
      Map<String, String> cp = s.checkpoints();
      assertThat(cp).containsKeys("eventlog_objects:LoginHistory", "eventlogfile:Login", "apexlog");
    }
  }
}
