package io.sf2loki.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.app.config.ConfigExample;
import io.sf2loki.app.config.ConfigReference;
import io.sf2loki.app.config.ConfigSchema;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

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
}
