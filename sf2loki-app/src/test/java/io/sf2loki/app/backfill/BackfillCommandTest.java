package io.sf2loki.app.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.app.cli.Cli;
import io.sf2loki.app.cli.CommandActions;
import io.sf2loki.app.cli.DemoOptions;
import io.sf2loki.app.cli.HealthProbe;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Parsing and validation of {@code backfill} (CLI-11, CLI-20, BF-3, BF-4). */
class BackfillCommandTest {
  final List<BackfillRequest> requests = new ArrayList<>();
  final List<Path> configs = new ArrayList<>();
  final StringWriter err = new StringWriter();
  final StringWriter out = new StringWriter();
  final Cli cli =
      new Cli(
          new CommandActions() {
            @Override
            public int run(Path configOrNull, boolean checkOnly) {
              return 0;
            }

            @Override
            public int demo(DemoOptions options) {
              return 0;
            }

            @Override
            public int backfill(Path configOrNull, BackfillRequest request) {
              configs.add(configOrNull);
              requests.add(request);
              return 0;
            }
          },
          new PrintWriter(out, true),
          new PrintWriter(err, true),
          new HealthProbe(Duration.ofSeconds(3)));

  @Test
  @DisplayName(
      "CLI-11, CLI-20, BF-3: every option reaches the request; dates are UTC midnights, --until"
          + " exclusive; defaults: the configured interval (BF-1), concurrency 2, label mode, first"
          + " org, no cap")
  void cli11_parsesEveryOption() {
    assertThat(
            cli.execute(
                "--config",
                "c.yaml",
                "backfill",
                "--since",
                "2026-11-01",
                "--until",
                "2026-11-03",
                "--event-types",
                " Login, ,API,Login ",
                "--interval",
                "Hourly",
                "--ingest-timestamps",
                "--concurrency",
                "4",
                "--org",
                "prod",
                "--dry-run",
                "--max-bytes-per-second",
                "1000"))
        .isZero();
    BackfillRequest r = requests.getFirst();
    assertThat(configs).containsExactly(Path.of("c.yaml"));
    assertThat(r.since()).isEqualTo(Instant.parse("2026-11-01T00:00:00Z"));
    assertThat(r.until()).isEqualTo(Instant.parse("2026-11-03T00:00:00Z"));
    assertThat(r.eventTypes()).contains(List.of("Login", "API"));
    assertThat(r.interval()).isEqualTo("Hourly");
    assertThat(r.ingestTimestamps()).isTrue();
    assertThat(r.concurrency()).isEqualTo(4);
    assertThat(r.org()).contains("prod");
    assertThat(r.dryRun()).isTrue();
    assertThat(r.maxBytesPerSecond()).isEqualTo(1000);

    assertThat(cli.execute("backfill", "--since", "2026-11-01")).isZero();
    BackfillRequest d = requests.get(1);
    assertThat(d.interval()).as("no --interval: the config decides").isNull();
    assertThat(d.withInterval("Hourly").interval()).isEqualTo("Hourly");
    assertThat(r.withInterval("Daily").interval()).as("--interval wins").isEqualTo("Hourly");
    assertThat(d.concurrency()).isEqualTo(2);
    assertThat(d.eventTypes()).isEmpty();
    assertThat(d.org()).isEqualTo(Optional.empty());
    assertThat(d.ingestTimestamps()).isFalse();
    assertThat(d.dryRun()).isFalse();
    assertThat(d.until()).isAfter(d.since());
  }

  @Test
  @DisplayName(
      "BF-3, BF-4, CLI-11: a bad date, an empty range, a bad type, a bad interval or concurrency"
          + " < 1 is a usage error (exit 2) and nothing runs")
  void bf3_badValuesExit2() {
    assertThat(cli.execute("backfill", "--since", "2026-13-01")).isEqualTo(2);
    assertThat(cli.execute("backfill", "--since", "2026-11-03", "--until", "2026-11-03"))
        .isEqualTo(2);
    assertThat(cli.execute("backfill", "--since", "2026-11-01", "--event-types", "Login;DROP"))
        .isEqualTo(2);
    assertThat(cli.execute("backfill", "--since", "2026-11-01", "--event-types", " , "))
        .isEqualTo(2);
    assertThat(cli.execute("backfill", "--since", "2026-11-01", "--interval", "Weekly"))
        .isEqualTo(2);
    assertThat(cli.execute("backfill", "--since", "2026-11-01", "--concurrency", "0")).isEqualTo(2);
    assertThat(cli.execute("backfill")).isEqualTo(2); // --since is required
    assertThat(requests).isEmpty();
    assertThat(err.toString())
        .contains("--since must be a date YYYY-MM-DD, not '2026-13-01'")
        .contains("'Login;DROP' is not an EventType name");
  }

  @Test
  @DisplayName("BF-4: --event-types * asks for discovery; explicit names are kept beside it")
  void bf4_wildcard() {
    assertThat(cli.execute("backfill", "--since", "2026-11-01", "--event-types", "*,Login"))
        .isZero();
    assertThat(requests.getFirst().discovers()).isTrue();
    assertThat(requests.getFirst().eventTypes()).contains(List.of("*", "Login"));
  }

  @Test
  @DisplayName(
      "CLI-11, BF-1: --interval accepts daily / HOURLY in any case and passes Salesforce's spelling")
  void cli11_intervalAnyCase() {
    assertThat(cli.execute("backfill", "--since", "2026-11-01", "--interval", "daily")).isZero();
    assertThat(cli.execute("backfill", "--since", "2026-11-01", "--interval", "HOURLY")).isZero();
    assertThat(requests).extracting(BackfillRequest::interval).containsExactly("Daily", "Hourly");
  }

  @Test
  @DisplayName(
      "CLI-11: backfill --help states the exit statuses of the CLI-11 table (1 also for"
          + " authentication failure and a stopped run)")
  void cli11_helpExitStatusesMatchTable() {
    assertThat(cli.execute("backfill", "--help")).isZero();
    String help = out.toString().replaceAll("\\s+", " ");
    assertThat(help)
        .contains("0 done (failed types are reported)")
        .contains("1 a push was abandoned (BF-9), discovery or authentication failed, or the run")
        .contains("stopped before the end (rerun to resume, BF-12)")
        .contains("2 bad date, type, configuration or org");
  }
}
