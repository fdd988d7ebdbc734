package io.sf2loki.app.run;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.sf2loki.app.config.ConfigLoader;
import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.app.demo.DemoScenario;
import io.sf2loki.app.testing.RetainingMetricReader;
import io.sf2loki.core.shape.CanonicalJson;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.Ticker;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.sim.loki.LokiFault;
import io.sf2loki.sim.org.Fault;
import io.sf2loki.sim.org.SimLogFile;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPairGenerator;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.event.KeyValuePair;

/**
 * The real daemon against the simulated org and Loki receiver on loopback: startup log and auth
 * probe (OBS-11, AUTH-9), the checkpoint document it writes (SRC-15, PIPE-10) and readiness during
 * a Loki outage (PIPE-11, OBS-8).
 */
class DaemonStartupTest {
  private static final JsonMapper JSON = new JsonMapper();
  private static final DateTimeFormatter SF_TS =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSxx").withZone(ZoneOffset.UTC);

  /**
   * Real wall clock and ticker; retry and backoff waits (≤ 60 s) last 2 ms, longer waits (the ELF
   * poll interval) are real and stop-aware, so an endless daemon idles after its first cycle.
   */
  private static final TimeSource FAST =
      new TimeSource(
          InstantSource.system(),
          Ticker.system(),
          (d, stop) ->
              !stop.await(
                  d.compareTo(Duration.ofSeconds(60)) <= 0
                      ? Duration.ofMillis(Math.min(2, Math.max(0, d.toMillis())))
                      : d));

  private DemoScenario scenario;
  private Path state;
  private final RetainingMetricReader reader = new RetainingMetricReader();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private final ListAppender<ILoggingEvent> logs = new ListAppender<>();
  private final Logger appLogger = (Logger) LoggerFactory.getLogger("io.sf2loki");
  private Level previousLevel;
  private final HttpClient http = HttpClient.newHttpClient();

  @BeforeEach
  void start() throws Exception {
    scenario = DemoScenario.start(5, false, true, Instant.now());
    state = scenario.dir().resolve("state/state.json");
    logs.start();
    previousLevel = appLogger.getLevel();
    appLogger.setLevel(Level.INFO);
    appLogger.addAppender(logs);
  }

  @AfterEach
  void stop() {
    appLogger.detachAppender(logs);
    appLogger.setLevel(previousLevel);
    http.close();
    scenario.close();
  }

  private Sf2lokiConfig config(String pushUrl, Map<String, String> env) throws Exception {
    return new ConfigLoader().load(scenario.writeConfig(pushUrl, state), env);
  }

