package io.sf2loki.app.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.sf2loki.app.testing.RepoRoot;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The Prometheus rules of the monitoring pack (SPEC DEP-9) checked and unit-tested by the real
 * {@code promtool} (Debian package {@code prometheus}), and held to the pack's conventions.
 */
class MonitoringRulesTest {
  private static final Duration LIMIT = Duration.ofSeconds(60);
  static final String RUNBOOK = "https://github.com/rknightion/sf2loki/blob/main/docs/runbook.md#";
  private final MonitoringPack pack = new MonitoringPack();

  /** Runs {@code promtool <verb> rules <files>} in the rules directory. */
  private ExternalTool.Result promtool(String verb, List<java.nio.file.Path> files)
      throws Exception {
    List<String> args = new ArrayList<>(List.of(verb, "rules"));
    files.forEach(f -> args.add(f.toString()));
    return ExternalTool.require("promtool", "prometheus").run(pack.prometheusDir(), LIMIT, args);
  }

  @Test
  @DisplayName("DEP-9: promtool check rules accepts both rule files")
  void dep9_promtoolCheckRules() throws Exception {
    ExternalTool.Result r = promtool("check", pack.ruleFiles());

    assertThat(r.exitCode()).as(r.output()).isZero();
    long alerts = pack.rules().stream().filter(MonitoringPack.Rule::alert).count();
    long records = pack.rules().size() - alerts;
    assertThat(r.output())
        .contains("SUCCESS: " + alerts + " rules found")
        .contains("SUCCESS: " + records + " rules found");
  }

  @Test
  @DisplayName("DEP-9: promtool test rules passes every unit-test file (firing and quiet series)")
  void dep9_promtoolTestRules() throws Exception {
    assertThat(pack.ruleTestFiles()).hasSizeGreaterThanOrEqualTo(2);

    ExternalTool.Result r = promtool("test", pack.ruleTestFiles());

    assertThat(r.exitCode()).as(r.output()).isZero();
    assertThat(r.output()).doesNotContain("FAILED");
    assertThat(Pattern.compile("SUCCESS").matcher(r.output()).results().count())
        .isEqualTo(pack.ruleTestFiles().size());
  }

  @Test
  @DisplayName(
      "DEP-9: every alert has a promtool case where it fires and one where it does not; every"
          + " recording rule has an expression test")
  void dep9_everyRuleIsUnitTested() {
    Set<String> fired = new HashSet<>();
    Set<String> quiet = new HashSet<>();
    Set<String> exprTested = new HashSet<>();
    Pattern recorded = Pattern.compile("\\bsf2loki_[A-Za-z0-9_]*:[A-Za-z0-9_:]+");
    for (var f : pack.ruleTestFiles()) {
      for (JsonNode test : MonitoringPack.read(MonitoringPack.YAML, f).path("tests")) {
        for (JsonNode a : test.path("alert_rule_test")) {
          String name = a.path("alertname").asText();
          (a.path("exp_alerts").isEmpty() ? quiet : fired).add(name);
        }
        for (JsonNode e : test.path("promql_expr_test")) {
          Matcher m = recorded.matcher(e.path("expr").asText());
          while (m.find()) {
            exprTested.add(m.group());
          }
        }
      }
    }
    for (MonitoringPack.Rule r : pack.rules()) {
      if (r.alert()) {
        assertThat(fired).as("a firing case for %s", r.name()).contains(r.name());
        assertThat(quiet).as("a not-firing case for %s", r.name()).contains(r.name());
      } else {
        assertThat(exprTested).as("an expression test of %s", r.name()).contains(r.name());
      }
    }
  }

