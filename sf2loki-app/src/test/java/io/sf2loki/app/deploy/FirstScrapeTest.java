package io.sf2loki.app.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.opentelemetry.sdk.metrics.data.MetricData;
import io.sf2loki.app.e2e.support.PubSubScenario;
import io.sf2loki.app.e2e.support.RunningDaemon;
import io.sf2loki.app.testing.RepoRoot;
import io.sf2loki.app.testing.RetainingMetricReader;
import io.sf2loki.sim.org.Fault;
import io.sf2loki.sim.org.SimEndpoint;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The first {@code /metrics} scrape of a daemon configured with every source (SPEC OBS-20, OBS-5):
 * the daemon is held in its startup auth probe (the simulated token endpoint answers late), so no
 * component has recorded anything yet, and every catalogue metric that applies is served at its
 * idle value; the same text passes {@code promtool check metrics}.
 */
class FirstScrapeTest {
  private static final Duration LIMIT = Duration.ofSeconds(20);
  private static final Pattern ROW =
      Pattern.compile("^\\| `(sf2loki_[a-z0-9_]+)`(?: \\+)? \\| ([^|]+?) \\|", Pattern.MULTILINE);
  private static final List<String> TOPICS =
      List.of("/event/LoginEventStream", "/event/ApiEventStream");

  private PubSubScenario scenario;
  private RunningDaemon daemon;

  @AfterEach
  void stop() throws Exception {
    if (daemon != null) {
      daemon.close();
    }
    if (scenario != null) {
      scenario.close();
    }
  }

  /** Catalogue name → type column, parsed from the OBS-5 table of docs/SPEC.md. */
  static Map<String, String> catalogue() throws Exception {
    String spec = Files.readString(RepoRoot.find().resolve("docs/SPEC.md"));
    int start = spec.indexOf("**OBS-5**");
    Matcher m = ROW.matcher(spec.substring(start, spec.indexOf("**OBS-6**", start)));
    Map<String, String> rows = new HashMap<>();
    while (m.find()) {
      rows.put(m.group(1), m.group(2).strip());
    }
    return rows;
  }

  /** OBS-20's exemptions: histograms, timestamp gauges and the org-limit gauges. */
  static boolean hasIdleValue(String name, String type) {
    return !type.startsWith("histogram")
        && !name.endsWith("_timestamp_seconds")
        && !name.equals("sf2loki_salesforce_limit_max")
        && !name.equals("sf2loki_salesforce_limit_remaining");
  }

  static String prometheusName(String name, String type) {
    return type.startsWith("counter") ? name + "_total" : name;
  }

  private Path config() throws Exception {
    Path cfg = scenario.writeConfig(TOPICS, "", "");
    String yaml = Files.readString(cfg);
    yaml =
        yaml.replace(
                "  eventlogfile:\n    enabled: false\n",
                """
                  eventlogfile:
                    enabled: true
                    interval: Hourly
                    event_types: [Login, API]
                    transforms:
                      - {action: drop_row, match: {USER_TYPE: Guest}, name: guests}
                  eventlog_objects:
                    enabled: true
                    objects:
                      - {name: LoginHistory, timestamp_field: LoginTime}
                  apexlog:
                    enabled: true
                """)
            .replace(
                "  private_key_file:",
                "  limits:\n    enabled: true\n    reserve_percent: 10\n  private_key_file:")
            .replace(
                "  log_format: logfmt\n",
                "  log_format: logfmt\n  telemetry:\n    prometheus:\n      enabled: true\n");
    Files.writeString(cfg, yaml);
    return cfg;
  }

  private static String scrape(int port) throws Exception {
    try (HttpClient http = HttpClient.newHttpClient()) {
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics")).build(),
              HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
      assertThat(r.statusCode()).isEqualTo(200);
      return r.body();
    }
  }

