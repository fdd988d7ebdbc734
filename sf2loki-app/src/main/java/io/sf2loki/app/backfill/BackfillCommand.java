package io.sf2loki.app.backfill;

import java.nio.file.Path;
import java.time.InstantSource;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code backfill --since YYYY-MM-DD [--until …] [--event-types A,B] [--interval Daily|Hourly]
 * [--ingest-timestamps] [--concurrency N] [--org NAME] [--dry-run] [--max-bytes-per-second N]}
 * (SPEC CLI-11, CLI-20, BF-1…BF-11, FEAT-4). Parses and validates; a bad value is a usage error
 * (exit 2); the run itself is the {@link Action}'s.
 */
@Command(
    name = "backfill",
    description =
        "Ingest EventLogFile history for one org, once (BF-1…BF-11); --dry-run only lists what"
            + " would be ingested (FEAT-4).",
    footer =
        "%nExit status (CLI-11): 0 done (failed types are reported); 1 a push was abandoned"
            + " (BF-9), discovery or authentication failed, or the run was stopped before the end"
            + " (rerun to resume, BF-12); 2 bad date, type, configuration or org.")
public final class BackfillCommand implements Callable<Integer> {
  /** What runs a validated request. */
  @FunctionalInterface
  public interface Action {
    /**
     * @param configOrNull the {@code --config} path, or null
     * @return the exit status of the CLI table
     */
    int backfill(Path configOrNull, BackfillRequest request);
  }

  private final Supplier<Path> config;
  private final Consumer<CommandLine.Model.CommandSpec> rejectRootOptions;
  private final Action action;
  private final InstantSource clock;

  @Option(
      names = "--since",
      required = true,
      paramLabel = "YYYY-MM-DD",
      description = "First UTC day (inclusive).")
  String since;

  @Option(
      names = "--until",
      paramLabel = "YYYY-MM-DD",
      description = "End UTC day (exclusive; default now).")
  String until;

  @Option(
      names = "--event-types",
      paramLabel = "A,B",
      description = "EventTypes, or * (default: configured explicit types, else discovery).")
  String eventTypes;

  @Option(
      names = "--interval",
      paramLabel = "Daily|Hourly",
      description =
          "Log file interval, any case (default: sources.eventlogfile.interval of the config).")
  String interval;

  @Option(
      names = "--ingest-timestamps",
      description = "Stamp rows with ingest time, label backfill=\"ingest\" (BF-8).")
  boolean ingestTimestamps;

  @Option(
      names = "--concurrency",
      paramLabel = "N",
      defaultValue = "2",
      description = "Downloads in flight (default: ${DEFAULT-VALUE}).")
  int concurrency;

  @Option(names = "--org", paramLabel = "NAME", description = "The org (default: first).")
  String org;

  @Option(
      names = "--dry-run",
      description =
          "List files, bytes, API calls and an estimate; download, push and commit nothing (FEAT-4).")
  boolean dryRun;

  @Option(
      names = "--max-bytes-per-second",
      paramLabel = "N",
      defaultValue = "0",
      description = "Cap on pushed line bytes per second, 0 = none (CLI-20).")
  long maxBytesPerSecond;

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  /**
   * @param config the global {@code --config} of the invocation
   * @param rejectRootOptions throws a usage error for root-only options (CLI-1 {@code --check})
   * @param action runs the request
   * @param clock "now" (the default {@code --until})
   */
  public BackfillCommand(
      Supplier<Path> config,
      Consumer<CommandLine.Model.CommandSpec> rejectRootOptions,
      Action action,
      InstantSource clock) {
    this.config = Objects.requireNonNull(config);
    this.rejectRootOptions = Objects.requireNonNull(rejectRootOptions);
    this.action = Objects.requireNonNull(action);
    this.clock = Objects.requireNonNull(clock);
  }

  @Override
  public Integer call() {
    rejectRootOptions.accept(spec);
    BackfillRequest request;
    try {
      request =
          BackfillRequest.parse(
              since,
              until,
              eventTypes,
              interval,
              ingestTimestamps,
              concurrency,
              org,
              dryRun,
              maxBytesPerSecond,
              clock.instant());
    } catch (BackfillRequest.InvalidRequestException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    return action.backfill(config.get(), request);
  }
}
