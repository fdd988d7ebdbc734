package io.sf2loki.app.cli;

import io.sf2loki.app.health.HealthAddress;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ScopeType;

/**
 * The {@code sf2loki} command line (SPEC §2): parses arguments with picocli and delegates every
 * action to {@link CommandActions}. Never calls {@code System.exit}; {@link #execute(String...)}
 * returns the exit status.
 *
 * <ul>
 *   <li>CLI-1: {@code --config PATH}, {@code --help}, {@code --version} are accepted before or
 *       after the command; {@code --check} with no command or with {@code run}.
 *   <li>CLI-2: {@code --version} prints {@code sf2loki <version>} ({@link Version}), exit 0.
 *   <li>CLI-3/4/5: no command or {@code run} → {@link CommandActions#run(Path, boolean)}.
 *   <li>CLI-12: {@code healthcheck [--addr HOST:PORT] [--path /healthz]} → {@link HealthProbe}.
 *   <li>FEAT-17: {@code demo [--duration 30s] [--rate N] [--loki-url URL]} → {@link
 *       CommandActions#demo(DemoOptions)}; {@code --config} with {@code demo} is a usage error
 *       (FEAT-17: the demo runs with built-in settings only).
 *   <li>FEAT-18: {@code sim [--rest-port N] [--grpc-port N] [--rate N] [--fault-profile P]
 *       [--loki-port N]} → {@link CommandActions#sim(SimOptions)}.
 *   <li>Argument errors print the message and usage to stderr and return 2. An action that throws
 *       prints {@code sf2loki: <message>} to stderr and returns 1.
 * </ul>
 *
 * <p>More subcommands ({@code config}, {@code doctor}, {@code state}, …) are added with {@link
 * #addSubcommand(String, Object)}; they see the global options through {@link #globalConfig()}.
 */
public final class Cli {
  /** Exit status for argument errors (SPEC §2 table). */
  public static final int EXIT_USAGE = 2;

  /** Exit status when an action throws (a crash). */
  public static final int EXIT_CRASH = 1;

  private final CommandActions actions;
  private final HealthProbe probe;
  private final Root root;
  private final CommandLine commandLine;

  /** A CLI writing to the process's stdout and stderr. */
  public Cli(CommandActions actions) {
    this(
        actions,
        new PrintWriter(System.out, true),
        new PrintWriter(System.err, true),
        new HealthProbe());
  }

  /**
   * @param actions what the commands do
   * @param out where help, version and command output go
   * @param err where errors and usage-on-error go
   * @param probe the {@code healthcheck} HTTP probe
   */
  public Cli(CommandActions actions, PrintWriter out, PrintWriter err, HealthProbe probe) {
    this.actions = Objects.requireNonNull(actions, "actions");
    this.probe = Objects.requireNonNull(probe, "probe");
    this.root = new Root(this);
    this.commandLine = new CommandLine(root);
    commandLine.addSubcommand("run", new Run(this));
    commandLine.addSubcommand("demo", new Demo(this));
    commandLine.addSubcommand("healthcheck", new Healthcheck(this, out, err));
    commandLine.addSubcommand("sim", new Sim(this));
    commandLine.addSubcommand("doctor", new DoctorCommand(this)); // CLI-10, DOC
    commandLine.addSubcommand("state", StateCommand.create(this)); // CLI-7…9, FEAT-8
    commandLine.addSubcommand("completion", new CompletionCommand(this)); // CLI-15
    commandLine.addSubcommand("config", new ConfigCommand(this)); // CLI-6, CFG-26
    commandLine.addSubcommand( // CLI-11, CLI-20, BF, FEAT-4
        "backfill",
        new io.sf2loki.app.backfill.BackfillCommand(
            this::globalConfig,
            this::rejectRootCheck,
            actions::backfill,
            java.time.InstantSource.system()));
    hideInheritedConfig(commandLine.getSubcommands().get("demo")); // FEAT-17: takes no --config
    shareVersion(commandLine);
    commandLine.setOut(out);
    commandLine.setErr(err);
    commandLine.setExitCodeExceptionMapper(t -> EXIT_CRASH);
    commandLine.setParameterExceptionHandler(
        (ex, args) -> {
          CommandLine cmd = ex.getCommandLine();
          PrintWriter w = cmd.getErr();
          w.println("sf2loki: " + ex.getMessage());
          cmd.usage(w);
          w.flush();
          return EXIT_USAGE;
        });
    commandLine.setExecutionExceptionHandler(
        (ex, cmd, parseResult) -> {
          PrintWriter w = cmd.getErr();
          String m = ex.getMessage();
          w.println("sf2loki: " + (m == null || m.isBlank() ? ex.getClass().getSimpleName() : m));
          w.flush();
          return EXIT_CRASH;
        });
  }

  /** Parses {@code args}, runs the selected command and returns its exit status. */
  public int execute(String... args) {
    root.config = null;
    return commandLine.execute(args);
  }

