package io.sf2loki.app.backfill;

import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.sf2loki.app.backfill.BackfillPlanner.TypePlan;
import io.sf2loki.app.cli.Version;
import io.sf2loki.app.config.OrgConfig;
import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.app.config.StateConfig;
import io.sf2loki.app.logging.LogSetup;
import io.sf2loki.app.logging.SpecLevels;
import io.sf2loki.app.run.Components;
import io.sf2loki.app.run.OrgTransforms;
import io.sf2loki.core.cpu.CpuPool;
import io.sf2loki.core.limits.EntryLimiter;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.spi.CheckpointStore;
import io.sf2loki.core.spi.StateException;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.loki.LokiHttpSink;
import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.elf.ElfFiles;
import io.sf2loki.salesforce.elf.EventLogFileSettings;
import io.sf2loki.salesforce.rest.SoqlException;
import io.sf2loki.salesforce.rest.SpoolDirectory;
import io.sf2loki.state.file.FileCheckpointStore;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code sf2loki backfill} (SPEC BF-1…BF-15, CLI-11, CLI-20, FEAT-4): one org's EventLogFile
 * history, once, beside (never inside) the daemon. It takes no leadership and no lane: it pushes
 * with its own sink and HTTP client, so the daemon's streaming lane never queues behind it (BF-15);
 * its own rate cap ({@code --max-bytes-per-second}) leaves Loki and network headroom.
 *
 * <p>Steps: authenticate (the AUTH-9 probe; the org id is a static label), resolve the types
 * (BF-4), list the whole range per type (BF-5, {@link BackfillPlanner}), then either print the plan
 * ({@code --dry-run}) or run it ({@link BackfillRun}) with progress on stderr and the BF-11 summary
 * on stdout. Exit 0 done (failed types reported), 1 push abandoned / discovery or authentication
 * failed / stopped, 2 unknown org or a store that cannot be opened because of its configuration.
 */
public final class Backfill {
  private static final Logger log = LoggerFactory.getLogger(Backfill.class);

  public static final int EXIT_OK = 0;
  public static final int EXIT_FAILED = 1;
  public static final int EXIT_USAGE = 2;

  private final Sf2lokiConfig cfg;
  private final PrintStream out;
  private final PrintStream err;
  private final TimeSource time;
  private final boolean terminal;

  /**
   * @param cfg the loaded, validated configuration
   * @param out summary / dry-run report
   * @param err warnings and the progress bar
   * @param time wall clock (range checks, ingest stamps), ticker and sleeper (retries, pacing,
   *     progress lines)
   * @param terminal whether stderr is a terminal (live bar) or not (INFO lines)
   */
  public Backfill(
      Sf2lokiConfig cfg, PrintStream out, PrintStream err, TimeSource time, boolean terminal) {
    this.cfg = cfg;
    this.out = out;
    this.err = err;
    this.time = time;
    this.terminal = terminal;
  }

  /**
   * Routes the process's logs to stderr in the configured level and format (OBS-9, OBS-10), so
   * stdout carries only the dry-run report and the BF-11 summary, and the BF-13 progress INFO lines
   * (when stderr is no terminal) go where every other log line of the command goes.
   *
   * @throws IllegalArgumentException for an unknown level or format
   */
  public static void configureLogging(String level, String format) {
    if (LoggerFactory.getILoggerFactory() instanceof ch.qos.logback.classic.LoggerContext ctx) {
      LogSetup.configure(ctx, SpecLevels.parse(level), LogSetup.Format.parse(format), System.err);
    }
  }

  /**
   * The state configuration of the backfill cursors' own document (BF-2): {@code
   * state-backfill.json} beside {@code state.file.path}, or the s3/gcs name with {@code -backfill}.
   */
  public static StateConfig cursorDocument(StateConfig daemonState) {
    return BackfillStore.backfillDocument(daemonState);
  }

  /** Whether this process's stderr is a terminal. */
  public static boolean stderrIsTerminal() {
    return BackfillProgress.stderrIsTerminal();
  }

