package io.sf2loki.app.run;

import io.sf2loki.app.cli.Version;
import io.sf2loki.app.config.ConfigException;
import io.sf2loki.app.config.OrgConfig;
import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.app.health.HealthServer;
import io.sf2loki.app.health.Readiness;
import io.sf2loki.app.telemetry.Telemetry;
import io.sf2loki.app.telemetry.TelemetrySettings;
import io.sf2loki.core.cpu.CpuPool;
import io.sf2loki.core.egress.EgressGovernor;
import io.sf2loki.core.egress.EgressSettings;
import io.sf2loki.core.limits.EntryLimiter;
import io.sf2loki.core.liveness.ProgressWatch;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.pipeline.Pipeline;
import io.sf2loki.core.spi.CheckpointStore;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.spi.Source;
import io.sf2loki.core.spi.StateCorruptException;
import io.sf2loki.core.spi.StateException;
import io.sf2loki.core.status.ReportsPolls;
import io.sf2loki.core.status.SourceStatusBoard;
import io.sf2loki.core.term.ActiveTerm;
import io.sf2loki.core.term.TermListener;
import io.sf2loki.core.term.TermManager;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.loki.LokiHttpSink;
import io.sf2loki.loki.LokiSinkSettings;
import io.sf2loki.salesforce.apexlog.ApexLogSettings;
import io.sf2loki.salesforce.apexlog.ApexLogSource;
import io.sf2loki.salesforce.apexlog.ToolingApi;
import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.elf.EventLogFileSettings;
import io.sf2loki.salesforce.elf.EventLogFileSource;
import io.sf2loki.salesforce.objects.EventLogObjectSource;
import io.sf2loki.salesforce.objects.EventLogObjectsSettings;
import io.sf2loki.salesforce.pubsub.UndecodableTopics;
import io.sf2loki.salesforce.rest.SpoolDirectory;
import io.sf2loki.salesforce.source.PollGate;
import java.io.IOException;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon (SPEC CLI-3): validates and builds every component from the configuration, starts the
 * health server (OBS-7), runs the startup auth probe (AUTH-9), then hands control to the
 * coordinator until the process stop signal fires or a finite term ends.
 *
 * <p>Exit statuses (CLI table): 0 clean stop or finite run; 1 crash, startup auth failure, a held
 * state lock; 2 configuration or build error, including a corrupt state file (STATE-3).
 *
 * <p>Ownership: the daemon owns every process-lifetime component it built (telemetry, health
 * server, CPU pool, sink, store, Salesforce clients, spool directory) and closes them in reverse
 * order when {@link #run} returns.
 */
public final class Daemon {
  private static final Logger log = LoggerFactory.getLogger(Daemon.class);
  static final int EXIT_OK = 0;
  static final int EXIT_CRASH = 1;
  static final int EXIT_CONFIG = 2;

  private final Sf2lokiConfig cfg;
  private final DaemonOptions options;
  private final PrintStream err;
  private final Readiness readiness = new Readiness();
  private final ActiveTerm activeTerm = new ActiveTerm();
  private final UndecodableTopics undecodableTopics = new UndecodableTopics();
  private volatile Sf2lokiMetrics metrics;
  private volatile HealthServer health;
  private volatile Supplier<Optional<String>> apiReserve = Optional::empty;
  private final StatusWiring status; // FEAT-3 /statusz
  private final SourceStatusBoard board; // FEAT-3, OBS-35: poll results, commit times
  private final ProgressWatch watch; // FEAT-21

  /**
   * Validates the build-time rules that need no network or filesystem write (CLI-4): supported
   * capabilities, sink settings, private-key parsing.
   *
   * @throws ConfigException or IllegalArgumentException naming the problem
   */
  public static void checkBuildable(Sf2lokiConfig cfg) {
    BuildSupport.check(cfg);
    // SINK-18: load the push codec now, so a noexec temp dir shows at --check, not the first push
    io.sf2loki.loki.encode.SnappyCodec.load(cfg.loki().snappyTempdir());
    StateStores.check(cfg.state());
    java.nio.file.Path statePath = cfg.state().file().path();
    if (cfg.state().store() == io.sf2loki.app.config.StateConfig.Store.FILE
        && java.nio.file.Files.isDirectory(statePath)) {
      throw new ConfigException(
          "state.file.path: "
              + statePath
              + " is a directory; give the path of the state file itself (e.g. "
              + statePath.resolve("state.json")
              + ")");
    }
    for (OrgConfig org : cfg.orgs()) {
      SourceOverlap.check(org); // SRC-23
      var auth = org.salesforce().auth();
      if (auth.privateKeyPem() != null) {
        io.sf2loki.salesforce.auth.PemKeys.parseRsaPrivateKey(auth.privateKeyPem());
      }
    }
  }

  public Daemon(Sf2lokiConfig cfg, DaemonOptions options, PrintStream err) {
    this.cfg = cfg;
    this.options = options;
    this.err = err;
    this.board = StatusWiring.newBoard(cfg, options.time().wall());
    this.status =
        new StatusWiring(cfg, Version.get(), readiness, activeTerm, board, options.time().wall());
    this.watch = new ProgressWatch(options.time().ticker());
  }

  /** FEAT-21: the {@code wedged: <component>} reason while one is stuck (off at 0). */
  Optional<String> wedged() {
    return watch.wedged(cfg.service().livenessTimeout());
  }

  /** The instance's metrics, once {@link #run} built them (tests). */
  public Sf2lokiMetrics metrics() {
    return metrics;
  }

  /** The bound health port, once started (tests, demo). */
  public int healthPort() {
    HealthServer h = health;
    return h == null ? -1 : h.port();
  }

  /** The running term holder (tests). */
  public ActiveTerm activeTerm() {
    return activeTerm;
  }

  /**
   * Runs the daemon until {@code processStop} fires or a finite term ends.
   *
   * @return the process exit status
   */
  public int run(StopSignal processStop) {
    Deque<AutoCloseable> closers = new ArrayDeque<>();
    try {
      return runInternal(processStop, closers);
    } finally {
      readiness.set(Readiness.State.NOT_READY);
      while (!closers.isEmpty()) {
        try {
          closers.pop().close();
        } catch (Exception e) {
          log.atWarn().setCause(e).log("error while closing a component");
        }
      }
    }
  }

  private int runInternal(StopSignal processStop, Deque<AutoCloseable> closers) {
    String version = Version.get();
    TelemetrySettings ts = cfg.service().telemetry();
    Telemetry telemetry =
        Telemetry.create(ts, options.extraReader(), Telemetry.DEFAULT_SHUTDOWN_TIMEOUT);
    Sf2lokiMetrics m = new Sf2lokiMetrics(telemetry.meterProvider(), version);
    metrics = m;
    IdleSeries.install(cfg, m); // OBS-20: every known series from the first scrape
    // closed after telemetry: the final export at shutdown still carries every gauge (OBS-3)
    closers.push(m);
    closers.push(telemetry);
    m.installQueueDepth(activeTerm::queueDepth);
    m.installWedged(() -> wedged().isPresent()); // OBS-32
    TimeSource watched = ProgressWatch.watched(options.time()); // FEAT-21
    registerDegradations();
    logStartup(version);
    cfg.warnings().forEach(w -> log.atWarn().log(w));
    HeapFit.check(cfg, Runtime.getRuntime().maxMemory()).ifPresent(w -> log.atWarn().log(w));

    // state first: a corrupt document, a held lock or an unreachable store ends startup
    CheckpointStore store;
    String statePlace = StateStores.describe(cfg.state());
    try {
      store =
          StateStores.open(
              cfg.state(),
              options.time().sleeper(),
              processStop,
              Coordinators.leased(cfg.coordinate().type()));
      closers.push(store);
      store.snapshot();
    } catch (StateCorruptException e) {
      err.println("sf2loki: " + e.getMessage());
      log.atError().addKeyValue("path", statePlace).log("state file is corrupt: " + e.getMessage());
      return EXIT_CONFIG;
    } catch (StateException e) {
      err.println("sf2loki: " + e.getMessage());
      log.atError().addKeyValue("path", statePlace).log(e.getMessage());
      return EXIT_CRASH;
    }

    try {
      HealthServer h =
          HealthServer.builder(readiness)
              .address(cfg.service().healthAddr())
              .metrics(telemetry.prometheus().orElse(null))
              .status(status.store(store))
              .liveness(this::wedged) // FEAT-21
              .start();
      health = h;
      closers.push(h);
    } catch (IOException | RuntimeException e) {
      err.println(
          "sf2loki: cannot start health server on "
              + cfg.service().healthAddr()
              + ": "
              + e.getMessage());
      return EXIT_CRASH;
    }

    SpoolDirectory spool = SpoolDirectory.forCurrentProcess();
    closers.push(spool);
    spool.deleteStale();

    List<OrgClients> orgs = new ArrayList<>();
    for (OrgConfig org : cfg.orgs()) {
      OrgClients c = new OrgClients(org, m, options.time(), spool);
      closers.push(c);
      orgs.add(c);
    }
    // AUTH-9: single-org startup probe
    OrgClients org = orgs.getFirst();
    LimitsWiring limits = // OBS-12, OBS-21: polls only while leading
        org.org.salesforce().limits().enabled()
            ? new LimitsWiring(org.org.salesforce().limits(), org.rest, m, options.time().sleeper())
            : null;
    if (limits != null) {
      closers.push(limits);
      apiReserve = limits::degradation;
    }
    PollGate gate = limits == null ? PollGate.OPEN : limits.gate();
    String orgId;
    try {
      orgId = probeUnlessStopped(org, processStop);
    } catch (AuthException e) {
      if (processStop.isStopped()) {
        log.atInfo().log("sf2loki stopped during startup");
        return EXIT_OK;
      }
      err.println("sf2loki: salesforce authentication failed: " + e.getMessage());
      log.atError()
          .addKeyValue("error_code", e.errorCode())
          .addKeyValue("status", e.status())
          .log("salesforce authentication failed: " + e.getMessage());
      return EXIT_CRASH;
    } catch (InterruptedException e) {
      if (!processStop.isStopped()) {
        Thread.currentThread().interrupt();
      }
      log.atInfo().log("sf2loki stopped during startup");
      return EXIT_OK;
    }
    if (processStop.isStopped()) {
      log.atInfo().log("sf2loki stopped during startup");
      return EXIT_OK;
    }
    log.atInfo()
        .addKeyValue("org_id", orgId)
        .addKeyValue("environment", org.org.salesforce().environment())
        .log("authenticated to salesforce org");

    CpuPool cpu = new CpuPool();
    closers.push(cpu);
    LokiSinkSettings sinkSettings = cfg.loki().push().withVersion(version);
    Sink sink =
        options
            .sinkDecorator()
            .apply(
                new LokiHttpSink(
                    sinkSettings,
                    m,
                    ProgressWatch.watched(options.time().sleeper()),
                    new java.util.Random(),
                    cpu.executor(),
                    options.time().wall()));
    closers.push(sink);
    EntryLimiter limiter =
        new EntryLimiter((int) Math.min(Integer.MAX_VALUE, cfg.loki().maxLineBytes()), m);
    Map<String, String> staticLabels = Components.staticLabels(cfg, org.org, orgId);
    CommitGauges gauges = new CommitGauges(m, options.time().wall());
    EventLogFileSettings elfSettings =
        org.org.sources().eventlogfile().settings().withFinite(options.finite());
    boolean elfEnabled = org.org.sources().eventlogfile().enabled();
    EventLogObjectsSettings objSettings =
        org.org.sources().eventlogObjects().settings().withFinite(options.finite());
    boolean objEnabled =
        org.org.sources().eventlogObjects().enabled() && !objSettings.objects().isEmpty();
    ApexLogSettings apexSettings =
        org.org.sources().apexlog().settings().withFinite(options.finite());
    boolean apexEnabled = org.org.sources().apexlog().enabled();
    OrgTransforms transforms = OrgTransforms.of(org.org, m); // XF-1: compiled once per process
    PubSubWiring pubsub = null;
    if (org.org.sources().pubsub().enabled() && !org.org.sources().pubsub().topics().isEmpty()) {
      pubsub =
          new PubSubWiring(
              org, m, undecodableTopics, watched, watch, transforms.pubsub(), cpu.executor());
      closers.push(pubsub);
    }
    PubSubWiring pubsubWiring = pubsub;

    Coordinators.Built coordinator;
    try {
      coordinator =
          Coordinators.build(
              cfg.coordinate(), cfg.service().shutdownGrace(), store, options.time(), m);
    } catch (ConfigException | StateException e) {
      err.println("sf2loki: " + e.getMessage());
      log.atError().log("coordinator cannot be built: " + e.getMessage());
      return e instanceof ConfigException ? EXIT_CONFIG : EXIT_CRASH;
    }
    closers.push(
        status
            .coordinator(coordinator)
            .closer()); // closed before the store: releases the lease (HA-11)
    TermManager terms =
        new TermManager(
            () -> {
              List<Source> sources = new ArrayList<>();
              OrgOwnership ownership = new OrgOwnership(org.org); // SRC-24, one per term
              if (pubsubWiring != null) {
                sources.add(pubsubWiring.newSource(store, ownership, board));
              }
              if (elfEnabled) {
                sources.add(
                    new EventLogFileSource(
                        elfSettings,
                        org.rest,
                        store,
                        m,
                        watched, // FEAT-21: sleeps are waits
                        cpu.executor(),
                        transforms.elfRows(), // XF-1
                        ownership.elfOwnedElsewhere(), // SRC-24
                        gate)); // OBS-21
              }
              if (objEnabled) { // one source for all objects: shared OBJ-1 schedule, OBJ-12
                sources.add(
                    new EventLogObjectSource(
                        objSettings,
                        org.rest,
                        store,
                        m,
                        watched, // FEAT-21: sleeps are waits
                        cpu.executor(),
                        transforms.objectRows(), // XF-1, XF-8
                        java.util.random.RandomGenerator.of("L64X128MixRandom"),
                        gate)); // OBS-21
              }
              if (apexEnabled) {
                sources.add(
                    new ApexLogSource(
                        apexSettings,
                        ToolingApi.over(org.rest),
                        store,
                        m,
                        watched, // FEAT-21: sleeps are waits
                        transforms.apexLogMetadata(), // XF-1, APX-7
                        gate)); // OBS-21
              }
              sources.forEach( // FEAT-3, OBS-35: poll results to /statusz
                  s -> {
                    if (s instanceof ReportsPolls r) {
                      r.reportTo(board);
                    }
                  });
              EgressSettings egress = cfg.loki().egress();
              EgressGovernor governor =
                  new EgressGovernor(
                      egress,
                      watched, // FEAT-21: sleeps are waits
                      m,
                      egress.hasBudget()
                          ? store.load(EgressGovernor.BUDGET_KEY)
                          : java.util.Optional.empty());
              return new Pipeline(
                  cfg.pipeline().withStaticLabels(staticLabels),
                  sources,
                  sink,
                  store,
                  m,
                  options.time(),
                  limiter::apply,
                  written -> {
                    gauges.committed(written);
                    board.committed(written); // FEAT-3: commit times (Pub/Sub position age)
                    if (pubsubWiring != null) {
                      pubsubWiring.commitTimes().committed(written);
                    }
                  },
                  governor,
                  watch); // FEAT-21: producers and lane consumers
            },
            activeTerm,
            store,
            m,
            new TermListener() {
              @Override
              public void termStarted() {
                readiness.set(Readiness.State.READY);
                if (limits != null) {
                  limits.leading(); // OBS-12: only while leading
                }
              }

              @Override
              public void termEnded() {
                if (limits != null) {
                  limits.notLeading();
                }
              }

              @Override
              public void standby() {
                readiness.set(Readiness.State.STANDBY);
              }
            },
            processStop,
            coordinator.demotable()); // noop: none; leases: fence/conflict/lock (HA-5)
    TermManager.Outcome outcome;
    try {
      if (Coordinators.leased(cfg.coordinate().type())) {
        readiness.set(Readiness.State.STANDBY); // a follower waiting for the lease (OBS-8)
      }
      outcome = terms.run(coordinator.coordinator());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return EXIT_OK;
    } catch (Exception e) {
      err.println("sf2loki: coordinator failed: " + e);
      log.atError().setCause(e).log("coordinator failed");
      return EXIT_CRASH;
    }
    if (outcome != TermManager.Outcome.CRASHED) {
      log.atInfo().log("sf2loki stopped");
      return EXIT_OK;
    }
    Throwable e = terms.crash().orElseThrow();
    if (e instanceof StateCorruptException) {
      err.println("sf2loki: " + e.getMessage());
      return EXIT_CONFIG;
    }
    if (e instanceof StateException) {
      err.println("sf2loki: state store failed: " + e.getMessage());
      return EXIT_CRASH;
    }
    err.println("sf2loki: " + e);
    return EXIT_CRASH;
  }

  /**
   * CLI-3: the AUTH-9 probe (up to four token calls with a 30 s response timeout each) must not
   * delay a SIGTERM: the probe's calls watch the process stop signal, which ends a backoff wait and
   * cancels an in-flight HTTP call at once (no interrupt of this thread).
   */
  private static String probeUnlessStopped(OrgClients org, StopSignal processStop)
      throws AuthException, InterruptedException {
    if (processStop.isStopped()) {
      throw new InterruptedException("stopped before the auth probe");
    }
    return org.probe(processStop);
  }

  private void registerDegradations() {
    // OBS-8 order: a failing checkpoint store (STATE-16), an egress pause, then a failing sink
    readiness.addDegradation(
        () -> activeTerm.storeFailingFor().map(d -> "degraded: checkpoint store failing"));
    readiness.addDegradation(activeTerm::egressPausedReason);
    Duration threshold = cfg.service().unreadyAfterSinkFailing();
    readiness.addDegradation(
        () -> {
          if (threshold.isZero()) {
            return Optional.empty();
          }
          // measured on the monotonic ticker: a wall-clock step neither freezes nor rushes it
          Optional<Duration> failingFor = activeTerm.sinkFailingFor();
          if (failingFor.isEmpty()) {
            return Optional.empty();
          }
          Duration failing = failingFor.get();
          if (failing.compareTo(threshold) <= 0) {
            return Optional.empty();
          }
          long minutes = failing.toMinutes();
          String amount = minutes >= 1 ? minutes + "m" : failing.toSeconds() + "s";
          return Optional.of("degraded: loki pushes failing for " + amount);
        });
    // then the API reserve (OBS-21; installed once the org's limits poller is built)
    readiness.addDegradation(() -> apiReserve.get());
    // then a Pub/Sub topic held on an undecodable event (PS-6), first in name order
    readiness.addDegradation(undecodableTopics::degradation);
  }

  /** The banner's topics: the explicit filtered ones (PS-19), plus {@code *} when discovering. */
  private static List<String> pubsubBanner(
      List<String> explicit, io.sf2loki.app.config.PubSubConfig ps) {
    if (!ps.topics().contains("*")) {
      return explicit;
    }
    List<String> out = new ArrayList<>(explicit);
    out.add("*");
    return out;
  }

  private void logStartup(String version) {
    OrgConfig org = cfg.orgs().getFirst();
    log.atInfo()
        .addKeyValue("version", version)
        .addKeyValue(
            "orgs", cfg.multiOrg() ? cfg.orgs().stream().map(OrgConfig::name).toList() : "single")
        .addKeyValue(
            "pubsub_topics",
            org.sources().pubsub().enabled()
                ? pubsubBanner(org.sources().pubsub().explicitTopics(), org.sources().pubsub())
                : List.of())
        .addKeyValue(
            "eventlog_objects",
            org.sources().eventlogObjects().enabled()
                ? org.sources().eventlogObjects().settings().objects().size()
                : 0)
        .addKeyValue(
            "eventlogfile_event_types",
            org.sources().eventlogfile().enabled()
                ? org.sources().eventlogfile().settings().eventTypes().stream()
                    .map(t -> t.name())
                    .toList()
                : List.of())
        .addKeyValue("sink", UrlScrubber.scrub(cfg.loki().url()))
        .addKeyValue("org_limit_metrics", org.salesforce().limits().enabled())
        .addKeyValue("log_level", cfg.service().logLevel().yaml())
        .addKeyValue("health_addr", cfg.service().healthAddr())
        .addKeyValue(
            "snappy_codec",
            io.sf2loki.loki.encode.SnappyCodec.load(cfg.loki().snappyTempdir())
                .name()
                .toLowerCase(java.util.Locale.ROOT))
        .log("sf2loki starting");
  }
}