  private Daemon daemon(Sf2lokiConfig cfg, boolean finite) {
    return new Daemon(
        cfg,
        new DaemonOptions(finite, reader, UnaryOperator.identity(), FAST),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private List<ILoggingEvent> events(String message) {
    synchronized (logs) {
      return new ArrayList<>(logs.list)
          .stream().filter(e -> e.getMessage().startsWith(message)).toList();
    }
  }

  private static Map<String, Object> kv(ILoggingEvent e) {
    Map<String, Object> m = new HashMap<>();
    if (e.getKeyValuePairs() != null) {
      for (KeyValuePair p : e.getKeyValuePairs()) {
        m.put(p.key, p.value);
      }
    }
    return m;
  }

  private static String rendered(ILoggingEvent e) {
    return e.getFormattedMessage() + " " + kv(e);
  }

  private String allLogs() {
    StringBuilder sb = new StringBuilder();
    for (ILoggingEvent e : new ArrayList<>(logs.list)) {
      sb.append(rendered(e)).append('\n');
    }
    return sb.toString();
  }

  // ------------------------------------------------------------------------------- AUTH-9, OBS-11

  @Test
  @DisplayName(
      "AUTH-9, OBS-11, AUTH-5: a token endpoint rejection exits 1 with an ERROR naming the"
          + " Salesforce error code and nothing pushed; the startup INFO was logged first with the"
          + " sink URL scrubbed")
  void auth9_tokenFailureExits1() throws Exception {
    scenario
        .org()
        .faults()
        .add("token", Fault.salesforceError(400, "invalid_grant", "user hasn't approved this"));
    String pushUrl =
        "http://loki-user:loki-pa55@127.0.0.1:"
            + scenario.receiver().port()
            + "/loki/api/v1/push?api_key=q-s3cret";

    int status = daemon(config(pushUrl, Map.of()), true).run(new StopSignal());

    assertThat(status).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("invalid_grant");
    ILoggingEvent failure = events("salesforce authentication failed").getFirst();
    assertThat(failure.getLevel()).isEqualTo(Level.ERROR);
    assertThat(kv(failure)).containsEntry("error_code", "invalid_grant");
    assertThat(failure.getFormattedMessage()).contains("invalid_grant");
    assertThat(events("authenticated to salesforce org")).isEmpty();
    assertThat(events("sf2loki ready — streaming to Loki")).isEmpty();
    assertThat(scenario.receiver().requestCount()).isZero();
    assertThat(scenario.org().callCount("query")).isZero();
    assertThat(scenario.org().callCount("token")).isEqualTo(1);

    // OBS-11: the startup line, with every listed field and the sink URL scrubbed
    ILoggingEvent starting = events("sf2loki starting").getFirst();
    assertThat(starting.getLevel()).isEqualTo(Level.INFO);
    assertThat(logs.list.indexOf(starting)).isLessThan(logs.list.indexOf(failure));
    Map<String, Object> f = kv(starting);
    assertThat(f)
        .containsKeys(
            "version",
            "orgs",
            "pubsub_topics",
            "eventlog_objects",
            "eventlogfile_event_types",
            "sink",
            "org_limit_metrics",
            "log_level",
            "health_addr",
            "snappy_codec");
    // SINK-18: the codec loaded before the first push; native on this platform's temp dir
    assertThat(f.get("snappy_codec")).isEqualTo("native");
    assertThat(f.get("version")).isEqualTo(io.sf2loki.app.cli.Version.get());
    assertThat(f.get("orgs")).isEqualTo("single");
    assertThat(f.get("eventlogfile_event_types")).isEqualTo(scenario.eventTypes());
    assertThat(f.get("sink"))
        .isEqualTo("http://***@127.0.0.1:" + scenario.receiver().port() + "/loki/api/v1/push");
    assertThat(f.get("health_addr")).isEqualTo("127.0.0.1:0");
    assertThat(allLogs()).doesNotContain("loki-pa55").doesNotContain("q-s3cret");
  }

  @Test
  @DisplayName(
      "AUTH-9, AUTH-10: a JWT signed with a key the org does not know exits 1 with the error code,"
          + " and no key material is logged")
  void auth9_wrongKeyExits1() throws Exception {
    KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
    g.initialize(2048);
    String wrongKey =
        "-----BEGIN PRIVATE KEY-----\n"
            + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(g.generateKeyPair().getPrivate().getEncoded())
            + "\n-----END PRIVATE KEY-----\n";
    Files.writeString(scenario.dir().resolve("jwt.key"), wrongKey, StandardCharsets.US_ASCII);

    int status =
        daemon(config(scenario.receiver().pushUrl(), Map.of()), true).run(new StopSignal());

    assertThat(status).isEqualTo(1);
    ILoggingEvent failure = events("salesforce authentication failed").getFirst();
    assertThat(failure.getLevel()).isEqualTo(Level.ERROR);
    assertThat(kv(failure).get("error_code")).isEqualTo("invalid_grant");
    assertThat(scenario.receiver().requestCount()).isZero();
    String keyBody = wrongKey.lines().skip(1).findFirst().orElseThrow();
    assertThat(allLogs()).doesNotContain(keyBody);
    assertThat(err.toString(StandardCharsets.UTF_8)).doesNotContain(keyBody);
  }

  // ------------------------------------------------------------------- AUTH-9, SRC-15, PIPE-10

  private static double epochSeconds(Instant i) {
    return i.getEpochSecond() + i.getNano() / 1e9;
  }

  private Optional<Double> gauge(String name, String object) {
    for (MetricData m : reader.collectAllMetrics()) {
      if (m.getName().equals(name)) {
        for (var p : m.getDoubleGaugeData().getPoints()) {
          if ("eventlogfile".equals(p.getAttributes().get(AttributeKey.stringKey("source")))
              && object.equals(p.getAttributes().get(AttributeKey.stringKey("object")))) {
            return Optional.of(p.getValue());
          }
        }
      }
    }
    return Optional.empty();
  }

  @Test
  @DisplayName(
      "AUTH-9, SRC-15, PIPE-10, OBS-14: after the INFO 'authenticated to salesforce org' the run"
          + " writes per type {\"ids\": [[fileId, CreatedDate], …], \"last_created\": …} to the"
          + " state file, and the watermark gauge equals last_created")
  void src15_checkpointDocumentAsWritten() throws Exception {
    int status =
        daemon(config(scenario.receiver().pushUrl(), Map.of()), true).run(new StopSignal());

    assertThat(status).as(err.toString(StandardCharsets.UTF_8)).isZero();
    ILoggingEvent auth = events("authenticated to salesforce org").getFirst();
    assertThat(auth.getLevel()).isEqualTo(Level.INFO);
    assertThat(kv(auth))
        .containsEntry("org_id", scenario.org().orgId())
        .containsEntry("environment", "production");
    assertThat(logs.list.indexOf(auth))
        .as("the probe ran before any term started")
        .isLessThan(logs.list.indexOf(events("sf2loki ready — streaming to Loki").getFirst()));
    assertThat(scenario.receiver().totalEntries()).isEqualTo(scenario.expectedRows());

    // the document exactly as written to the state file: a flat object of string values
    JsonNode doc = JSON.readTree(Files.readString(state));
    assertThat(doc.isObject()).isTrue();
    Map<String, List<SimLogFile>> filesByType = new HashMap<>();
    scenario
        .org()
        .logFiles()
        .forEach(f -> filesByType.computeIfAbsent(f.eventType(), k -> new ArrayList<>()).add(f));
    assertThat(doc.size()).isEqualTo(filesByType.size());
    for (var t : filesByType.entrySet()) {
      JsonNode raw = doc.get("eventlogfile:" + t.getKey());
      assertThat(raw).as("key eventlogfile:%s", t.getKey()).isNotNull();
      assertThat(raw.isTextual()).isTrue();
      String value = raw.asText();
      JsonNode v = JSON.readTree(value);
      // canonical JSON (SRC-7) with exactly the fields ids and last_created, in that order
      assertThat(value).isEqualTo(CanonicalJson.write(JSON.convertValue(v, Map.class)));
      assertThat(value).matches("\\{\"ids\": \\[.*\\], \"last_created\": \"[^\"]+\"\\}");
      List<SimLogFile> files =
          t.getValue().stream().sorted(Comparator.comparing(SimLogFile::createdDate)).toList();
      List<List<String>> wantIds = new ArrayList<>();
      for (SimLogFile f : files) {
        wantIds.add(List.of(f.id(), SF_TS.format(f.createdDate())));
      }
      List<List<String>> gotIds = new ArrayList<>();
      for (JsonNode pair : v.get("ids")) {
        assertThat(pair.isArray()).isTrue();
        assertThat(pair.size()).isEqualTo(2);
        gotIds.add(List.of(pair.get(0).asText(), pair.get(1).asText()));
      }
      assertThat(gotIds).containsExactlyInAnyOrderElementsOf(wantIds);
      Instant last = files.getLast().createdDate();
      assertThat(v.get("last_created").asText()).isEqualTo(SF_TS.format(last));

      assertThat(gauge("sf2loki_watermark_timestamp_seconds", t.getKey()))
          .contains(epochSeconds(last));
      assertThat(gauge("sf2loki_source_last_success_timestamp_seconds", t.getKey())).isPresent();
    }
  }

  // ------------------------------------------------------------------------------------ PIPE-11

  private record Ready(int status, String body) {}

  private Ready readyz(int port) throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/readyz")).build(),
            HttpResponse.BodyHandlers.ofString());
    return new Ready(r.statusCode(), r.body());
  }