  /** Runs the request until done or {@code stop}; returns the exit status. */
  public int run(BackfillRequest asked, StopSignal stop) {
    Optional<OrgConfig> org = selectOrg(asked.org());
    if (org.isEmpty()) {
      err.println("sf2loki: unknown org '" + asked.org().orElse("") + "'");
      return EXIT_USAGE;
    }
    // BF-1: without --interval, the org's configured sources.eventlogfile.interval
    BackfillRequest request =
        asked.withInterval(Components.eventLogFile(cfg, org.get()).interval().name());
    warnRange(request);
    CounterReader counters = new CounterReader();
    long started = time.ticker().nanoTime();
    try (SdkMeterProvider meters =
            SdkMeterProvider.builder().registerMetricReader(counters).build();
        Sf2lokiMetrics metrics = new Sf2lokiMetrics(meters, Version.get());
        SpoolDirectory spool = SpoolDirectory.forCurrentProcess();
        Components.Org clients = Components.org(org.get(), metrics, spool)) {
      String orgId;
      try {
        clients.tokens().mint(stop);
        orgId = clients.orgIds().orgId(stop);
      } catch (AuthException e) {
        err.println("sf2loki: salesforce authentication failed: " + e.getMessage());
        return EXIT_FAILED;
      }
      ElfFiles files =
          new ElfFiles( // XF-10: the ELF transforms apply, sampling never does
              clients.rest(),
              settings(org.get(), request),
              metrics,
              OrgTransforms.of(org.get(), metrics).elfRows());
      Optional<List<String>> types = types(request, org.get(), files);
      if (types.isEmpty()) {
        return EXIT_FAILED;
      }
      StateConfig doc = BackfillStore.backfillDocument(cfg.state());
      // a relative state.file.path resolves against the working directory, as for the daemon
      err.println("sf2loki: backfill cursors: " + describeAbsolute(doc));
      try (CheckpointStore store = openStore(doc, request.dryRun(), stop)) {
        String prefix = cfg.multiOrg() ? org.get().name() : null;
        BackfillPlanner planner = new BackfillPlanner(files, request.since(), request.until());
        List<TypePlan> plans = new ArrayList<>();
        for (String type : types.get()) {
          String key = BackfillStore.key(prefix, request.interval(), type);
          plans.add(planner.plan(type, store.load(key).flatMap(BackfillCursor::parse)));
        }
        warnEmptyTypes(plans, request);
        if (request.dryRun()) {
          var batch = cfg.pipeline();
          DryRunReport.print(
              out,
              plans,
              new DryRunReport.Estimate(
                  DryRunReport.rate(
                      request.maxBytesPerSecond(), cfg.loki().egress().maxBytesPerSecond()),
                  batch.maxEntries(),
                  batch.maxBytes()));
          return EXIT_OK;
        }
        Map<String, String> labels = Components.staticLabels(cfg, org.get(), orgId);
        return execute(
            request, files, store, plans, labels, prefix, metrics, counters, stop, started);
      } catch (StateException e) {
        err.println("sf2loki: backfill state " + Components.describe(doc) + ": " + e.getMessage());
        return EXIT_FAILED;
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      err.println("sf2loki: backfill interrupted");
      return EXIT_FAILED;
    }
  }

  private int execute(
      BackfillRequest request,
      ElfFiles files,
      CheckpointStore store,
      List<TypePlan> plans,
      Map<String, String> labels,
      String prefix,
      Sf2lokiMetrics metrics,
      CounterReader counters,
      StopSignal stop,
      long started)
      throws InterruptedException {
    BackfillSummary summary = new BackfillSummary();
    plans.forEach(p -> summary.listings.addAndGet(p.listingCalls()));
    var batch = cfg.pipeline();
    BackfillRun.Outcome outcome;
    try (CpuPool cpu = new CpuPool();
        LokiHttpSink sink =
            new LokiHttpSink(
                Components.sink(cfg),
                metrics,
                time.sleeper(),
                new Random(),
                cpu.executor(),
                time.wall());
        BackfillProgress progress = progress(summary)) {
      BackfillRun.Parts parts =
          new BackfillRun.Parts(
              files,
              store,
              new ChunkPusher(sink, metrics, time, stop, summary, request.maxBytesPerSecond()),
              new EntryLimiter(
                  (int) Math.min(Integer.MAX_VALUE, cfg.loki().maxLineBytes()), metrics),
              labels,
              batch.maxEntries(),
              batch.maxBytes(),
              prefix,
              time,
              stop);
      progress.start(
          plans.stream().mapToLong(p -> p.files().size()).sum(),
          plans.stream().mapToLong(TypePlan::bytes).sum());
      outcome = new BackfillRun(parts, request, summary, progress).run(plans);
    }
    summary.rowsRestamped.set(counters.total("sf2loki_loki_entries_restamped"));
    out.print(summary.render(Duration.ofNanos(time.ticker().nanoTime() - started)));
    out.flush();
    if (outcome.abandoned()) {
      err.println("sf2loki: backfill abandoned: Loki kept failing (BF-9)");
      return EXIT_FAILED;
    }
    if (outcome.stopped()) {
      err.println("sf2loki: backfill stopped before the end; rerun to resume (BF-12)");
      return EXIT_FAILED;
    }
    return EXIT_OK;
  }

  private BackfillProgress progress(BackfillSummary s) {
    java.util.function.Supplier<long[]> counters =
        () -> new long[] {s.files.get(), s.fileBytesDone.get(), s.rowsPushed.get()};
    return terminal
        ? new TerminalProgress(err, time.ticker(), counters)
        : new LogProgress(time, counters);
  }

  private Optional<OrgConfig> selectOrg(Optional<String> name) {
    if (name.isEmpty()) {
      return Optional.of(cfg.orgs().getFirst());
    }
    return cfg.orgs().stream().filter(o -> o.name().equals(name.get())).findFirst();
  }

  /** The org's ELF settings with the request's interval (BF-1). */
  private EventLogFileSettings settings(OrgConfig org, BackfillRequest request) {
    EventLogFileSettings s = Components.eventLogFile(cfg, org);
    return new EventLogFileSettings(
        EventLogFileSettings.Interval.valueOf(request.interval()),
        s.eventTypes(),
        s.exclude(),
        s.pollInterval(),
        s.lookback(),
        s.timestampColumn(),
        s.pageSize(),
        s.settleWindow(),
        s.downloadMaxAge(),
        s.concurrency(),
        s.structuredMetadataFields(),
        true);
  }

  /**
   * BF-4: the given types (with {@code *} = discovery added), else the configured explicit types,
   * else discovery. Empty after printing the error when discovery fails (exit 1).
   */
  private Optional<List<String>> types(BackfillRequest request, OrgConfig org, ElfFiles files)
      throws InterruptedException {
    List<String> explicit = new ArrayList<>();
    boolean discover;
    if (request.eventTypes().isPresent()) {
      request.eventTypes().get().stream().filter(t -> !t.equals("*")).forEach(explicit::add);
      discover = request.discovers();
    } else {
      org.sources().eventlogfile().settings().eventTypes().stream()
          .map(t -> t.name())
          .filter(n -> !n.equals("*"))
          .forEach(explicit::add);
      discover = explicit.isEmpty();
    }
    if (discover) {
      try {
        for (String t : files.discover()) {
          if (!explicit.contains(t)) {
            explicit.add(t);
          }
        }
      } catch (SoqlException e) {
        err.println("sf2loki: backfill type discovery failed: " + e.getMessage());
        return Optional.empty();
      }
    }
    return Optional.of(List.copyOf(explicit));
  }

  /** BF-4: a type with no file in the range (a typo, or the other interval) is named on stderr. */
  private void warnEmptyTypes(List<TypePlan> plans, BackfillRequest request) {
    for (TypePlan p : plans) {
      if (p.failure() == null && p.files().isEmpty()) {
        err.println(
            "sf2loki: WARN: no "
                + request.interval()
                + " EventLogFile of type '"
                + p.type()
                + "' in ["
                + request.since()
                + ", "
                + request.until()
                + "); check the type name and --interval");
      }
    }
  }

  /** The document's location; a file path made absolute (the working directory resolves it). */
  static String describeAbsolute(StateConfig doc) {
    return doc.store() == StateConfig.Store.FILE
        ? doc.file().path().toAbsolutePath().normalize().toString()
        : Components.describe(doc);
  }

  private CheckpointStore openStore(StateConfig doc, boolean readOnly, StopSignal stop) {
    if (doc.store() == StateConfig.Store.FILE) {
      return new FileCheckpointStore(
          doc.file().path(),
          readOnly ? FileCheckpointStore.LockMode.NONE : FileCheckpointStore.LockMode.PROCESS);
    }
    // BF-2: the 1.x local backfill file is read once while the object document does not exist
    return LocalFallbackStore.wrap(
        Components.openStore(doc, time.sleeper(), stop), doc.file().path());
  }

  /** BF-3: ranges beyond ELF retention or Loki's default sample age. */
  private void warnRange(BackfillRequest request) {
    Duration age = Duration.between(request.since(), time.now());
    if (age.compareTo(Duration.ofDays(30)) > 0) {
      warn("--since is more than 30 days ago: beyond EventLogFile retention, older files are gone");
    }
    if (!request.ingestTimestamps() && age.compareTo(Duration.ofDays(7)) > 0) {
      warn(
          "--since is more than 7 days ago: Loki rejects samples older than 168 h by default"
              + " (reject_old_samples_max_age); such rows are restamped (late=\"true\") or dropped"
              + " per sink.loki.late_entries (SINK-13), or use --ingest-timestamps");
    }
  }

  /**
   * One WARN log line: the command's logs already go to stderr (BF-14), so a second copy printed
   * there would show the warning twice.
   */
  private void warn(String message) {
    log.atWarn().log(message);
  }
}