  /**
   * Adds a subcommand (a picocli {@code @Command} object or a {@link CommandLine}); the lead uses
   * this for {@code config}, {@code doctor}, {@code state}, {@code backfill}, {@code sim}. Its
   * {@code --config} (inherited) is readable through {@link #globalConfig()}.
   */
  public Cli addSubcommand(String name, Object command) {
    commandLine.addSubcommand(name, command);
    shareVersion(commandLine);
    commandLine.setOut(commandLine.getOut());
    commandLine.setErr(commandLine.getErr());
    return this;
  }

  /**
   * CLI-1: {@code --check} belongs to {@code run} (or no command); written before another command
   * it is a usage error rather than silently ignored.
   */
  void rejectRootCheck(CommandLine.Model.CommandSpec spec) {
    if (root.check) {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "--check is only valid with no command or with run, not with " + spec.name());
    }
  }

  /** Inherited {@code --version} on a subcommand prints the root's version (CLI-1, CLI-2). */
  private static void shareVersion(CommandLine cl) {
    for (CommandLine sub : cl.getSubcommands().values()) {
      sub.getCommandSpec().versionProvider(new VersionProvider());
      shareVersion(sub);
    }
  }

  /** What the commands do (for the subcommands in their own files). */
  CommandActions actions() {
    return actions;
  }

  /**
   * Hides the inherited {@code --config} from {@code cmd}'s help; it still parses, so the command
   * can refuse it with its own message.
   */
  private static void hideInheritedConfig(CommandLine cmd) {
    CommandLine.Model.CommandSpec spec = cmd.getCommandSpec();
    CommandLine.Model.OptionSpec config = spec.findOption("--config");
    if (config != null && !config.hidden()) {
      spec.remove(config);
      spec.addOption(CommandLine.Model.OptionSpec.builder(config).hidden(true).build());
    }
  }

  /** The {@code --config} path of the current invocation, wherever it was written, or null. */
  public Path globalConfig() {
    return root.config;
  }

  /** The underlying picocli command line (for tests and extensions). */
  public CommandLine commandLine() {
    return commandLine;
  }

  /** Picocli version provider: {@code sf2loki <version>} (CLI-2). */
  static final class VersionProvider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return new String[] {"sf2loki " + Version.get()};
    }
  }

  @Command(
      name = "sf2loki",
      versionProvider = VersionProvider.class,
      usageHelpAutoWidth = true,
      description = "Ships Salesforce Event Monitoring data into Grafana Loki.",
      footer = "%nWith no command, 'run' is assumed.")
  static final class Root implements Callable<Integer> {
    private final Cli cli;

    Path config;

    @Option(
        names = {"-h", "--help"},
        usageHelp = true,
        scope = ScopeType.INHERIT,
        description = "Show this help and exit.")
    boolean help;

    @Option(
        names = {"-V", "--version"},
        versionHelp = true,
        scope = ScopeType.INHERIT,
        description = "Print 'sf2loki <version>' and exit.")
    boolean version;

    @Option(
        names = "--check",
        description = "Validate the configuration and every component, then exit (CLI-4).")
    boolean check;

    Root(Cli cli) {
      this.cli = cli;
    }

    @Option(
        names = "--config",
        paramLabel = "PATH",
        scope = ScopeType.INHERIT,
        description = "Configuration file (YAML).")
    void setConfig(Path value) {
      // picocli resets inherited options to their default (null) per command; keep a given path
      if (value != null) {
        config = value;
      }
    }

    @Override
    public Integer call() {
      return cli.actions.run(config, check);
    }
  }

  @Command(name = "run", description = "Run the daemon (the default command).")
  static final class Run implements Callable<Integer> {
    private final Cli cli;

    @Option(
        names = "--check",
        description = "Validate the configuration and every component, then exit (CLI-4).")
    boolean check;

    Run(Cli cli) {
      this.cli = cli;
    }

    @Override
    public Integer call() {
      // "--check run" and "run --check" both only check (CLI-1, CLI-4)
      return cli.actions.run(cli.root.config, check || cli.root.check);
    }
  }

  @Command(
      name = "demo",
      description =
          "Run the real pipeline against a built-in simulated org and Loki receiver (FEAT-17);"
              + " takes no --config.")
  static final class Demo implements Callable<Integer> {
    private final Cli cli;

    @Option(
        names = "--duration",
        paramLabel = "DURATION",
        defaultValue = "30s",
        converter = DurationConverter.class,
        description =
            "Upper bound on the run (e.g. 30s, 2m); the demo ends earlier once every row was delivered. Default: ${DEFAULT-VALUE}.")
    Duration duration;

    @Option(
        names = "--rate",
        paramLabel = "N",
        description =
            "Rows of each generated EventLogFile (the simulated org's activity per hour and event type). Default: 2000.")
    Integer rate;

    @Option(
        names = "--loki-url",
        paramLabel = "URL",
        description = "Push to this Loki push URL instead of the built-in receiver.")
    URI lokiUrl;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    Demo(Cli cli) {
      this.cli = cli;
    }

    @Override
    public Integer call() {
      cli.rejectRootCheck(spec);
      if (cli.root.config != null) { // FEAT-17: the demo runs with no configuration
        throw new CommandLine.ParameterException(
            spec.commandLine(),
            "demo takes no --config: it runs the real pipeline against its own simulated org and"
                + " Loki receiver with built-in settings (FEAT-17); use --loki-url URL to push"
                + " to a real Loki, or 'sf2loki run --config FILE' to run a configuration");
      }
      if (duration.isZero() || duration.isNegative()) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--duration must be > 0");
      }
      if (rate != null && rate <= 0) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--rate must be > 0");
      }
      if (lokiUrl != null
          && (!lokiUrl.isAbsolute()
              || !("http".equalsIgnoreCase(lokiUrl.getScheme())
                  || "https".equalsIgnoreCase(lokiUrl.getScheme())))) {
        throw new CommandLine.ParameterException(
            spec.commandLine(), "--loki-url must be an http(s) URL");
      }
      return cli.actions.demo(
          new DemoOptions(
              duration,
              rate == null ? OptionalInt.empty() : OptionalInt.of(rate),
              Optional.ofNullable(lokiUrl)));
    }
  }

  @Command(
      name = "sim",
      description =
          "Serve the simulated Salesforce org (REST, OAuth, Pub/Sub gRPC) and an optional"
              + " Loki receiver on fixed loopback ports until stopped (FEAT-18).")
  static final class Sim implements Callable<Integer> {
    private final Cli cli;

    @Option(
        names = "--rest-port",
        paramLabel = "N",
        defaultValue = "" + SimOptions.DEFAULT_REST_PORT,
        description =
            "REST/OAuth port on 127.0.0.1 (0 = any free port). Default: ${DEFAULT-VALUE}.")
    int restPort;

    @Option(
        names = "--grpc-port",
        paramLabel = "N",
        defaultValue = "" + SimOptions.DEFAULT_GRPC_PORT,
        description =
            "Pub/Sub gRPC (plaintext) port on 127.0.0.1 (0 = any free port). Default: ${DEFAULT-VALUE}.")
    int grpcPort;

    @Option(
        names = "--rate",
        paramLabel = "N",
        defaultValue = "" + SimOptions.DEFAULT_RATE,
        description =
            "Pub/Sub events per second over all topics, and rows of each generated EventLogFile. Default: ${DEFAULT-VALUE}.")
    int rate;

    @Option(
        names = "--fault-profile",
        paramLabel = "P",
        defaultValue = "none",
        description =
            "none, auth-expiry, rate-limit, server-errors, stream-stalls or replayid-corrupted. Default: ${DEFAULT-VALUE}.")
    String faultProfile;

    @Option(
        names = "--loki-port",
        paramLabel = "N",
        description = "Also run a Loki-compatible receiver on this port (0 = any free port).")
    Integer lokiPort;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    Sim(Cli cli) {
      this.cli = cli;
    }

    @Override
    public Integer call() {
      cli.rejectRootCheck(spec);
      for (int p : new int[] {restPort, grpcPort, lokiPort == null ? 0 : lokiPort}) {
        if (p < 0 || p > 65535) {
          throw new CommandLine.ParameterException(
              spec.commandLine(), "ports must be within 0..65535");
        }
      }
      if (rate <= 0) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--rate must be > 0");
      }
      SimOptions.FaultProfile profile;
      try {
        profile = SimOptions.FaultProfile.parse(faultProfile);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
      }
      return cli.actions.sim(
          new SimOptions(
              restPort,
              grpcPort,
              rate,
              profile,
              lokiPort == null ? OptionalInt.empty() : OptionalInt.of(lokiPort)));
    }
  }

  @Command(
      name = "healthcheck",
      description = "GET the local health endpoint once; exit 0 on 200, else 1 (CLI-12).")
  static final class Healthcheck implements Callable<Integer> {
    private final Cli cli;
    private final PrintWriter out;
    private final PrintWriter err;

    @Option(
        names = "--addr",
        paramLabel = "HOST:PORT",
        description = "Health server address. Default: service.health_addr, else 127.0.0.1:8080.")
    String addr;

    @Option(
        names = "--path",
        paramLabel = "PATH",
        defaultValue = "/healthz",
        description = "Request path. Default: ${DEFAULT-VALUE}.")
    String path;

    @CommandLine.Spec CommandLine.Model.CommandSpec spec;

    Healthcheck(Cli cli, PrintWriter out, PrintWriter err) {
      this.cli = cli;
      this.out = out;
      this.err = err;
    }

    @Override
    public Integer call() {
      cli.rejectRootCheck(spec);
      if (!path.startsWith("/")) {
        throw new CommandLine.ParameterException(spec.commandLine(), "--path must start with /");
      }
      String a = addr;
      if (a == null) {
        a =
            cli.actions
                .configuredHealthAddr(cli.root.config)
                .orElse(HealthAddress.HEALTHCHECK_DEFAULT);
      }
      HealthAddress address;
      try {
        address = HealthAddress.parse(a);
      } catch (IllegalArgumentException e) {
        throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
      }
      HealthProbe.Result r = cli.probe.probe(address, path);
      if (r.ok()) {
        out.println("healthcheck: " + r.detail());
        out.flush();
        return 0;
      }
      err.println("sf2loki: healthcheck failed: " + r.detail());
      err.flush();
      return 1;
    }
  }
}
