package io.sf2loki.app.cli;

import java.nio.file.Path;
import java.util.Optional;

/**
 * What the commands of {@link Cli} do, implemented by the application wiring (the CLI only parses
 * arguments). Every method returns the process exit status of the SPEC CLI table; none calls {@code
 * System.exit}. A method may throw: {@link Cli} then prints {@code sf2loki: <message>} to stderr
 * and returns 1 (a crash).
 */
public interface CommandActions {
  /**
   * No command, or {@code run} (SPEC CLI-3, CLI-4, CLI-5): load and validate configuration, then
   * either only check it ({@code checkOnly}) or run the daemon until the stop signal.
   *
   * @param configOrNull the {@code --config} path, or null when not given
   * @param checkOnly {@code --check} was given
   * @return 0 clean stop / finite run / check OK; 1 crash or startup auth failure; 2 config/build
   *     error
   */
  int run(Path configOrNull, boolean checkOnly);

  /**
   * {@code demo} (SPEC FEAT-17).
   *
   * @return 0 when the demo completed
   */
  int demo(DemoOptions options);

  /**
   * {@code sim} (SPEC FEAT-18): serves the simulated org until stopped.
   *
   * @return 0 after a clean stop (SIGTERM/SIGINT)
   */
  default int sim(SimOptions options) {
    throw new UnsupportedOperationException("sim is not available in this build");
  }

  /**
   * The {@code service.health_addr} of the configuration, used as the {@code healthcheck} default
   * (SPEC CLI-12). Implementations return empty when no configuration is given or it cannot be read
   * (the probe then uses {@code 127.0.0.1:8080}).
   *
   * @param configOrNull the {@code --config} path, or null when not given
   */
  default Optional<String> configuredHealthAddr(Path configOrNull) {
    return Optional.empty();
  }

  /**
   * {@code doctor} (SPEC CLI-10, DOC-1): prints the report to stdout.
   *
   * @param configOrNull the {@code --config} path, or null
   * @param json {@code --json}
   * @param org {@code --org}
   * @param allOrgs {@code --all-orgs} (FEAT-9, DOC-6)
   * @return 0 no FAIL, 1 a FAIL, 2 configuration error or unknown org
   */
  default int doctor(Path configOrNull, boolean json, Optional<String> org, boolean allOrgs) {
    throw new UnsupportedOperationException("doctor is not available in this build");
  }

  /**
   * A {@code state} subcommand (SPEC CLI-7…CLI-9, FEAT-8) on the loaded configuration.
   *
   * @param configOrNull the {@code --config} path, or null
   * @param op the subcommand
   * @return its exit status; 2 when the configuration cannot be loaded (CLI-5)
   */
  default int state(
      Path configOrNull,
      java.util.function.ToIntFunction<io.sf2loki.app.statecmd.StateCommands> op) {
    throw new UnsupportedOperationException("state is not available in this build");
  }

  /**
   * {@code backfill} (SPEC CLI-11, BF-1…BF-11, FEAT-4): prints the summary (or the dry-run plan) to
   * stdout.
   *
   * @param configOrNull the {@code --config} path, or null
   * @return 0 done; 1 push abandoned or discovery failed; 2 configuration error or unknown org
   */
  default int backfill(Path configOrNull, io.sf2loki.app.backfill.BackfillRequest request) {
    throw new UnsupportedOperationException("backfill is not available in this build");
  }
}
