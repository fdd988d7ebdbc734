package io.sf2loki.app.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.groups.Tuple.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.app.config.ConfigLoader;
import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.app.e2e.support.Await;
import io.sf2loki.app.e2e.support.LogCapture;
import io.sf2loki.app.e2e.support.RunningDaemon;
import io.sf2loki.app.e2e.support.SalesforceScenario;
import io.sf2loki.app.health.Readiness;
import io.sf2loki.app.health.StatusPage;
import io.sf2loki.app.health.StatusSnapshot;
import io.sf2loki.app.health.StatuszSchema;
import io.sf2loki.core.status.SourceStatusBoard;
import io.sf2loki.core.term.ActiveTerm;
import io.sf2loki.core.testing.InMemoryCheckpointStore;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.Ticker;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.sim.loki.LokiFault;
import io.sf2loki.sim.org.Fault;
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
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class StatusWiringTest {
  static final String YAML =
      "salesforce: {auth_mode: client_credentials, client_id: c, client_secret: s3cr3t-value,"
          + " login_url: 'https://example.my.salesforce.com'}\n"
          + "sources:\n"
          + "  pubsub:\n"
          + "    topics: [/event/ApiEventStream]\n"
          + "  eventlogfile: {enabled: true, event_types: [{name: Login}, {name: API}]}\n"
          + "  apexlog: {enabled: true}\n"
          + "sink: {loki: {url: 'http://user:pw-9x7@loki:3100/loki/api/v1/push',"
          + " auth_token: tok-4c2e9a}}\n";

  static final Instant NOW = Instant.parse("2026-12-01T10:30:00Z");

  @Test
  @DisplayName(
      "FEAT-3, OBS-35: the daemon's snapshot has one row per configured source named by its"
          + " checkpoint key, the position from the store (watermark of JSON values) with its age"
          + " (watermark; Pub/Sub from the last commit), poll results from the board, role from"
          + " readiness, and no secrets")
  void feat3_rowsPerConfiguredSource(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("sf2loki.yaml");
    Files.writeString(file, YAML);
    Sf2lokiConfig cfg = new ConfigLoader().load(file, Map.of());
    Readiness readiness = new Readiness();
    FakeTime time = new FakeTime(NOW.minusSeconds(90));
    SourceStatusBoard board = StatusWiring.newBoard(cfg, time.wall());
    StatusWiring wiring =
        new StatusWiring(cfg, "9.9.9", readiness, new ActiveTerm(), board, time.wall());
    wiring.store(
        new InMemoryCheckpointStore(
            Map.of(
                "pubsub:/event/ApiEventStream", "AAAAAAAAAAE=",
                "eventlogfile:Login",
                    "{\"ids\": [], \"last_created\": \"2026-12-01T10:00:00.000+0000\"}",
                "apexlog", "2026-12-01T09:00:00.000+0000")));
    board.committed(Map.of("pubsub:/event/ApiEventStream", "AAAAAAAAAAE="));
    board.ok("pubsub:/event/ApiEventStream");
    board.failed(
        "eventlogfile:API",
        "SoqlException",
        "HTTP 500 echo: client_secret s3cr3t-value pw-9x7 tok-4c2e9a\nsecond line");
    board.paused("apexlog");
    board.skipped("eventlogfile:Discovered"); // a discovered type: its own row
    time.setWall(NOW);

    StatusSnapshot s = wiring.get();
    assertThat(s.role()).isEqualTo("starting");
    assertThat(s.epoch()).isEqualTo(-1);
    assertThat(s.version()).isEqualTo("9.9.9");
    assertThat(s.time()).isEqualTo(NOW.toString());
    assertThat(s.sources())
        .extracting(
            StatusSnapshot.Source::name,
            StatusSnapshot.Source::position,
            StatusSnapshot.Source::ageSeconds,
            StatusSnapshot.Source::ageBasis,
            StatusSnapshot.Source::lastPoll,
            StatusSnapshot.Source::lastPollClass)
        .containsExactly(
            tuple("pubsub:/event/ApiEventStream", "AAAAAAAAAAE=", 90L, "last_commit", "ok", ""),
            tuple(
                "eventlogfile:Login",
                "2026-12-01T10:00:00.000+0000",
                1800L,
                "watermark",
                StatusWiring.UNKNOWN,
                ""),
            tuple("eventlogfile:API", StatusWiring.UNKNOWN, -1L, "", "error", "SoqlException"),
            tuple("apexlog", "2026-12-01T09:00:00.000+0000", 5400L, "watermark", "paused", ""),
            tuple("eventlogfile:Discovered", StatusWiring.UNKNOWN, -1L, "", "skipped", ""));
    StatusSnapshot.Source api = s.sources().get(2);
    assertThat(api.lastError())
        .startsWith("HTTP 500 echo: client_secret *** *** ***")
        .doesNotContain("\n");
    assertThat(api.lastErrorAt()).isEqualTo(NOW.minusSeconds(90).toString());
    assertThat(s.sources().get(0).positionTime()).isEqualTo(NOW.minusSeconds(90).toString());
    assertThat(s.lanes()).isEmpty(); // no term runs
    assertThat(s.governor().paused()).isFalse();

    readiness.set(Readiness.State.STANDBY);
    assertThat(wiring.get().role()).isEqualTo("standby");
    readiness.set(Readiness.State.READY);
    assertThat(wiring.get().role()).isEqualTo("leader");
    String json = StatusPage.json(wiring.get());
    assertThat(StatuszSchema.errors(json)).isEmpty();
    String html = StatusPage.html(wiring.get());
    for (String page : new String[] {json, html}) {
      assertThat(page)
          .doesNotContain("s3cr3t")
          .doesNotContain("pw-9x7")
          .doesNotContain("tok-4c2e9a");
    }
  }

  @Test
  @DisplayName(
      "FEAT-3, ORG-7: an org-level failure (org id, authentication) is the last error of each of"
          + " that org's rows, not the other org's, and has no row of its own")
  void feat3_orgFailureOnTheOrgsRows(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("sf2loki.yaml");
    Files.writeString(
        file,
        "orgs:\n"
            + "  - name: a\n"
            + "    salesforce: {client_id: ca, username: u@x.com, private_key: K}\n"
            + "    sources: {apexlog: {enabled: true}}\n"
            + "  - name: b\n"
            + "    salesforce: {client_id: cb, username: u@x.com, private_key: K}\n"
            + "    sources: {apexlog: {enabled: true}}\n"
            + "sink: {loki: {url: 'http://loki:3100/loki/api/v1/push'}}\n");
    Sf2lokiConfig cfg = new ConfigLoader().load(file, Map.of());
    FakeTime time = new FakeTime(NOW.minusSeconds(30));
    SourceStatusBoard board = StatusWiring.newBoard(cfg, time.wall());
    StatusWiring wiring =
        new StatusWiring(cfg, "9.9.9", new Readiness(), new ActiveTerm(), board, time.wall());
    wiring.store(new InMemoryCheckpointStore());
    board.failed("org=b:apexlog", "SoqlException", "older source error");
    time.setWall(NOW);
    board.failed(
        "org=b:" + io.sf2loki.core.org.OrgSource.ORG_ROW, "auth", "invalid_grant: audience");

    StatusSnapshot s = wiring.get();
    assertThat(s.sources())
        .extracting(StatusSnapshot.Source::name, StatusSnapshot.Source::lastError)
        .containsExactly(tuple("a/apexlog", ""), tuple("b/apexlog", "invalid_grant: audience"));
    assertThat(s.sources().get(1).lastErrorAt()).isEqualTo(NOW.toString());
  }

  // ---------------------------------------------------------------------------------------------
  // a running term against the simulated org and Loki receiver

  private static final Duration LIMIT = Duration.ofSeconds(60);

  /** Real clocks; every wait (poll intervals, backoffs) cut to at most 10 ms. */
  private static final TimeSource QUICK =
      new TimeSource(
          InstantSource.system(),
          Ticker.system(),
          (d, stop) -> !stop.await(Duration.ofMillis(Math.min(10, Math.max(0, d.toMillis())))));

  private static final String OBJECTS =
      """
        eventlog_objects:
          enabled: true
          objects:
            - {name: LoginHistory, timestamp_field: LoginTime, poll_interval: 1s}
      """;

  /** A configured secret the page must never show, even when Salesforce echoes it. */
  private static final String TOKEN = "tok-7f3d1c-secret";

  private static final String KEY = "eventlog_objects:LoginHistory";

  private static JsonNode statusz(HttpClient http, int port) throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/statusz")).build(),
            HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).doesNotContain(TOKEN);
    assertThat(StatuszSchema.errors(r.body())).isEmpty();
    return new ObjectMapper().readTree(r.body());
  }

  private static JsonNode row(JsonNode status, String name) {
    for (JsonNode s : status.get("sources")) {
      if (s.get("name").asText().equals(name)) {
        return s;
      }
    }
    throw new AssertionError("no row " + name + " in " + status);
  }

  private static JsonNode lane(JsonNode status, String name) {
    for (JsonNode l : status.get("lanes")) {
      if (l.get("name").asText().equals(name)) {
        return l;
      }
    }
    return null;
  }

  /** Polls /statusz until {@code cond} holds for the answer (real network, real clocks). */
  private static JsonNode awaitStatus(
      String what, HttpClient http, int port, java.util.function.Predicate<JsonNode> cond)
      throws InterruptedException {
    AtomicReference<JsonNode> last = new AtomicReference<>();
    Await.until(
        what,
        LIMIT,
        () -> {
          try {
            last.set(statusz(http, port));
          } catch (Exception e) {
            throw new AssertionError(e);
          }
          return cond.test(last.get());
        });
    return last.get();
  }

  @Test
  @DisplayName(
      "FEAT-3, OBS-35, OBS-36: values flow from a running term with telemetry off: last poll ok"
          + " with the committed watermark and its age; a simulated Salesforce 500 shows error,"
          + " its class and the redacted message (a configured token echoed by the org never"
          + " appears, OBS-34/DOC-3: nor in any log event); Loki failing shows the bulk lane's depth, bytes and failing-since, which"
          + " clear when Loki recovers")
  void feat3_valuesFlowFromARunningTerm() throws Exception {
    try (SalesforceScenario sc = SalesforceScenario.start(b -> {});
        HttpClient http = HttpClient.newHttpClient()) {
      SimOrg org = sc.org();
      Instant now = Instant.now();
      org.objects().defineObject("LoginHistory", "LoginTime");
      org.objects().addSeries("LoginHistory", now.minusSeconds(600), Duration.ofSeconds(1), 10);
      Path cfg =
          sc.writeConfig(
              OBJECTS, "    auth_token: \"" + TOKEN + "\"\n    batch:\n      max_entries: 1\n");
      try (LogCapture logs = LogCapture.root();
          RunningDaemon d = RunningDaemon.start(cfg, null, QUICK)) { // telemetry off, no reader
        Await.until("rows flow", LIMIT, () -> sc.receiver().totalEntries() >= 10);
        int port = d.daemon().healthPort();

        // 1. a clean poll: ok, the committed watermark (last row's LoginTime) and its age
        JsonNode st =
            awaitStatus(
                "ok with a committed watermark",
                http,
                port,
                s ->
                    row(s, KEY).get("lastPoll").asText().equals("ok")
                        && row(s, KEY).get("ageBasis").asText().equals("watermark"));
        JsonNode r = row(st, KEY);
        assertThat(st.get("role").asText()).isEqualTo("leader");
        Instant watermark = Instant.parse(r.get("positionTime").asText());
        assertThat(watermark).isBetween(now.minusSeconds(600), now.minusSeconds(590));
        assertThat(r.get("ageSeconds").asLong()).isGreaterThanOrEqualTo(590);
        assertThat(Instant.parse(r.get("lastPollAt").asText())).isAfterOrEqualTo(now);
        assertThat(r.get("lastError").asText()).isEmpty();
        assertThat(lane(st, "bulk")).isNotNull();
        assertThat(lane(st, "bulk").get("failingSince").asText()).isEmpty();

        // 2. Salesforce fails every query (the simulator's fault API), echoing the token
        org.faults()
            .add(
                SimEndpoint.QUERY,
                Fault.salesforceError(500, "UNKNOWN_EXCEPTION", "boom; Authorization: " + TOKEN)
                    .untilCleared());
        st =
            awaitStatus(
                "poll error",
                http,
                port,
                s -> row(s, KEY).get("lastPoll").asText().equals("error"));
        r = row(st, KEY);
        assertThat(r.get("lastPollClass").asText()).endsWith("Exception");
        assertThat(r.get("lastError").asText()).contains("boom").doesNotContain(TOKEN);
        assertThat(r.get("lastErrorAt").asText()).isNotEmpty();
        // OBS-34, DOC-3: the sources' failure logs carry the echoed message, token masked
        assertThat(logs.texts())
            .anySatisfy(l -> assertThat(l).contains("object poll failed").contains("boom"))
            .noneSatisfy(l -> assertThat(l).contains(TOKEN));
        org.faults().clear();
        st =
            awaitStatus(
                "ok again", http, port, s -> row(s, KEY).get("lastPoll").asText().equals("ok"));
        assertThat(row(st, KEY).get("lastError").asText()).as("kept").contains("boom");

        // 3. Loki fails: new rows wait in the bulk lane (batches of one entry)
        sc.receiver().faults().add(LokiFault.status(500).untilCleared());
        org.objects().addSeries("LoginHistory", now.minusSeconds(60), Duration.ofSeconds(1), 5);
        st =
            awaitStatus(
                "bulk lane failing with queued entries",
                http,
                port,
                s ->
                    lane(s, "bulk") != null
                        && !lane(s, "bulk").get("failingSince").asText().isEmpty()
                        && lane(s, "bulk").get("depth").asLong() >= 4);
        JsonNode bulk = lane(st, "bulk");
        assertThat(bulk.get("bytes").asLong()).isPositive();
        assertThat(Instant.parse(bulk.get("failingSince").asText())).isAfterOrEqualTo(now);
        sc.receiver().faults().clear();
        awaitStatus(
            "bulk lane drained and healthy",
            http,
            port,
            s ->
                lane(s, "bulk").get("depth").asLong() == 0
                    && lane(s, "bulk").get("failingSince").asText().isEmpty());
        assertThat(d.stop()).isZero();
        assertThat(logs.texts()).noneSatisfy(l -> assertThat(l).contains(TOKEN));
      }
    }
  }
}
