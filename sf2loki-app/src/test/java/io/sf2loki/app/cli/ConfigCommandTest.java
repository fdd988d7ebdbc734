package io.sf2loki.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.app.config.ConfigExample;
import io.sf2loki.app.config.ConfigReference;
import io.sf2loki.app.config.ConfigSchema;
import io.sf2loki.app.config.HelmValues;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code config example|reference|schema} (SPEC CLI-6, CFG-26). */
class ConfigCommandTest {
  final CliTest.Recording actions = new CliTest.Recording();
  final StringWriter out = new StringWriter();
  final StringWriter err = new StringWriter();
  final Cli cli =
      new Cli(
          actions,
          new PrintWriter(out, true),
          new PrintWriter(err, true),
          new HealthProbe(Duration.ofSeconds(3)));

  @Test
  @DisplayName("CLI-6: config example|reference|schema print the generated document, exit 0")
  void printsDocuments() {
    assertThat(cli.execute("config", "example")).isZero();
    assertThat(out.toString()).isEqualTo(ConfigExample.render());
    out.getBuffer().setLength(0);
    assertThat(cli.execute("config", "reference")).isZero();
    assertThat(out.toString()).isEqualTo(ConfigReference.render());
    out.getBuffer().setLength(0);
    assertThat(cli.execute("config", "schema")).isZero();
    assertThat(out.toString())
        .isEqualTo(ConfigSchema.render())
        .contains("https://json-schema.org/draft/2020-12/schema");
    assertThat(actions.calls).isEmpty(); // CLI-6: needs no configuration
  }

  @Test
  @DisplayName("CLI-6: an unknown document is a usage error (exit 2)")
  void unknownDocument() {
    assertThat(cli.execute("config", "helm")).isEqualTo(Cli.EXIT_USAGE);
    assertThat(err.toString()).contains("unknown document 'helm'");
  }

  @Test
  @DisplayName("CLI-6: config helm-values without --config prints the chart's config region")
  void cli6_helmValuesRegion() {
    assertThat(cli.execute("config", "helm-values")).isZero();
    assertThat(out.toString()).isEqualTo(HelmValues.region()).contains("# >>> BEGIN generated");
  }

  @Test
  @DisplayName("CLI-18: config helm-values --config prints values; Secret keys named on stderr")
  void cli18_helmValuesForConfig(@TempDir Path dir) throws Exception {
    Path cfg = dir.resolve("c.yaml");
    Files.writeString(
        cfg,
        "salesforce: {client_id: c, username: u, private_key_file: /k/jwt.key}\n"
            + "sink: {loki: {url: \"http://loki/x\"}}\n");
    assertThat(cli.execute("--config", cfg.toString(), "config", "helm-values")).isZero();
    assertThat(out.toString())
        .contains("private_key_file: /etc/sf2loki/secrets/private_key")
        .contains("replicaCount: 1");
    assertThat(err.toString()).contains("create the Secret keys private_key");
  }

  @Test
  @DisplayName("CLI-19: config helm-values with an invalid --config exits 2 with sf2loki: <error>")
  void cli19_helmValuesBadConfig(@TempDir Path dir) throws Exception {
    Path cfg = dir.resolve("c.yaml");
    Files.writeString(cfg, "salesforce: [not, a, mapping]\n");
    assertThat(cli.execute("config", "helm-values", "--config", cfg.toString()))
        .isEqualTo(Cli.EXIT_USAGE);
    assertThat(err.toString()).startsWith("sf2loki: ");
    assertThat(out.toString()).isEmpty();
  }
}
