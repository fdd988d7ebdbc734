package io.sf2loki.app.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sf2loki.app.demo.DemoScenario;
import io.sf2loki.app.e2e.support.RunningDaemon;
import io.sf2loki.app.testing.RetainingMetricReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A real Prometheus (Debian package) scrapes the real daemon's {@code /metrics} on loopback
 * (FEAT-15) while it ships the simulated org's EventLogFiles, evaluates the pack's recording and
 * alerting rules on that live data, and serves the recorded series over its HTTP API.
 */
class PrometheusScrapeEndToEndTest {
  private static final Duration LIMIT = Duration.ofSeconds(20);
  private final List<AutoCloseable> owned = new ArrayList<>();
  private final MonitoringPack pack = new MonitoringPack();

  @AfterEach
  void stopAll() throws Exception {
    for (int i = owned.size() - 1; i >= 0; i--) {
      owned.get(i).close();
    }
  }

  /** Copies a rule file with the group intervals removed, so the 1 s global interval applies. */
  private static void copyRulesEvaluatedEverySecond(Path from, Path to) throws Exception {
    JsonNode doc = MonitoringPack.read(MonitoringPack.YAML, from);
    for (JsonNode g : doc.path("groups")) {
      ((ObjectNode) g).remove("interval");
    }
    MonitoringPack.YAML.writeValue(to.toFile(), doc);
  }

  @Test
  @DisplayName(
      "DEP-9, FEAT-15, OBS-2: Prometheus scrapes the running daemon, every pack rule evaluates"
          + " without error on live series and the recorded series are served by the HTTP API")
  void dep9_prometheusEvaluatesPackRulesOnLiveDaemon() throws Exception {
    ExternalTool prometheus = ExternalTool.require("prometheus", "prometheus");
    DemoScenario scenario = DemoScenario.start(40, false, true, Instant.now());
    owned.add(scenario);
    Path cfg =
        scenario.writeConfig(
            scenario.receiver().pushUrl(), scenario.dir().resolve("state/state.json"));
    RunningDaemon daemon = RunningDaemon.start(cfg, new RetainingMetricReader());
    owned.add(daemon);
    await().atMost(LIMIT).until(() -> daemon.daemon().healthPort() > 0);
    await()
        .atMost(LIMIT)
        .until(() -> scenario.receiver().entries().size() >= scenario.expectedRows());

    Path work = Files.createTempDirectory("sf2loki-prometheus-");
    owned.add(() -> deleteTree(work));
    Path rules = Files.createDirectories(work.resolve("rules"));
    List<String> ruleFiles = new ArrayList<>();
    for (Path f : pack.ruleFiles()) {
      copyRulesEvaluatedEverySecond(f, rules.resolve(f.getFileName()));
      ruleFiles.add("rules/" + f.getFileName());
    }
    Path promCfg = work.resolve("prometheus.yml");
    Files.writeString(
        promCfg,
        """
        global:
          scrape_interval: 1s
          evaluation_interval: 1s
        rule_files: [%s]
        scrape_configs:
          - job_name: sf2loki
            metrics_path: /metrics
            static_configs:
              - targets: ["127.0.0.1:%d"]
        """
            .formatted(String.join(", ", ruleFiles), daemon.daemon().healthPort()));
    PrometheusServer server = PrometheusServer.start(prometheus, promCfg, work);
    owned.add(server);

    await()
        .atMost(LIMIT)
        .pollInterval(Duration.ofMillis(250))
        .until(() -> server.query("sf2loki_events:count5m").size() > 0);

    JsonNode count = server.query("sf2loki_events:count5m");
    Set<String> types = new HashSet<>();
    for (JsonNode s : count) {
      assertThat(s.path("metric").path("job").asText()).isEqualTo("sf2loki");
      assertThat(s.path("metric").path("source").asText()).isEqualTo("eventlogfile");
      types.add(s.path("metric").path("event_type").asText());
    }
    assertThat(types).containsAll(scenario.eventTypes());
    JsonNode leaders = server.query("sf2loki_leader:sum");
    assertThat(leaders).hasSize(1);
    assertThat(leaders.get(0).path("value").get(1).asDouble()).isEqualTo(1.0);
    JsonNode age = server.query("sf2loki_last_push_success:age_seconds");
    assertThat(age).hasSize(1);
    assertThat(age.get(0).path("value").get(1).asDouble()).isBetween(-5.0, 60.0);

    // every rule of both files has been evaluated on the live series without an error
    await()
        .atMost(LIMIT)
        .pollInterval(Duration.ofMillis(250))
        .untilAsserted(() -> assertAllRulesHealthy(server));

    // every Prometheus query of every dashboard is valid PromQL on the live series
    int withData = 0;
    for (MonitoringPack.PanelQuery q : pack.panelQueries()) {
      if (!q.datasourceUid().equals("${ds_prom}")) {
        continue;
      }
      String expr = grafanaVariablesResolved(q.expr());
      JsonNode r =
          server.api(
              "/api/v1/query?query="
                  + java.net.URLEncoder.encode(expr, java.nio.charset.StandardCharsets.UTF_8));
      assertThat(r.path("status").asText())
          .as("%s / %s: %s -> %s", q.dashboard(), q.panel(), expr, r.path("error"))
          .isEqualTo("success");
      if (!r.path("data").path("result").isEmpty()) {
        withData++;
      }
    }
    assertThat(withData)
        .as("dashboard queries answered with live series")
        .isGreaterThanOrEqualTo(20);
  }

  /** The dashboard template variables as Grafana would expand them for "All" over 1 m steps. */
  static String grafanaVariablesResolved(String expr) {
    return expr.replace("$__rate_interval", "1m")
        .replace("$__interval", "1m")
        .replace("$__range", "5m")
        .replace("$job", ".*")
        .replace("$instance", ".*");
  }

  private void assertAllRulesHealthy(PrometheusServer server) throws Exception {
    JsonNode groups = server.api("/api/v1/rules").path("data").path("groups");
    Set<String> seen = new HashSet<>();
    for (JsonNode g : groups) {
      for (JsonNode r : g.path("rules")) {
        String name = r.path("name").asText();
        assertThat(r.path("lastEvaluation").asText()).as(name).doesNotStartWith("0001-");
        assertThat(r.path("health").asText()).as(name + ": " + r.path("lastError")).isEqualTo("ok");
        seen.add(name);
      }
    }
    Set<String> expected = new HashSet<>();
    pack.rules().forEach(r -> expected.add(r.name()));
    assertThat(seen).isEqualTo(expected);
  }

  private static void deleteTree(Path dir) throws Exception {
    try (var walk = Files.walk(dir)) {
      walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
