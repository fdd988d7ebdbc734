package io.sf2loki.app.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.sf2loki.app.config.ConfigLoader;
import io.sf2loki.app.config.OrgConfig;
import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.app.testing.RepoRoot;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every 1.x configuration example with {@code transforms} in docs/SPEC.md and README.md (each
 * fenced {@code yaml} block that mentions {@code transforms}) loads unchanged, passes the daemon's
 * build checks and compiles to the sources' chains (issue 15 acceptance; SPEC XF-1, CFG-19).
 */
class TransformExamplesTest {
  private static final Pattern YAML_BLOCK = Pattern.compile("(?ms)^```yaml\\n(.*?)^```");
  private static final Map<String, String> ENV =
      Map.of("SF_PRIVATE_KEY", "PEM", "SF_TRANSFORM_SALT", "pepper", "LOKI_TOKEN", "tok");

  @TempDir Path dir;

  static List<String> examples(Path doc) throws Exception {
    List<String> out = new ArrayList<>();
    Matcher m = YAML_BLOCK.matcher(Files.readString(doc));
    while (m.find()) {
      if (m.group(1).contains("transforms")) {
        out.add(m.group(1));
      }
    }
    return out;
  }

  @Test
  @DisplayName(
      "XF-1, CFG-19: every configuration example with transforms in SPEC and README loads"
          + " unchanged, is not refused at build time and compiles per source")
  void xf1_documentedExamplesLoadAndCompile() throws Exception {
    Path root = RepoRoot.find();
    List<String> spec = examples(root.resolve("docs/SPEC.md"));
    assertThat(spec).as("SPEC carries at least one transforms example").isNotEmpty();
    List<String> all = new ArrayList<>(spec);
    examples(root.resolve("README.md")).stream()
        .filter(y -> y.contains("salesforce:"))
        .forEach(all::add);
    Map<String, Integer> rulesPerSource = new HashMap<>();
    for (int i = 0; i < all.size(); i++) {
      Path file = dir.resolve("example-" + i + ".yaml");
      Files.writeString(file, all.get(i));
      Sf2lokiConfig cfg = new ConfigLoader().load(file, ENV);
      BuildSupport.check(cfg); // no refusal of transforms (exit 2 before this build)
      try (SdkMeterProvider meters = SdkMeterProvider.builder().build();
          Sf2lokiMetrics m = new Sf2lokiMetrics(meters, "test")) {
        for (OrgConfig org : cfg.orgs()) {
          OrgTransforms t = OrgTransforms.of(org, m);
          rulesPerSource.merge("pubsub", t.pubsub().isEmpty() ? 0 : 1, Integer::sum);
          rulesPerSource.merge("objects", t.objects().isEmpty() ? 0 : 1, Integer::sum);
          rulesPerSource.merge("elf", t.eventLogFile().isEmpty() ? 0 : 1, Integer::sum);
          rulesPerSource.merge("apexlog", t.apexLog().isEmpty() ? 0 : 1, Integer::sum);
        }
      }
    }
    assertThat(rulesPerSource)
        .as("the examples cover transforms on every source")
        .allSatisfy((source, n) -> assertThat(n).as(source).isPositive());
  }

  @Test
  @DisplayName("CFG-1, XF-1: the full 1.x fixture with transforms on three sources builds")
  void xf1_full1xFixtureBuilds() throws Exception {
    Path fixture = RepoRoot.find().resolve("sf2loki-app/src/test/resources/config/full-1x.yaml");
    Sf2lokiConfig cfg = new ConfigLoader().load(fixture, ENV);
    BuildSupport.check(cfg);
    try (SdkMeterProvider meters = SdkMeterProvider.builder().build();
        Sf2lokiMetrics m = new Sf2lokiMetrics(meters, "test")) {
      OrgTransforms t = OrgTransforms.of(cfg.orgs().get(0), m);
      assertThat(t.eventLogFile().isEmpty()).isFalse();
      assertThat(t.objects().dropRowRuleNames()).containsExactly("drop_row-0");
    }
  }
}