  /** Polls /readyz (bounded: 20 s) until an answer matches; returns it. */
  private Ready awaitReadyz(Daemon d, Predicate<Ready> want) throws Exception {
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    Ready last = null;
    while (System.nanoTime() < deadline) {
      int port = d.healthPort();
      if (port > 0) {
        last = readyz(port);
        if (want.test(last)) {
          return last;
        }
      }
      Thread.sleep(20);
    }
    throw new AssertionError("readyz never matched; last answer " + last);
  }

  private Thread runInBackground(Daemon d, StopSignal stop, AtomicInteger status) {
    return Thread.ofPlatform().start(() -> status.set(d.run(stop)));
  }

  @Test
  @DisplayName(
      "PIPE-11, OBS-8: a Loki outage longer than unready_after_sink_failing makes /readyz answer"
          + " 503 'degraded: loki pushes failing for <N>s'; after recovery it answers 200 'ready'")
  void pipe11_outageDegradesReadinessUntilRecovery() throws Exception {
    scenario.receiver().faults().add(LokiFault.status(500).untilCleared());
    Daemon d =
        daemon(
            config(
                scenario.receiver().pushUrl(),
                Map.of("SF2LOKI_SERVICE__UNREADY_AFTER_SINK_FAILING", "1s")),
            false);
    StopSignal stop = new StopSignal();
    AtomicInteger status = new AtomicInteger(-1);
    Thread t = runInBackground(d, stop, status);
    try {
      Ready degraded = awaitReadyz(d, r -> r.status() == 503 && r.body().startsWith("degraded"));
      assertThat(degraded.body()).matches("degraded: loki pushes failing for [1-9][0-9]*s");
      assertThat(d.activeTerm().sinkFailingFor()).isPresent();
      assertThat(scenario.receiver().totalEntries()).isZero();

      scenario.receiver().faults().clear();
      Ready ready = awaitReadyz(d, r -> r.status() == 200);
      assertThat(ready.body()).isEqualTo("ready");
      assertThat(d.activeTerm().sinkFailingFor()).isEmpty();
    } finally {
      stop.stop();
      t.join(20_000);
    }
    assertThat(status.get()).as(err.toString(StandardCharsets.UTF_8)).isZero();
    assertThat(scenario.receiver().totalEntries()).isEqualTo(scenario.expectedRows());
  }

