package io.sf2loki.app.run;

import io.sf2loki.app.cli.CommandActions;
import io.sf2loki.app.cli.DemoOptions;
import io.sf2loki.app.cli.Signals;
import io.sf2loki.app.cli.SimOptions;
import io.sf2loki.app.config.ConfigException;
import io.sf2loki.app.config.ConfigLoader;
import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.app.demo.DemoRunner;
import io.sf2loki.app.demo.SimRunner;
import io.sf2loki.app.logging.LogSetup;
import io.sf2loki.core.time.StopSignal;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * The real command actions of the CLI (SPEC CLI-3, CLI-4, CLI-5, FEAT-17): load and validate the
 * configuration, then run the daemon, check only, or run the demo.
 */
public final class AppCommandActions implements CommandActions {
  private final Map<String, String> env;
  private final PrintStream out;
  private final PrintStream err;

  public AppCommandActions(Map<String, String> env, PrintStream out, PrintStream err) {
    this.env = env;
    this.out = out;
    this.err = err;
  }

  /** Actions on the process environment and standard streams. */
  public static AppCommandActions system() {
    return new AppCommandActions(System.getenv(), System.out, System.err);
  }

  @Override
  public int run(Path configOrNull, boolean checkOnly) {
    Sf2lokiConfig cfg;
    try {
      cfg = new ConfigLoader().load(configOrNull, env);
      ConfigLoader.validateForDaemon(cfg);
      Daemon.checkBuildable(cfg);
    } catch (ConfigException | IllegalArgumentException e) {
      err.println((checkOnly ? "config check FAILED: " : "sf2loki: ") + e.getMessage());
      return Daemon.EXIT_CONFIG;
    }
    if (checkOnly) {
      out.println("config check OK");
      return 0;
    }
    LogSetup.configure(cfg.service().logLevel().yaml(), cfg.service().logFormat().yaml());
    StopSignal stop = new StopSignal();
    try (Signals signals = Signals.install(stop)) {
      return new Daemon(cfg, DaemonOptions.production(), err).run(stop);
    }
  }

  @Override
  public int demo(DemoOptions options) {
    StopSignal stop = new StopSignal();
    try (Signals signals = Signals.install(stop)) {
      return new DemoRunner(out, err).run(options, stop);
    }
  }

  @Override
  public int sim(SimOptions options) {
    StopSignal stop = new StopSignal();
    try (Signals signals = Signals.install(stop)) {
      return new SimRunner(out).run(options, stop);
    } catch (java.io.IOException e) {
      err.println("sf2loki: sim cannot start: " + e.getMessage());
      return 1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 0;
    }
  }

  @Override
  public int doctor(Path configOrNull, boolean json, Optional<String> orgName, boolean allOrgs) {
    if (err == System.err
        && org.slf4j.LoggerFactory.getILoggerFactory()
            instanceof ch.qos.logback.classic.LoggerContext ctx) {
      // stdout carries only the report; the sink's own ERROR lines go to stderr
      LogSetup.configure(
          ctx, ch.qos.logback.classic.Level.ERROR, LogSetup.Format.LOGFMT, System.err);
    }
    io.sf2loki.app.doctor.DoctorReport report;
    try {
      report =
          new io.sf2loki.app.doctor.Doctor(env, err, java.time.InstantSource.system())
              .run(configOrNull, orgName, allOrgs);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      err.println("sf2loki: doctor interrupted");
      return Daemon.EXIT_CRASH;
    }
    out.print(json ? report.json() + System.lineSeparator() : report.table());
    out.flush();
    return report.exitCode();
  }

  @Override
  public int state(
      Path configOrNull,
      java.util.function.ToIntFunction<io.sf2loki.app.statecmd.StateCommands> op) {
    Sf2lokiConfig cfg = loadBuildable(configOrNull);
    if (cfg == null) {
      return Daemon.EXIT_CONFIG;
    }
    return op.applyAsInt(
        new io.sf2loki.app.statecmd.StateCommands(cfg, out, err, java.time.InstantSource.system()));
  }

  @Override
  public int backfill(Path configOrNull, io.sf2loki.app.backfill.BackfillRequest request) {
    Sf2lokiConfig cfg = loadBuildable(configOrNull);
    if (cfg == null) {
      return Daemon.EXIT_CONFIG;
    }
    io.sf2loki.app.backfill.Backfill.configureLogging( // logs on stderr, stdout = summary
        cfg.service().logLevel().yaml(), cfg.service().logFormat().yaml());
    StopSignal stop = new StopSignal();
    try (Signals signals = Signals.install(stop)) {
      return new io.sf2loki.app.backfill.Backfill(
              cfg,
              out,
              err,
              io.sf2loki.core.time.TimeSource.system(),
              io.sf2loki.app.backfill.Backfill.stderrIsTerminal())
          .run(request, stop);
    }
  }

  @Override
  public Optional<String> configuredHealthAddr(Path configOrNull) {
    if (configOrNull == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(new ConfigLoader().load(configOrNull, env).service().healthAddr());
    } catch (RuntimeException e) {
      return Optional.empty();
    }
  }

  /**
   * The configuration loaded and checked for buildability (CLI-4), or {@code null} after printing
   * the error (the caller exits {@link Daemon#EXIT_CONFIG}).
   */
  private Sf2lokiConfig loadBuildable(Path configOrNull) {
    try {
      Sf2lokiConfig cfg = new ConfigLoader().load(configOrNull, env);
      Daemon.checkBuildable(cfg);
      return cfg;
    } catch (ConfigException | IllegalArgumentException e) {
      err.println("sf2loki: " + e.getMessage());
      return null;
    }
  }
}