  @Test
  @DisplayName(
      "DEP-9: rule groups evaluate every 60 s; every alert carries severity and service labels, a"
          + " summary, a description and a runbook_url to its own section of docs/runbook.md")
  void dep9_alertsCarryLabelsAndRunbook() throws Exception {
    List<java.nio.file.Path> files = new ArrayList<>(pack.ruleFiles());
    files.add(pack.lokiRulesFile());
    for (var f : files) {
      for (JsonNode g : MonitoringPack.read(MonitoringPack.YAML, f).path("groups")) {
        assertThat(g.path("interval").asText()).as(g.path("name").asText()).isEqualTo("60s");
      }
    }
    String runbook = Files.readString(RepoRoot.find().resolve("docs/runbook.md"));
    Set<String> headings = new TreeSet<>();
    Matcher h = Pattern.compile("(?m)^## (\\S+)$").matcher(runbook);
    while (h.find()) {
      headings.add(h.group(1));
    }
    List<MonitoringPack.Rule> all = new ArrayList<>(pack.rules());
    all.addAll(pack.lokiRules());
    for (MonitoringPack.Rule r : all) {
      if (!r.alert()) {
        assertThat(r.name()).as("recording rule names are level:metric:op").contains(":");
        continue;
      }
      assertThat(r.name()).matches("sf2loki-[a-z0-9-]+");
      JsonNode labels = r.node().path("labels");
      assertThat(labels.path("severity").asText()).as(r.name()).isIn("warning", "critical");
      assertThat(labels.path("service").asText()).as(r.name()).isEqualTo("sf2loki");
      JsonNode ann = r.node().path("annotations");
      assertThat(ann.path("summary").asText()).as(r.name()).isNotBlank();
      assertThat(ann.path("description").asText()).as(r.name()).isNotBlank();
      assertThat(ann.path("runbook_url").asText()).isEqualTo(RUNBOOK + r.name());
      assertThat(headings).as("docs/runbook.md has a section ## %s", r.name()).contains(r.name());
    }
  }

  @Test
  @DisplayName(
      "DEP-9: every alert and recording rule named in the SPEC exists in the Prometheus rule"
          + " files or the Loki ruler file")
  void dep9_specNamedRulesExist() throws Exception {
    String spec = Files.readString(RepoRoot.find().resolve("docs/SPEC.md"));
    int start = spec.indexOf("- **DEP-9**");
    String dep9 = spec.substring(start, spec.indexOf("- **DEP-10**", start));
    Set<String> defined = new HashSet<>();
    pack.rules().forEach(r -> defined.add(r.name()));
    pack.lokiRules().forEach(r -> defined.add(r.name()));
    Matcher m =
        Pattern.compile("`(sf2loki-[a-z0-9-]+|sf2loki_[a-z0-9_]+:[a-z0-9_]+)`").matcher(dep9);
    int named = 0;
    while (m.find()) {
      named++;
      assertThat(defined).as("DEP-9 names %s", m.group(1)).contains(m.group(1));
    }
    assertThat(named).isGreaterThanOrEqualTo(12);
  }

  @Test
  @DisplayName(
      "DEP-9, SRC-7: Loki ruler rules select streams only by labels sf2loki sets and look back at"
          + " least 6 h over EventLogFile data")
  void dep9_lokiRulesUseShippedLabelsAndElfLookback() {
    Set<String> streamLabels =
        Set.of("job", "service_name", "environment", "sf_org_id", "source", "event_type");
    Pattern selector = Pattern.compile("\\{([^{}]*)}");
    Pattern matcher = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)\\s*(=~|!~|!=|=)");
    Pattern range = Pattern.compile("\\[(\\d+)([smhd])]");
    assertThat(pack.lokiRules()).hasSizeGreaterThanOrEqualTo(5);
    for (MonitoringPack.Rule r : pack.lokiRules()) {
      Matcher sel = selector.matcher(r.expr());
      int selectors = 0;
      while (sel.find()) {
        if (sel.group(1).contains("$")) {
          continue; // template braces, not a selector
        }
        selectors++;
        Matcher m = matcher.matcher(sel.group(1));
        while (m.find()) {
          assertThat(streamLabels)
              .as("%s selects by label %s", r.name(), m.group(1))
              .contains(m.group(1));
        }
      }
      assertThat(selectors).as(r.name()).isPositive();
      if (r.expr().contains("source=\"eventlogfile\"")) {
        Matcher w = range.matcher(r.expr());
        while (w.find()) {
          long n = Long.parseLong(w.group(1));
          long seconds =
              switch (w.group(2)) {
                case "s" -> n;
                case "m" -> n * 60;
                case "h" -> n * 3600;
                default -> n * 86400;
              };
          assertThat(seconds).as("%s ELF lookback", r.name()).isGreaterThanOrEqualTo(6 * 3600);
        }
      }
    }
  }
}