  @Test
  @DisplayName("PIPE-11: unready_after_sink_failing=0 disables the degradation")
  void pipe11_zeroDisables() throws Exception {
    scenario.receiver().faults().add(LokiFault.status(500).untilCleared());
    Daemon d =
        daemon(
            config(
                scenario.receiver().pushUrl(),
                Map.of("SF2LOKI_SERVICE__UNREADY_AFTER_SINK_FAILING", "0s")),
            false);
    StopSignal stop = new StopSignal();
    AtomicInteger status = new AtomicInteger(-1);
    Thread t = runInBackground(d, stop, status);
    try {
      assertThat(awaitReadyz(d, r -> r.status() == 200).body()).isEqualTo("ready");
      // keep asking while the sink is failing (any failing time would degrade a non-zero
      // threshold, whose answer is then 'failing for 0s'): always ready
      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (true) {
        Ready r = readyz(d.healthPort());
        assertThat(r).isEqualTo(new Ready(200, "ready"));
        Optional<Duration> failing = d.activeTerm().sinkFailingFor();
        if (failing.isPresent() && failing.get().compareTo(Duration.ofMillis(200)) > 0) {
          break;
        }
        assertThat(System.nanoTime()).as("the sink starts failing").isLessThan(deadline);
        Thread.sleep(50);
      }
      assertThat(readyz(d.healthPort())).isEqualTo(new Ready(200, "ready"));
      scenario.receiver().faults().clear();
    } finally {
      stop.stop();
      t.join(20_000);
    }
    assertThat(status.get()).isZero();
  }

  // ------------------------------------------------------------------------------------ EGR-8

  @Test
  @DisplayName(
      "EGR-5, EGR-8, EGR-11, EGR-12, OBS-8: an exhausted daily budget pauses pushes; /readyz answers"
          + " 503 'degraded: daily byte budget exhausted, pushes paused until <tomorrow>', the"
          + " paused gauge is 1; stop clears both and the used budget is persisted")
  void egr8_budgetPauseDegradesReadiness() throws Exception {
    Sf2lokiConfig cfg =
        config(
            scenario.receiver().pushUrl(),
            Map.of(
                "SF2LOKI_SINK__LOKI__EGRESS__DAILY_BYTE_BUDGET", "2000",
                "SF2LOKI_SINK__LOKI__BATCH__MAX_ENTRIES", "5"));
    Daemon d = daemon(cfg, true);
    StopSignal stop = new StopSignal();
    AtomicInteger status = new AtomicInteger(-1);
    Thread t = runInBackground(d, stop, status);
    String tomorrow = java.time.LocalDate.now(java.time.ZoneOffset.UTC).plusDays(1).toString();
    Ready paused =
        awaitReadyz(d, r -> r.status() == 503 && r.body().startsWith("degraded: daily byte"));
    assertThat(paused.body())
        .isEqualTo("degraded: daily byte budget exhausted, pushes paused until " + tomorrow);
    assertThat(gaugeValue("sf2loki_egress_paused")).isEqualTo(1.0);
    assertThat(scenario.receiver().totalEntries()).isPositive().isLessThan(scenario.expectedRows());
    stop.stop();
    t.join(30_000);
    assertThat(status.get()).isZero();
    assertThat(gaugeValue("sf2loki_egress_paused")).isZero();
    JsonNode doc = JSON.readTree(Files.readString(state));
    JsonNode budget = JSON.readTree(doc.get("egress:budget").asText());
    assertThat(budget.get("date").asText())
        .isEqualTo(java.time.LocalDate.now(java.time.ZoneOffset.UTC).toString());
    assertThat(budget.get("bytes").asLong()).isGreaterThanOrEqualTo(2000);
  }

  private double gaugeValue(String name) {
    for (var m : reader.collectAllMetrics()) {
      if (m.getName().equals(name)) {
        return m.getDoubleGaugeData().getPoints().iterator().next().getValue();
      }
    }
    return Double.NaN;
  }
}
