package io.sf2loki.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Parsing of {@code doctor}, {@code state} and {@code completion} (CLI-1, CLI-10, CLI-15). */
class OperatorCommandsCliTest {
  final List<String> calls = new ArrayList<>();
  final StringWriter out = new StringWriter();
  final StringWriter err = new StringWriter();
  final Cli cli =
      new Cli(
          new CommandActions() {
            @Override
            public int run(Path configOrNull, boolean checkOnly) {
              calls.add("run");
              return 0;
            }

            @Override
            public int demo(DemoOptions options) {
              return 0;
            }

            @Override
            public int doctor(
                Path configOrNull, boolean json, Optional<String> org, boolean allOrgs) {
              calls.add(
                  "doctor config="
                      + configOrNull
                      + " json="
                      + json
                      + " org="
                      + org
                      + (allOrgs ? " all-orgs" : ""));
              return 1;
            }

            @Override
            public int state(
                Path configOrNull,
                java.util.function.ToIntFunction<io.sf2loki.app.statecmd.StateCommands> op) {
              calls.add("state config=" + configOrNull);
              return 0;
            }
          },
          new PrintWriter(out, true),
          new PrintWriter(err, true),
          new HealthProbe(Duration.ofSeconds(3)));

  @Test
  @DisplayName(
      "CLI-10/CLI-1: doctor --json --org NAME reaches the action with --config given before or"
          + " after the command, and its exit status is returned")
  void doctor() {
    assertThat(cli.execute("--config", "c.yaml", "doctor", "--json", "--org", "a")).isEqualTo(1);
    assertThat(cli.execute("doctor", "--config", "c.yaml")).isEqualTo(1);
    assertThat(calls)
        .containsExactly(
            "doctor config=c.yaml json=true org=Optional[a]",
            "doctor config=c.yaml json=false org=Optional.empty");
  }

  @Test
  @DisplayName(
      "FEAT-9/DOC-6: doctor --all-orgs reaches the action; with --org it is a usage error (exit 2)")
  void doctorAllOrgs() {
    assertThat(cli.execute("doctor", "--all-orgs", "--json", "--config", "c.yaml")).isEqualTo(1);
    assertThat(cli.execute("doctor", "--all-orgs", "--org", "a")).isEqualTo(2);
    assertThat(calls).containsExactly("doctor config=c.yaml json=true org=Optional.empty all-orgs");
  }

  @Test
  @DisplayName(
      "CLI-7/CLI-8/FEAT-8: state subcommands parse; import takes --merge or --replace, not both;"
          + " a bare 'state' is a usage error (exit 2)")
  void state() {
    assertThat(cli.execute("state", "show", "--key", "pubsub:*", "--config", "c.yaml")).isZero();
    assertThat(cli.execute("state", "set", "k", "v", "--i-stopped-the-daemon")).isZero();
    assertThat(cli.execute("state", "import", "f.json", "--replace", "--force")).isZero();
    assertThat(cli.execute("state", "import", "f.json", "--replace", "--merge")).isEqualTo(2);
    assertThat(cli.execute("state")).isEqualTo(2);
    assertThat(calls)
        .containsExactly("state config=c.yaml", "state config=null", "state config=null");
  }

  @Test
  @DisplayName(
      "CLI-22: state set with an empty or blank value is a usage error (exit 2) that says a"
          + " checkpoint value cannot be empty and points at state delete; nothing is written")
  void cli22_stateSetRefusesEmptyValue() {
    assertThat(cli.execute("state", "set", "pubsub:/event/LoginEventStream", "")).isEqualTo(2);
    assertThat(err.toString())
        .contains("sf2loki: a checkpoint value cannot be empty")
        .contains("state delete pubsub:/event/LoginEventStream")
        .contains("Usage:");
    assertThat(cli.execute("state", "set", "apexlog", "  ", "--force")).isEqualTo(2);
    assertThat(calls).isEmpty();
  }

  @Test
  @DisplayName(
      "CLI-15: completion prints a bash completion script covering every command, needs no"
          + " configuration, exit 0; an unknown shell is a usage error")
  void completion() {
    assertThat(cli.execute("completion")).isZero();
    assertThat(out.toString())
        .contains("complete -F _complete_sf2loki")
        .contains("doctor")
        .contains("state")
        .contains("healthcheck");
    assertThat(cli.execute("completion", "fish")).isEqualTo(2);
    assertThat(calls).isEmpty();
  }
}
