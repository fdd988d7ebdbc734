package io.sf2loki.app.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.sf2loki.app.testing.RepoRoot;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The shipped monitoring pack under {@code deploy/monitoring/} (SPEC DEP-8, DEP-9): Prometheus rule
 * files, their promtool unit tests and the Grafana dashboards, read as trees.
 */
final class MonitoringPack {
  static final ObjectMapper YAML = new YAMLMapper();
  static final ObjectMapper JSON = new JsonMapper();

  /** One Prometheus rule: {@code alert} or {@code record} name, its expression and file. */
  record Rule(String name, boolean alert, String expr, JsonNode node, Path file) {}

  /** One PromQL or LogQL query of a dashboard panel. */
  record PanelQuery(String dashboard, String panel, String datasourceUid, String expr) {}

  private final Path root = RepoRoot.find().resolve("deploy/monitoring");

  Path root() {
    return root;
  }

  Path prometheusDir() {
    return root.resolve("prometheus");
  }

  Path alertsFile() {
    return prometheusDir().resolve("sf2loki-alerts.rules.yml");
  }

  Path recordingFile() {
    return prometheusDir().resolve("sf2loki-recording.rules.yml");
  }

  List<Path> ruleFiles() {
    return List.of(alertsFile(), recordingFile());
  }

  /** The Loki ruler file (LogQL rules over the shipped log lines). */
  Path lokiRulesFile() {
    return root.resolve("loki/sf2loki-loki.rules.yml");
  }

  List<Path> ruleTestFiles() {
    return list(prometheusDir().resolve("tests"), ".test.yml");
  }

  List<Path> dashboardFiles() {
    return list(root.resolve("grafana/dashboards"), ".json");
  }

  /** Every rule of the Prometheus rule files. */
  List<Rule> rules() {
    return rules(ruleFiles());
  }

  /** Every rule of the Loki ruler file. */
  List<Rule> lokiRules() {
    return rules(List.of(lokiRulesFile()));
  }

  private static List<Rule> rules(List<Path> files) {
    List<Rule> out = new ArrayList<>();
    for (Path f : files) {
      for (JsonNode group : read(YAML, f).path("groups")) {
        for (JsonNode r : group.path("rules")) {
          boolean alert = r.has("alert");
          String name = alert ? r.get("alert").asText() : r.path("record").asText();
          out.add(new Rule(name, alert, r.path("expr").asText(), r, f));
        }
      }
    }
    return out;
  }

  /** Every query of every dashboard panel, rows' nested panels included. */
  List<PanelQuery> panelQueries() {
    List<PanelQuery> out = new ArrayList<>();
    for (Path f : dashboardFiles()) {
      JsonNode d = read(JSON, f);
      collect(d.path("title").asText(), d.path("panels"), out);
    }
    return out;
  }

  private static void collect(String dashboard, JsonNode panels, List<PanelQuery> out) {
    for (JsonNode p : panels) {
      collect(dashboard, p.path("panels"), out);
      for (JsonNode t : p.path("targets")) {
        JsonNode ds = t.has("datasource") ? t.get("datasource") : p.path("datasource");
        out.add(
            new PanelQuery(
                dashboard,
                p.path("title").asText(),
                ds.path("uid").asText(),
                t.path("expr").asText()));
      }
    }
  }

  static JsonNode read(ObjectMapper mapper, Path f) {
    try {
      return mapper.readTree(f.toFile());
    } catch (IOException e) {
      throw new UncheckedIOException(f.toString(), e);
    }
  }

  private static List<Path> list(Path dir, String suffix) {
    try (Stream<Path> s = Files.list(dir)) {
      return s.filter(p -> p.getFileName().toString().endsWith(suffix)).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(dir.toString(), e);
    }
  }
}