  /** Sample name → values of the text exposition. */
  static Map<String, List<Double>> samples(String text) {
    Map<String, List<Double>> out = new HashMap<>();
    for (String line : text.split("\n")) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      int brace = line.indexOf('{');
      int space = line.lastIndexOf(' ');
      String name = line.substring(0, brace > 0 ? brace : line.indexOf(' '));
      out.computeIfAbsent(name, k -> new java.util.ArrayList<>())
          .add(Double.parseDouble(line.substring(space + 1)));
    }
    return out;
  }

  @Test
  @DisplayName(
      "OBS-20, OBS-5, OBS-28, FEAT-15: the first scrape of a daemon with every source carries"
          + " every applicable catalogue metric at its idle value (Prometheus and the OTLP reader"
          + " alike) and the JVM runtime metrics, and passes promtool check metrics")
  void obs20_firstScrapeHasEveryApplicableMetricAtIdle() throws Exception {
    scenario = PubSubScenario.start();
    // hold the daemon in its AUTH-9 probe: nothing but the idle series can have been recorded
    scenario.org().faults().add(SimEndpoint.TOKEN, Fault.delay(Duration.ofSeconds(30)));
    RetainingMetricReader reader = new RetainingMetricReader();
    daemon = RunningDaemon.start(config(), reader);
    await().atMost(LIMIT).until(() -> daemon.daemon().healthPort() > 0);
    String text = scrape(daemon.daemon().healthPort());
    Map<String, List<Double>> samples = samples(text);

    Set<String> otlpNames = new HashSet<>();
    for (MetricData md : reader.collectAllMetrics()) {
      otlpNames.add(md.getName());
    }
    Map<String, String> catalogue = catalogue();
    int checked = 0;
    for (Map.Entry<String, String> e : catalogue.entrySet()) {
      String name = e.getKey();
      if (!hasIdleValue(name, e.getValue())) {
        assertThat(samples).as("%s has no idle value (OBS-20)", name).doesNotContainKey(name);
        continue;
      }
      String prom = prometheusName(name, e.getValue());
      assertThat(samples).as("first scrape carries %s", prom).containsKey(prom);
      double idle = name.equals("sf2loki_build_info") ? 1.0 : 0.0;
      assertThat(samples.get(prom)).as("%s at its idle value", prom).containsOnly(idle);
      assertThat(otlpNames).as("OTLP reader carries %s", name).contains(name);
      checked++;
    }
    assertThat(checked).isGreaterThan(50);
    // one zero series per drop reason and per configured topic
    assertThat(text)
        .contains("sf2loki_loki_entries_dropped_total{reason=\"too_old\"} 0")
        .contains(
            "sf2loki_pubsub_stream_stalls_total{topic=\"/event/ApiEventStream\"} 0",
            "sf2loki_soql_poll_errors_total{object=\"LoginHistory\",source=\"eventlog_objects\"} 0",
            "sf2loki_egress_paused 0",
            "sf2loki_rows_filtered_total{rule=\"guests\",source=\"eventlogfile\"} 0");
    // OBS-28: the runtime metrics are served beside the catalogue, outside the sf2loki_ namespace
    assertThat(samples)
        .containsKeys(
            "jvm_memory_used_bytes",
            "jvm_memory_committed_bytes",
            "jvm_threads",
            "jvm_class_loaded_total",
            "jvm_cpu_time_seconds_total",
            "jvm_cpus",
            "jvm_file_descriptors");
    assertThat(text).contains("jvm_memory_pool_name=");
    assertThat(otlpNames)
        .contains(
            "jvm.memory.used", "jvm.thread.count", "jvm.cpu.time", "jvm.file_descriptor.count");
    assertThat(samples.keySet())
        .as("OBS-5/OBS-28: every served name is a catalogue name or a runtime/target metric")
        .allMatch(
            n ->
                n.startsWith("jvm_")
                    || n.equals("target_info")
                    || catalogue.keySet().stream().anyMatch(c -> n.startsWith(c)));

    ExternalTool promtool = ExternalTool.require("promtool", "prometheus");
    Path file = Files.createTempFile("sf2loki-metrics-", ".txt");
    try {
      Files.writeString(file, text);
      ExternalTool.Result r =
          promtool.run(file.getParent(), LIMIT, List.of("check", "metrics"), file);
      assertThat(r.exitCode()).as(r.output()).isZero();
    } finally {
      Files.deleteIfExists(file);
    }
  }
}
