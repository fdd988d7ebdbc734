package io.sf2loki.app.run;

import io.sf2loki.app.config.ConfigException;
import io.sf2loki.app.config.OrgConfig;
import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.app.config.StateConfig;
import io.sf2loki.app.health.HealthServer;
import io.sf2loki.app.health.Readiness;
import io.sf2loki.app.telemetry.Telemetry;
import io.sf2loki.core.cpu.CpuPool;
import io.sf2loki.core.limits.EntryLimiter;
import io.sf2loki.core.liveness.ProgressWatch;
import io.sf2loki.core.metrics.DropAttribution;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.org.OrgDocumentStore;
import io.sf2loki.core.spi.CheckpointStore;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.spi.StateCorruptException;
import io.sf2loki.core.spi.StateException;
import io.sf2loki.core.term.ActiveTerm;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.loki.LokiHttpSink;
import io.sf2loki.loki.LokiSinkSettings;
import io.sf2loki.salesforce.rest.SpoolDirectory;
import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon's process-level assembly (SPEC PIPE-20, ORG-1): the parts built once per process —
 * meters (OBS-1…OBS-3), the checkpoint store (STATE), the health server (OBS-7), the spool
 * directory, the CPU pool (PIPE-26), the Loki sink, the line limiter (PIPE-5) and the commit gauges
 * (PIPE-10) — and the coordinator (HA-1). Each step pushes what it built onto the daemon's closers
 * (closed in reverse order); the daemon calls the steps in startup order and maps their failures to
 * exit statuses. The egress governor's settings are process-level, its instance per term ({@link
 * TermPipeline}). Not thread-safe: built on the daemon's thread, read by terms after that.
 */
final class ProcessAssembly {
  private static final Logger log = LoggerFactory.getLogger(Daemon.class);

  private final Sf2lokiConfig cfg;
  private final DaemonOptions options;
  private final PrintStream err;
  private final Deque<AutoCloseable> closers;
  private final TimeSource watched;
  private Telemetry telemetry;
  private Sf2lokiMetrics metrics;
  private CheckpointStore store;
  private CpuPool cpu;
  private Sink sink;
  private Map<String, String> laneGroups = Map.of(); // PIPE-28: org → identity group
  private EntryLimiter limiter;
  private CommitGauges gauges;

  /**
   * @param err where a failed step prints its one-line reason
   * @param closers where each step pushes what it built
   */
  ProcessAssembly(
      Sf2lokiConfig cfg, DaemonOptions options, PrintStream err, Deque<AutoCloseable> closers) {
    this.cfg = cfg;
    this.options = options;
    this.err = err;
    this.closers = closers;
    this.watched = ProgressWatch.watched(options.time()); // FEAT-21: sleeps are waits
  }

  /**
   * Telemetry and the instance's metrics, every known series installed from the first scrape
   * (OBS-20), the queue-depth and wedged gauges (OBS-13, OBS-32).
   */
  Sf2lokiMetrics meters(String version, ActiveTerm activeTerm, BooleanSupplier wedged) {
    telemetry =
        Telemetry.create(
            cfg.service().telemetry(), options.extraReader(), Telemetry.DEFAULT_SHUTDOWN_TIMEOUT);
    Sf2lokiMetrics m =
        new Sf2lokiMetrics(
            telemetry.meterProvider(),
            version,
            DropAttribution.of(cfg.service().dropAttribution())); // FEAT-10
    metrics = m;
    IdleSeries.install(cfg, m); // OBS-20: every known series from the first scrape
    // closed after telemetry: the final export at shutdown still carries every gauge (OBS-3)
    closers.push(m);
    closers.push(telemetry);
    m.installQueueDepth(activeTerm::queueDepth);
    m.installWedged(wedged); // OBS-32
    return m;
  }

  /**
   * Opens the configured store and reads its document once (a corrupt document, a held lock or an
   * unreachable store ends startup).
   *
   * @throws StartupExit 2 for a corrupt document (STATE-3), 1 for any other store failure
   */
  CheckpointStore openStore(StopSignal processStop) throws StartupExit {
    store = open(cfg.state(), processStop);
    return store;
  }

  /**
   * Under {@code coordinate.per_org}: each org's own document (STATE-19), opened and read once like
   * the deployment's (call after {@link #openStore}), in configuration order; each reads through to
   * the deployment document for keys it lacks.
   *
   * @throws StartupExit as {@link #openStore}
   */
  Map<String, OrgDocumentStore> openOrgStores(StopSignal processStop) throws StartupExit {
    Map<String, OrgDocumentStore> out = new LinkedHashMap<>();
    for (OrgConfig org : cfg.orgs()) {
      CheckpointStore own = open(StateStores.orgDocument(cfg.state(), org.name()), processStop);
      out.put(org.name(), new OrgDocumentStore(own, store));
    }
    return out;
  }

  private CheckpointStore open(StateConfig state, StopSignal processStop) throws StartupExit {
    String place = StateStores.describe(state);
    try {
      CheckpointStore s =
          StateStores.open(
              state,
              options.time().sleeper(),
              processStop,
              Coordinators.leased(cfg.coordinate().type()));
      closers.push(s);
      s.snapshot();
      return s;
    } catch (StateCorruptException e) {
      err.println("sf2loki: " + e.getMessage());
      log.atError().addKeyValue("path", place).log("state file is corrupt: " + e.getMessage());
      throw new StartupExit(Daemon.EXIT_CONFIG);
    } catch (StateException e) {
      err.println("sf2loki: " + e.getMessage());
      log.atError().addKeyValue("path", place).log(e.getMessage());
      throw new StartupExit(Daemon.EXIT_CRASH);
    }
  }

