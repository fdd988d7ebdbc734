package io.sf2loki.app.run;

import io.sf2loki.app.cli.Version;
import io.sf2loki.app.config.OrgConfig;
import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.app.health.HealthServer;
import io.sf2loki.app.health.Readiness;
import io.sf2loki.core.liveness.ProgressWatch;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.org.OrgDocumentStore;
import io.sf2loki.core.org.OrgStartupProbe;
import io.sf2loki.core.pipeline.CommitListener;
import io.sf2loki.core.spi.CheckpointStore;
import io.sf2loki.core.spi.StateCorruptException;
import io.sf2loki.core.spi.StateException;
import io.sf2loki.core.status.SourceStatusBoard;
import io.sf2loki.core.term.ActiveTerm;
import io.sf2loki.core.term.TermManager;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.loki.encode.SnappyCodec;
import io.sf2loki.salesforce.auth.AuthException;
import java.io.PrintStream;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The daemon (SPEC CLI-3): validates and builds every component from the configuration, starts the
 * health server (OBS-7), runs the startup auth probe (AUTH-9), then hands control to the
 * coordinator until the process stop signal fires or a finite term ends.
 *
 * <p>Composition: {@link ProcessAssembly} builds the process-level parts (meters, store, health
 * server, sink, coordinator), one {@link OrgAssembly} per org holds that org's clients, limits
 * poller and source factories, and each term a {@link TermPipeline} asks every org's {@link
 * TermSources} for fresh sources. The daemon knows no source kind; it orders the steps and maps
 * their failures to exit statuses.
 *
 * <p>Multi-org ({@code orgs:}, ORG-1): {@link MultiOrg} runs the ORG-7 probe instead of AUTH-9's,
 * wraps every org's sources (ORG-3…ORG-6, ORG-13) and gives the committer the ORG-10 store. With
 * {@code coordinate.per_org} (HA-29) {@link ShardedTerms} runs one term per org this replica leads,
 * each over the org's own checkpoint document (STATE-19).
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
  private volatile Sf2lokiMetrics metrics;
  private volatile HealthServer health;
  private volatile List<OrgAssembly> orgs = List.of();
  private final AtomicReference<Supplier<Optional<String>>> orgAuth =
      new AtomicReference<>(Optional::empty); // ORG-7 readiness detail (multi-org)
  private final StatusWiring status; // FEAT-3 /statusz
  private final SourceStatusBoard board; // FEAT-3, OBS-35: poll results, commit times
  private final ProgressWatch watch; // FEAT-21
  private volatile OrgTerms orgTerms = OrgTerms.NONE;

  /**
   * Told when an org's term starts and ends on this replica under {@code coordinate.per_org}
   * (HA-29), on the thread that starts or ends it; tests check that no org is led twice.
   */
  public interface OrgTerms {
    OrgTerms NONE =
        new OrgTerms() {
          @Override
          public void started(String org) {}

          @Override
          public void ended(String org) {}
        };

    /** Org {@code org}'s term was built and is about to run. */
    void started(String org);

    /** Org {@code org}'s term ended (its threads are done; the lease is released after this). */
    void ended(String org);
  }

  /**
   * Validates the build-time rules that need no network or filesystem write (CLI-4): supported
   * capabilities, sink settings, private-key parsing.
   *
   * @throws io.sf2loki.app.config.ConfigException or IllegalArgumentException naming the problem
   */
  public static void checkBuildable(Sf2lokiConfig cfg) {
    BuildSupport.check(cfg);
    // SINK-18: load the push codec now, so a noexec temp dir shows at --check, not the first push
    SnappyCodec.load(cfg.loki().snappyTempdir());
    StateStores.check(cfg.state()); // incl. a state.file.path that is a directory
    for (OrgConfig org : cfg.orgs()) {
      OrgAssembly.check(org); // SRC-23, private key
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

  /** Observes the org terms of a {@code per_org} run (tests); call before {@link #run}. */
  public void observeOrgTerms(OrgTerms observer) {
    this.orgTerms = observer;
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
    } catch (StartupExit e) {
      return e.status();
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

  private int runInternal(StopSignal processStop, Deque<AutoCloseable> closers) throws StartupExit {
    String version = Version.get();
    ProcessAssembly process = new ProcessAssembly(cfg, options, err, closers);
    metrics = process.meters(version, activeTerm, () -> wedged().isPresent());
    Degradations.register(
        readiness,
        activeTerm,
        cfg.service().unreadyAfterSinkFailing(),
        () -> orgs,
        () -> orgAuth.get().get());
    StartupBanner.log(cfg, version);
    cfg.warnings().forEach(w -> log.atWarn().log(w));
    HeapFit.check(cfg, Runtime.getRuntime().maxMemory()).ifPresent(w -> log.atWarn().log(w));
    // state first: a corrupt document, a held lock or an unreachable store ends startup
    CheckpointStore store = process.openStore(processStop);
    Map<String, OrgDocumentStore> orgStores =
        cfg.coordinate().perOrg() ? process.openOrgStores(processStop) : Map.of(); // STATE-19
    health = process.startHealth(readiness, status, this::wedged);
    orgs = process.orgs();
    MultiOrg multi = cfg.multiOrg() ? new MultiOrg(orgs, store, process.watched().sleeper()) : null;
    if (multi != null) {
      orgAuth.set(multi::degradation); // OBS-8 order: registered before the sink's
    }
    Map<String, String> labels;
    if (multi == null) {
      OrgAssembly org = orgs.getFirst(); // AUTH-9: single-org startup probe
      labels = Components.staticLabels(cfg, org.config(), probe(org, processStop));
    } else {
      probeOrgs(multi, processStop); // ORG-7
      labels = Components.deploymentLabels(cfg); // ORG-3: the wrappers add the org identity
    }
    process.sink(version);
    for (OrgAssembly org : orgs) {
      closers.push(org.buildSources(options.finite(), options.time().wall(), watch));
    }
    if (multi != null && !orgStores.isEmpty()) {
      return runSharded(process, multi, orgStores, labels, processStop, closers);
    }
    Coordinators.Built coordinator = process.coordinator();
    closers.push(status.coordinator(coordinator).closer()); // before the store: lease release
    CheckpointStore termStore = multi == null ? store : multi.store(); // ORG-10
    List<TermSources> sources =
        multi == null
            ? List.of(
                new TermSources(
                    orgs.getFirst(),
                    process.watched(),
                    process.cpu().executor(),
                    metrics,
                    store,
                    board,
                    null))
            : multi.termSources(process, board);
    CommitListener orgCommits =
        multi == null ? orgs.getFirst().commitListener() : multi.commitListener();
    TermPipeline pipelines =
        new TermPipeline(
            cfg,
            process,
            termStore,
            sources,
            labels,
            written -> {
              process.gauges().committed(written);
              board.committed(written); // FEAT-3: commit times (Pub/Sub position age)
              orgCommits.committed(written);
            },
            watch);
    return runTerms(pipelines, coordinator, termStore, processStop);
  }

  /**
   * CLI-3: the AUTH-9 probe (up to four token calls with a 30 s response timeout each) must not
   * delay a SIGTERM: the probe's calls watch the process stop signal, which ends a backoff wait and
   * cancels an in-flight HTTP call at once (no interrupt of this thread).
   *
   * @return the org id
   * @throws StartupExit 0 when stopped during startup, 1 when authentication failed
   */
  private String probe(OrgAssembly org, StopSignal processStop) throws StartupExit {
    try {
      if (!processStop.isStopped()) {
        String orgId = org.probe(processStop);
        if (!processStop.isStopped()) {
          log.atInfo()
              .addKeyValue("org_id", orgId)
              .addKeyValue("environment", org.config().salesforce().environment())
              .log("authenticated to salesforce org");
          return orgId;
        }
      }
    } catch (AuthException e) {
      if (!processStop.isStopped()) {
        err.println("sf2loki: salesforce authentication failed: " + e.getMessage());
        log.atError()
            .addKeyValue("error_code", e.errorCode())
            .addKeyValue("status", e.status())
            .log("salesforce authentication failed: " + e.getMessage());
        throw new StartupExit(EXIT_CRASH);
      }
    } catch (InterruptedException e) {
      if (!processStop.isStopped()) {
        Thread.currentThread().interrupt();
      }
    }
    log.atInfo().log("sf2loki stopped during startup");
    throw new StartupExit(EXIT_OK);
  }

  /**
   * ORG-7, ORG-12: every org probes at once; when all fail the process exits 1 with the first
   * failed org's error in configuration order, otherwise the failed orgs are logged (by the probe)
   * and reported on readiness until they hold a valid token.
   *
   * @throws StartupExit 0 when stopped during startup, 1 when every org failed
   */
  private void probeOrgs(MultiOrg multi, StopSignal processStop) throws StartupExit {
    try {
      OrgStartupProbe.Result result = multi.probe(processStop);
      if (!processStop.isStopped()) {
        if (result.allFailed()) {
          Map.Entry<String, Exception> first = result.firstFailure().orElseThrow();
          String msg = "org " + first.getKey() + ": " + first.getValue().getMessage();
          err.println("sf2loki: salesforce authentication failed for " + msg);
          log.atError()
              .addKeyValue("org", first.getKey())
              .log("salesforce authentication failed for every org; first: " + msg);
          throw new StartupExit(EXIT_CRASH);
        }
        result
            .orgIds()
            .forEach(
                (name, id) ->
                    log.atInfo()
                        .addKeyValue("org", name)
                        .addKeyValue("org_id", id)
                        .log("authenticated to salesforce org"));
        return;
      }
    } catch (InterruptedException e) {
      if (!processStop.isStopped()) {
        Thread.currentThread().interrupt();
      }
    }
    log.atInfo().log("sf2loki stopped during startup");
    throw new StartupExit(EXIT_OK);
  }

  private int runTerms(
      TermPipeline factory,
      Coordinators.Built coordinator,
      CheckpointStore store,
      StopSignal processStop) {
    TermManager terms =
        new TermManager(
            factory,
            activeTerm,
            store,
            metrics,
            new LeadershipListener(readiness, () -> orgs),
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
    return exit(outcome, terms.crash());
  }

  /**
   * {@code coordinate.per_org} (HA-29): one term per org this replica leads, each over the org's
   * own document (STATE-19), under the sharded coordinator (HA-27…HA-30).
   */
  private int runSharded(
      ProcessAssembly process,
      MultiOrg multi,
      Map<String, OrgDocumentStore> stores,
      Map<String, String> labels,
      StopSignal processStop,
      Deque<AutoCloseable> closers)
      throws StartupExit {
    Coordinators.Sharded sharded = process.sharded(stores);
    closers.push(sharded.closer()); // before the stores: lease release (HA-11, HA-19)
    ShardedTerms terms =
        new ShardedTerms(
            new ShardedTerms.Shared(
                cfg,
                process,
                multi,
                orgs,
                labels,
                board,
                watch,
                readiness,
                activeTerm,
                processStop,
                orgTerms),
            stores,
            sharded.coordinator());
    status.shards(terms::leads, stores); // OBS-38
    readiness.set(Readiness.State.STANDBY); // HA-31: leading no org yet
    TermManager.Outcome outcome;
    try {
      outcome = terms.run(processStop);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return EXIT_OK;
    } catch (Exception e) {
      err.println("sf2loki: coordinator failed: " + e);
      log.atError().setCause(e).log("coordinator failed");
      return EXIT_CRASH;
    }
    return exit(outcome, terms.crash());
  }

  private int exit(TermManager.Outcome outcome, Optional<Throwable> crash) {
    if (outcome != TermManager.Outcome.CRASHED) {
      log.atInfo().log("sf2loki stopped");
      return EXIT_OK;
    }
    Throwable e = crash.orElseThrow();
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
}
