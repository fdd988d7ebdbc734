package io.sf2loki.app.apexlog;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.app.config.ConfigLoader;
import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.app.demo.DemoScenario;
import io.sf2loki.app.run.Daemon;
import io.sf2loki.app.run.DaemonOptions;
import io.sf2loki.app.testing.RetainingMetricReader;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.Ticker;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.salesforce.apexlog.ApexLogCursor;
import io.sf2loki.sim.loki.ReceivedEntry;
import io.sf2loki.sim.org.SimApexLog;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The daemon with {@code sources.apexlog} enabled against the simulated org and receiver. */
class ApexLogDaemonTest {
  private static final int LINE_CAP = 262_144;
  private static final TimeSource FAST =
      new TimeSource(
          InstantSource.system(),
          Ticker.system(),
          (d, stop) -> !stop.await(Duration.ofMillis(Math.min(2, Math.max(0, d.toMillis())))));

  private DemoScenario scenario;
  private Path state;
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @BeforeEach
  void start() throws Exception {
    scenario = DemoScenario.start(5, false, true, Instant.now());
    state = scenario.dir().resolve("state/state.json");
  }

  @AfterEach
  void stop() {
    scenario.close();
  }

  @Test
  @DisplayName(
      "APX-7/SINK-7/SRC-15: the daemon ships every ApexLog once with source=apexlog labels,"
          + " keeps head and tail of an over-cap body, and commits the apexlog cursor")
  void daemonShipsApexLogs() throws Exception {
    Instant base = Instant.now().minusSeconds(600);
    List<SimApexLog> logs =
        scenario
            .org()
            .apexLogs()
            .generate(250, base, Duration.ofMillis(500), List.of("integration@example.com"), 1);
    String big = "HEAD" + "x".repeat(LINE_CAP) + "TAIL";
    SimApexLog bigLog =
        scenario.org().apexLogs().add("integration@example.com", base.plusSeconds(200), big);
    Path cfgPath = scenario.writeConfig(scenario.receiver().pushUrl(), state);
    String yaml = Files.readString(cfgPath);
    yaml =
        yaml.replace(
            "  pubsub:\n    enabled: false\n",
            "  pubsub:\n    enabled: false\n  apexlog:\n    enabled: true\n");
    Files.writeString(cfgPath, yaml);
    Sf2lokiConfig cfg = new ConfigLoader().load(cfgPath, Map.of());

    Daemon d =
        new Daemon(
            cfg,
            new DaemonOptions(true, new RetainingMetricReader(), UnaryOperator.identity(), FAST),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    int status = d.run(new StopSignal());

    assertThat(status).as(err.toString(StandardCharsets.UTF_8)).isZero();
    List<ReceivedEntry> got = scenario.receiver().entries(Map.of("source", "apexlog"));
    assertThat(got).hasSize(251);
    assertThat(scenario.receiver().duplicatesDropped()).isZero();
    for (ReceivedEntry e : got) {
      assertThat(e.labels()).containsEntry("event_type", "apexlog");
      assertThat(e.line().getBytes(StandardCharsets.UTF_8)).hasSizeLessThanOrEqualTo(LINE_CAP);
    }
    ReceivedEntry bigEntry =
        got.stream()
            .filter(e -> bigLog.id().equals(e.structuredMetadata().get("Id")))
            .findFirst()
            .orElseThrow();
    assertThat(bigEntry.line()).startsWith("HEAD").endsWith("TAIL");
    assertThat(got)
        .filteredOn(e -> logs.getFirst().id().equals(e.structuredMetadata().get("Id")))
        .singleElement()
        .satisfies(
            e ->
                assertThat(e.line())
                    .isEqualTo(new String(logs.getFirst().body(), StandardCharsets.UTF_8)));

    Map<?, ?> doc = new ObjectMapper().readValue(state.toFile(), Map.class);
    String value = String.valueOf(findKey(doc, "apexlog"));
    // the over-cap log has the newest StartTime
    assertThat(ApexLogCursor.load(value, "x").cursor().lastId()).isEqualTo(bigLog.id());
    assertThat(scenario.org().apexLogs().bodyCalls()).isEqualTo(251);
  }

  private static Object findKey(Map<?, ?> doc, String key) {
    if (doc.containsKey(key)) {
      return doc.get(key);
    }
    for (Object v : doc.values()) {
      if (v instanceof Map<?, ?> m) {
        Object found = findKey(m, key);
        if (found != null) {
          return found;
        }
      }
    }
    return null;
  }
}