  /**
   * Starts the health server (OBS-7) on {@code service.health_addr}.
   *
   * @throws StartupExit 1 when it cannot start (e.g. the address is in use)
   */
  HealthServer startHealth(
      Readiness readiness, StatusWiring status, Supplier<Optional<String>> liveness)
      throws StartupExit {
    try {
      HealthServer h =
          HealthServer.builder(readiness)
              .address(cfg.service().healthAddr())
              .metrics(telemetry.prometheus().orElse(null))
              .status(status.store(store))
              .liveness(liveness) // FEAT-21
              .start();
      closers.push(h);
      return h;
    } catch (IOException | RuntimeException e) {
      err.println(
          "sf2loki: cannot start health server on "
              + cfg.service().healthAddr()
              + ": "
              + e.getMessage());
      throw new StartupExit(Daemon.EXIT_CRASH);
    }
  }

  /**
   * The spool directory (stale spools of dead processes deleted) and each org's assembly, in
   * configuration order; no network call.
   */
  List<OrgAssembly> orgs() {
    SpoolDirectory spool = SpoolDirectory.forCurrentProcess();
    closers.push(spool);
    spool.deleteStale();
    List<OrgAssembly> orgs = new ArrayList<>();
    for (OrgConfig org : cfg.orgs()) {
      Sf2lokiMetrics m = cfg.multiOrg() ? metrics.forOrg(org.name()) : metrics; // OBS-4
      OrgAssembly o = new OrgAssembly(org, m, options.time(), spool);
      closers.push(o);
      orgs.add(o);
    }
    return orgs;
  }

  /** The CPU pool, the Loki sink (decorated as the options ask), the line limiter, the gauges. */
  void sink(String version) {
    cpu = new CpuPool();
    closers.push(cpu);
    LokiSinkSettings base = cfg.loki().push().withVersion(version);
    // FEAT-6, PIPE-28: one sink per distinct identity, shared by the orgs that have it
    laneGroups = cfg.multiOrg() ? TenantSplitSink.identityGroups(cfg.orgs(), base) : Map.of();
    Map<String, Sink> byGroup = new HashMap<>();
    Map<String, Sink> byOrg = new LinkedHashMap<>();
    for (OrgConfig org : cfg.orgs()) {
      String group = laneGroups.get(org.name());
      if (group != null) {
        byOrg.put(
            org.name(), byGroup.computeIfAbsent(group, g -> lokiSink(org.loki().applyTo(base))));
      }
    }
    Sink shared = lokiSink(base);
    // multi-org: the split also names each part's orgs in its sink's log lines (SINK-20)
    Sink built = cfg.multiOrg() ? new TenantSplitSink(shared, byOrg) : shared;
    sink = options.sinkDecorator().apply(built);
    closers.push(sink);
    limiter =
        new EntryLimiter((int) Math.min(Integer.MAX_VALUE, cfg.loki().maxLineBytes()), metrics);
    gauges = new CommitGauges(metrics, options.time().wall());
  }

  private Sink lokiSink(LokiSinkSettings settings) {
    return new LokiHttpSink(
        settings,
        metrics,
        ProgressWatch.watched(options.time().sleeper()),
        new Random(),
        cpu.executor(),
        options.time().wall());
  }

  /**
   * The configured coordinator (HA-1); its closer is pushed by the caller (it must close before the
   * store: lease release, HA-11).
   *
   * @throws StartupExit 2 for an invalid lease configuration, 1 when its back end cannot be built
   */
  Coordinators.Built coordinator() throws StartupExit {
    try {
      return Coordinators.build(
          cfg.coordinate(), cfg.service().shutdownGrace(), store, options.time(), metrics);
    } catch (ConfigException | StateException e) {
      err.println("sf2loki: " + e.getMessage());
      log.atError().log("coordinator cannot be built: " + e.getMessage());
      throw new StartupExit(e instanceof ConfigException ? Daemon.EXIT_CONFIG : Daemon.EXIT_CRASH);
    }
  }

  /**
   * The sharded coordinator over each org's own document (HA-27, STATE-19); its closer is pushed by
   * the caller (before the stores: lease release).
   *
   * @throws StartupExit 2 for an invalid lease configuration, 1 when its back end cannot be built
   */
  Coordinators.Sharded sharded(Map<String, OrgDocumentStore> stores) throws StartupExit {
    Map<String, CheckpointStore> own = new LinkedHashMap<>();
    stores.forEach((org, s) -> own.put(org, s.own()));
    try {
      return Coordinators.sharded(
          cfg.coordinate(), cfg.service().shutdownGrace(), own, options.time(), metrics);
    } catch (ConfigException | StateException e) {
      err.println("sf2loki: " + e.getMessage());
      log.atError().log("coordinator cannot be built: " + e.getMessage());
      throw new StartupExit(e instanceof ConfigException ? Daemon.EXIT_CONFIG : Daemon.EXIT_CRASH);
    }
  }

  /** The process clocks. */
  TimeSource time() {
    return options.time();
  }

  /** The process clocks with a watched sleeper (FEAT-21). */
  TimeSource watched() {
    return watched;
  }

  Sf2lokiMetrics metrics() {
    return metrics;
  }

  CheckpointStore store() {
    return store;
  }

  CpuPool cpu() {
    return cpu;
  }

  /**
   * PIPE-28: the Loki identity group of {@code org}'s lanes — the name of the first org (in
   * configuration order) with the same {@code orgs[].loki} identity — or empty when the org uses
   * {@code sink.loki}'s. Valid after {@link #sink(String)}.
   */
  String laneGroup(String org) {
    return laneGroups.getOrDefault(org, "");
  }

  Sink sink() {
    return sink;
  }

  EntryLimiter limiter() {
    return limiter;
  }

  CommitGauges gauges() {
    return gauges;
  }
}
