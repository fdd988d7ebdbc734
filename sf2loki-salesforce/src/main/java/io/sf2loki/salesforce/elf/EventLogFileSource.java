package io.sf2loki.salesforce.elf;

import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.Lane;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.spi.CheckpointStore;
import io.sf2loki.core.spi.EntryEmitter;
import io.sf2loki.core.spi.Source;
import io.sf2loki.core.status.PollReporter;
import io.sf2loki.core.status.ReportsPolls;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.salesforce.elf.ElfCsvReader.ElfCsvParseException;
import io.sf2loki.salesforce.elf.EventLogFileSettings.EventTypeSettings;
import io.sf2loki.salesforce.rest.DownloadException;
import io.sf2loki.salesforce.rest.DownloadThrottledException;
import io.sf2loki.salesforce.rest.DownloadValidator;
import io.sf2loki.salesforce.rest.SalesforceRest;
import io.sf2loki.salesforce.rest.SoqlException;
import io.sf2loki.salesforce.rest.SoqlThrottledException;
import io.sf2loki.salesforce.rest.Spool;
import io.sf2loki.salesforce.source.CpuOffload;
import io.sf2loki.salesforce.source.FailureStreak;
import io.sf2loki.salesforce.source.PollGate;
import io.sf2loki.salesforce.source.PollLoop;
import io.sf2loki.salesforce.source.Soql;
import io.sf2loki.salesforce.source.StoredCursors;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The EventLogFile source (SPEC §6, ELF-1…ELF-16): lists each type's new log files, downloads them,
 * parses their CSV rows and emits one entry per row with the type's cursor riding along. Lane
 * {@link Lane#BULK}, name {@code eventlogfile}. Built fresh for every leadership term; the cursors
 * are read from the store once per type (lazily, at the type's first cycle) and then kept in memory
 * for the term.
 *
 * <p>Threads: {@link #run} runs the cycle loop and is the only caller of the emitter. Each cycle
 * processes types on virtual threads (at most {@code concurrency} at once, ELF-1), which hand
 * entries over through a single-slot {@link CycleHandoff} one chunk at a time; CSV parsing and row
 * shaping run on the injected CPU executor (PIPE-26) in chunks of {@value #CHUNK_ROWS} rows. Worker
 * threads are joined before a cycle ends; on stop they are interrupted and joined.
 *
 * <p>Not implemented yet: {@code *} discovery (ELF-2; the wildcard entry is ignored, with a WARN at
 * construction) and the discovery-throttle rule of ELF-3.
 */
public final class EventLogFileSource implements Source, ReportsPolls {
  private static final Logger log = LoggerFactory.getLogger(EventLogFileSource.class);

  /** Rows parsed and shaped per CPU-pool task. */
  static final int CHUNK_ROWS = 128;

  private static final String SOURCE = RowShaper.SOURCE;
  private static final String KEY_PREFIX = "eventlogfile:";

  private final EventLogFileSettings settings;
  private final SalesforceRest rest;
  private final Sf2lokiMetrics metrics;
  private final TimeSource time;
  private final CpuOffload offload;
  private final StoredCursors cursors;
  private final List<TypeState> explicitTypes;
  private final EventTypeSettings wildcard;
  private final Predicate<String> ownedElsewhere;
  private final PollGate gate;
  private PollReporter reporter = PollReporter.NONE;
  private final RowTransform transform;
  private final Set<String> excluded;

  /** Discovered types by name; state kept for the term. Touched only by the run thread. */
  private final Map<String, TypeState> discovered = new HashMap<>();

  /** Discovered names already reported as owned elsewhere (INFO once per term). */
  private final Set<String> loggedOwned = new HashSet<>();

  private final ElfCursorCodec codec = new ElfCursorCodec();
  private final ElfListing listing;
  private final RandomGenerator random = RandomGenerator.of("L64X128MixRandom");
  private final AtomicReference<CycleHandoff> currentCycle = new AtomicReference<>();

  /** Name of the type started last (ELF-3 rotation); touched only by the run thread. */
  private String lastStarted;

  /**
   * Creates the source for one term, without transforms.
   *
   * @see #EventLogFileSource(EventLogFileSettings, SalesforceRest, CheckpointStore, Sf2lokiMetrics,
   *     TimeSource, Executor, RowTransform)
   */
  public EventLogFileSource(
      EventLogFileSettings settings,
      SalesforceRest rest,
      CheckpointStore store,
      Sf2lokiMetrics metrics,
      TimeSource time,
      Executor cpuExecutor) {
    this(settings, rest, store, metrics, time, cpuExecutor, RowTransform.NONE, name -> false);
  }

  /**
   * Creates the source for one term.
   *
   * @param settings the org's {@code sources.eventlogfile} (defaulted and validated)
   * @param rest REST access to the org (listing, downloads, server now)
   * @param store checkpoint store, used read-only ({@link CheckpointStore#load}) for the cursors
   *     {@code eventlogfile:<EventType>} (unprefixed; a multi-org wrapper prefixes, ORG-4)
   * @param metrics the instance's metrics
   * @param time wall clock (entry fallbacks, gauges), ticker (cycle time) and stop-aware sleeper
   *     (poll interval)
   * @param cpuExecutor the bounded platform-thread pool for CPU-bound work (PIPE-26)
   * @param transform compiled {@code sources.eventlogfile.transforms} (XF), or {@link
   *     RowTransform#NONE}
   * @param ownedElsewhere SRC-24 ownership check for discovered types: true when the EventType's
   *     category is owned by a Pub/Sub topic or an object of the same org (the type is then skipped
   *     with INFO); {@code name -> false} when {@code allow_overlap} or there is no registry
   */
  public EventLogFileSource(
      EventLogFileSettings settings,
      SalesforceRest rest,
      CheckpointStore store,
      Sf2lokiMetrics metrics,
      TimeSource time,
      Executor cpuExecutor,
      RowTransform transform,
      Predicate<String> ownedElsewhere) {
    this(
        settings,
        rest,
        store,
        metrics,
        time,
        cpuExecutor,
        transform,
        ownedElsewhere,
        PollGate.OPEN);
  }

  /**
   * As the constructor above, with the OBS-21 gate asked before each cycle (a closed gate skips the
   * cycle until the next interval; no listing, no download, no cursor change).
   */
  public EventLogFileSource(
      EventLogFileSettings settings,
      SalesforceRest rest,
      CheckpointStore store,
      Sf2lokiMetrics metrics,
      TimeSource time,
      Executor cpuExecutor,
      RowTransform transform,
      Predicate<String> ownedElsewhere,
      PollGate gate) {
    this.gate = Objects.requireNonNull(gate, "gate");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.rest = Objects.requireNonNull(rest, "rest");
    this.listing = new ElfListing(rest, settings);
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.time = Objects.requireNonNull(time, "time");
    this.offload = new CpuOffload(Objects.requireNonNull(cpuExecutor, "cpuExecutor"));
    this.cursors = new StoredCursors(Objects.requireNonNull(store, "store")::load, metrics);
    this.transform = Objects.requireNonNull(transform, "transform");
    this.ownedElsewhere = Objects.requireNonNull(ownedElsewhere, "ownedElsewhere");
    this.excluded = Set.copyOf(settings.exclude());
    List<TypeState> list = new ArrayList<>();
    EventTypeSettings star = null;
    for (EventTypeSettings t : settings.eventTypes()) {
      if (t.isWildcard()) {
        star = star == null ? t : star;
        continue;
      }
      if (list.stream().anyMatch(s -> s.name.equals(t.name()))) {
        continue;
      }
      list.add(typeState(t));
    }
    this.explicitTypes = List.copyOf(list);
    this.wildcard = star;
  }

  private TypeState typeState(EventTypeSettings t) {
    List<String> md =
        t.structuredMetadataFields() != null
            ? t.structuredMetadataFields()
            : settings.structuredMetadataFields();
    return new TypeState(
        t.name(),
        new RowShaper(
            t.name(), settings.timestampColumn(), t.labels(), t.sample(), md, transform, metrics));
  }

  @Override
  public String name() {
    return SOURCE;
  }

  @Override
  public Lane lane() {
    return Lane.BULK;
  }

  /**
   * ELF-1: runs cycles every jittered {@code poll_interval} (SRC-21; stop-aware) until {@code stop}
   * fires or the emitter refuses an entry; with {@link EventLogFileSettings#finite()} cycles run
   * back to back and it returns after the first cycle that processed no new file.
   *
   * @throws Exception an unexpected (non-Salesforce) failure of a worker, re-raised after all
   *     workers of its cycle finished (ELF-15); it ends the term
   */
  @Override
  public void run(EntryEmitter emitter, StopSignal stop) throws Exception {
    stop.onStop(
        () -> {
          CycleHandoff h = currentCycle.get();
          if (h != null) {
            h.close();
          }
        });
    // finite runs (demo, tests, backfill-like use) drain without waiting
    new PollLoop(settings.pollInterval(), settings.finite(), time.sleeper(), random)
        .run(
            stop,
            () -> {
              CycleReport report = gate.open() ? runOnce(emitter, stop) : paused(); // OBS-21
              return new PollLoop.Poll.Result(report.stopped(), report.filesDone() > 0);
            });
  }

  /**
   * Outcome of one cycle.
   *
   * @param filesDone files processed or abandoned (the cursor moved past them)
   * @param throttled whether a worker left the cycle throttled (ELF-15)
   * @param stopped whether the stop signal fired or the emitter refused an entry
   */
  public record CycleReport(int filesDone, boolean throttled, boolean stopped) {}

  /** A cycle skipped by the API reserve (OBS-21). */
  private static final CycleReport SKIPPED = new CycleReport(0, false, false);

  /** OBS-21: the cycle is skipped; every known type reports {@code paused} (FEAT-3). */
  private CycleReport paused() {
    explicitTypes.forEach(t -> reporter.paused(t.key));
    discovered.values().forEach(t -> reporter.paused(t.key));
    return SKIPPED;
  }

  /**
   * Reports each type's poll results to {@code r} (FEAT-3, OBS-35), keyed by checkpoint key. Call
   * before {@link #run}.
   *
   * @return this
   */
  @Override
  public EventLogFileSource reportTo(PollReporter r) {
    this.reporter = Objects.requireNonNull(r, "reporter");
    return this;
  }

  /**
   * Runs exactly one cycle (ELF-1) and returns when all its workers finished. For tests and finite
   * runs; {@link #run} calls it in a loop. Call from one thread at a time.
   *
   * @throws Exception an unexpected worker failure (ELF-15)
   */
  public CycleReport runOnce(EntryEmitter emitter, StopSignal stop) throws Exception {
    long t0 = time.ticker().nanoTime();
    Instant serverNow = rest.serverNow();
    Optional<List<TypeState>> resolved = resolveTypes();
    if (resolved.isEmpty()) {
      explicitTypes.forEach(t -> reporter.skipped(t.key)); // ELF-3: no type this cycle
      metrics.eventlogfileCycleSeconds.set((time.ticker().nanoTime() - t0) / 1e9);
      return new CycleReport(0, true, stop.isStopped());
    }
    Deque<TypeState> waiting = new ArrayDeque<>(rotated(resolved.get()));
    CycleHandoff h = new CycleHandoff();
    currentCycle.set(h);
    if (stop.isStopped()) {
      h.close();
    }
    AtomicReference<Throwable> unexpected = new AtomicReference<>();
    AtomicInteger filesDone = new AtomicInteger();
    boolean stopped = false;
    ExecutorService workers =
        Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("sf2loki-elf-", 0).factory());
    try {
      loop:
      while (true) {
        CycleHandoff.Next next = h.next(!waiting.isEmpty(), settings.concurrency());
        switch (next.step()) {
          case EMIT -> {
            // one lane hand-off per group (PIPE-3 bounds still hold per entry)
            if (emitter.emitAll(next.entries()) < next.entries().size()) {
              h.close();
              stopped = true;
              break loop;
            }
          }
          case START -> {
            TypeState t = waiting.poll();
            lastStarted = t.name;
            workers.execute(
                () -> {
                  try {
                    filesDone.addAndGet(processType(t, serverNow, h));
                  } catch (CycleStoppedException e) {
                    // the hand-off closed: the cycle is ending
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  } catch (Throwable e) {
                    unexpected.compareAndSet(null, e);
                  } finally {
                    h.workerDone();
                  }
                });
          }
          case DONE -> {
            break loop;
          }
          case STOPPED -> {
            stopped = true;
            break loop;
          }
        }
      }
    } catch (InterruptedException e) {
      h.close();
      throw e;
    } finally {
      if (stopped || h.closed()) {
        workers.shutdownNow();
      }
      workers.close();
      currentCycle.compareAndSet(h, null);
    }
    boolean throttled = h.throttled();
    if (throttled && !waiting.isEmpty()) {
      log.atWarn()
          .addKeyValue("source", SOURCE)
          .addKeyValue("skipped_types", waiting.stream().map(t -> t.name).toList())
          .log("eventlogfile cycle throttled; remaining types skipped until the next cycle");
      waiting.forEach(t -> reporter.skipped(t.key));
    }
    double seconds = (time.ticker().nanoTime() - t0) / 1e9;
    metrics.eventlogfileCycleSeconds.set(seconds);
    Throwable failure = unexpected.get();
    if (failure instanceof Exception ex) {
      throw ex;
    } else if (failure instanceof Error err) {
      throw err;
    }
    return new CycleReport(filesDone.get(), throttled, stopped || stop.isStopped());
  }

  /**
   * ELF-2: explicit types, plus with {@code *} the discovered ones.
   *
   * @return the cycle's types, or empty when discovery was throttled (ELF-3: no type this cycle)
   */
  private Optional<List<TypeState>> resolveTypes() throws InterruptedException {
    if (wildcard == null) {
      return Optional.of(explicitTypes);
    }
    List<Map<String, Object>> rows;
    try {
      rows = listing.discover();
    } catch (SoqlThrottledException e) {
      log.atError()
          .addKeyValue("source", SOURCE)
          .addKeyValue("error", reporter.redact(e.getMessage()))
          .log(
              "eventlogfile type discovery throttled (REQUEST_LIMIT_EXCEEDED); no type this cycle");
      return Optional.empty();
    } catch (SoqlException e) {
      metrics.soqlPollErrors.add(
          1, Attributes.of(Sf2lokiMetrics.SOURCE, SOURCE, Sf2lokiMetrics.OBJECT, "discovery"));
      log.atWarn()
          .addKeyValue("source", SOURCE)
          .addKeyValue("object", "discovery")
          .addKeyValue("status", e.status())
          .addKeyValue("error", reporter.redact(e.getMessage()))
          .log("eventlogfile type discovery failed; using explicit types this cycle");
      return Optional.of(explicitTypes);
    }
    Set<String> explicitNames = new HashSet<>();
    explicitTypes.forEach(t -> explicitNames.add(t.name));
    List<TypeState> out = new ArrayList<>(explicitTypes);
    Set<String> seen = new HashSet<>();
    for (Map<String, Object> row : rows) {
      String name = str(row.get("EventType"));
      if (name == null
          || !seen.add(name)
          || explicitNames.contains(name)
          || excluded.contains(name)
          || !Soql.isIdentifier(name)) {
        continue;
      }
      if (ownedElsewhere.test(name)) {
        if (!discovered.containsKey(name) && loggedOwned.add(name)) {
          log.atInfo()
              .addKeyValue("source", SOURCE)
              .addKeyValue("event_type", name)
              .log("discovered eventlogfile type skipped: its category is owned by another source");
        }
        continue;
      }
      TypeState t =
          discovered.computeIfAbsent(
              name, n -> typeState(new EventTypeSettings(n, null, List.of(), wildcard.sample())));
      out.add(t);
    }
    return Optional.of(out);
  }

  private List<TypeState> rotated(List<TypeState> types) {
    int start = 0;
    if (lastStarted != null) {
      for (int i = 0; i < types.size(); i++) {
        if (types.get(i).name.equals(lastStarted)) {
          start = (i + 1) % types.size();
          break;
        }
      }
    }
    List<TypeState> out = new ArrayList<>(types.size());
    for (int i = 0; i < types.size(); i++) {
      out.add(types.get((start + i) % types.size()));
    }
    return out;
  }

  // ---------------------------------------------------------------------------------------------
  // one type

  /** Per-type state kept for the term. Touched by at most one worker at a time. */
  private static final class TypeState {
    final String name;
    final String key;
    final RowShaper shaper;
    final Attributes eventTypeAttrs;
    final Attributes objectAttrs;
    ElfCursor cursor;
    final FailureStreak failures = new FailureStreak();

    TypeState(String name, RowShaper shaper) {
      this.name = name;
      this.key = KEY_PREFIX + name;
      this.shaper = shaper;
      this.eventTypeAttrs = Attributes.of(Sf2lokiMetrics.EVENT_TYPE, name);
      this.objectAttrs = Attributes.of(Sf2lokiMetrics.SOURCE, SOURCE, Sf2lokiMetrics.OBJECT, name);
    }
  }

  /** The hand-off closed while a worker waited on it. */
  private static final class CycleStoppedException extends Exception {
    CycleStoppedException() {
      super("cycle stopped", null, false, false);
    }
  }

  /**
   * Processes one type for this cycle.
   *
   * @return number of files the cursor moved past
   */
  private int processType(TypeState t, Instant serverNow, CycleHandoff h)
      throws CycleStoppedException, InterruptedException, IOException {
    if (t.cursor == null) {
      t.cursor = loadCursor(t, serverNow);
    }
    final ElfCursor start = t.cursor;
    List<Map<String, Object>> files;
    try {
      files = listing.list(t.name, t.cursor.lastCreated());
    } catch (SoqlThrottledException e) {
      log.atError()
          .addKeyValue("source", SOURCE)
          .addKeyValue("event_type", t.name)
          .addKeyValue("error", reporter.redact(e.getMessage()))
          .log("eventlogfile listing throttled (REQUEST_LIMIT_EXCEEDED); cycle marked throttled");
      h.markThrottled();
      reporter.failed(t.key, e);
      return 0;
    } catch (SoqlException e) {
      pollFailure(t, e);
      reporter.failed(t.key, e);
      return 0;
    }

    String lastCarried = null;
    int done = 0;
    boolean clean = true;
    for (Map<String, Object> rec : files) {
      String id = str(rec.get("Id"));
      String created = str(rec.get("CreatedDate"));
      if (id == null || created == null) {
        log.atWarn()
            .addKeyValue("source", SOURCE)
            .addKeyValue("event_type", t.name)
            .addKeyValue("file_id", id)
            .log("eventlogfile listing record without Id or CreatedDate skipped");
        continue;
      }
      if (t.cursor.alreadyProcessed(id, created)) {
        continue;
      }
      Optional<Instant> createdAt = SalesforceTimestamps.parse(created);
      if (!settings.settleWindow().isZero()
          && createdAt.isPresent()
          && Duration.between(createdAt.get(), serverNow).compareTo(settings.settleWindow()) < 0) {
        log.atDebug()
            .addKeyValue("event_type", t.name)
            .addKeyValue("file_id", id)
            .addKeyValue("created_date", created)
            .log("eventlogfile file not settled yet; waiting");
        break; // ELF-7: later files are no older
      }
      FileRef file =
          new FileRef(
              t.key, id, created, createdAt.orElse(null), str(rec.get("LogDate")), t.cursor);
      file.expected = DownloadValidator.Expectation.ofField(rec.get("LogFileLength"));
      FileResult r = processFile(t, file, serverNow, h);
      switch (r.outcome()) {
        case DONE, ABANDONED -> {
          t.cursor = file.advanced;
          done++;
          if (r.carriedAdvanced()) {
            lastCarried = file.advancedToken.value();
          }
        }
        case ZERO_ROWS -> {}
        case THROTTLED -> {
          h.markThrottled();
          clean = false;
        }
        case STOP_TYPE -> clean = false;
      }
      if (!clean) {
        break;
      }
    }
    // ELF-13: the final cursor must be carried by some emitted entry
    if (!t.cursor.equals(start)) {
      String value = t.cursor.toValue();
      if (!value.equals(lastCarried)) {
        put(h, LogEntry.checkpointOnly(new CheckpointToken(t.key, value)));
      }
    }
    if (t.cursor.window().size() > ElfCursor.WARN_SIZE) {
      log.atWarn()
          .addKeyValue("event_type", t.name)
          .addKeyValue("window_size", t.cursor.window().size())
          .log("eventlogfile id window exceeds 5000 entries");
    }
    if (clean) {
      reporter.ok(t.key);
      t.failures.reset();
      metrics.sourceLastSuccessTimestampSeconds.set(
          time.now().toEpochMilli() / 1000.0, t.objectAttrs);
    }
    return done;
  }

  /** ELF-4: absent or unusable → the lookback window (SRC-12). */
  private ElfCursor loadCursor(TypeState t, Instant serverNow) {
    String def = SalesforceTimestamps.defaultSince(serverNow.minus(settings.lookback()));
    return cursors.load(
        log,
        SOURCE,
        t.key,
        codec.withDefault(def),
        new ElfCursor(def, List.of()),
        def,
        "eventlogfile checkpoint unreadable; starting from the lookback window");
  }

  /** SRC-19: WARN, ERROR from the third consecutive failure; counted. */
  private void pollFailure(TypeState t, SoqlException e) {
    metrics.soqlPollErrors.add(1, t.objectAttrs);
    metrics.eventlogfileDownloadErrors.add(1, Attributes.of(Sf2lokiMetrics.REASON, "listing"));
    t.failures.pollFailed(log, SOURCE, t.name, e, reporter).log("eventlogfile listing failed");
  }

  // ---------------------------------------------------------------------------------------------
  // one file

  private enum FileOutcome {
    DONE,
    ABANDONED,
    ZERO_ROWS,
    THROTTLED,
    STOP_TYPE
  }

  private record FileResult(FileOutcome outcome, boolean carriedAdvanced) {}

  /** A listed file and the two cursor values around it (ELF-10). */
  private static final class FileRef {
    final String id;
    final String created;
    final Instant createdAt;
    final String logDate;
    final ElfCursor advanced;
    final CheckpointToken advancedToken;
    final ElfCursor before;
    DownloadValidator.Expectation expected = DownloadValidator.Expectation.unknownSize();

    FileRef(
        String key,
        String id,
        String created,
        Instant createdAt,
        String logDate,
        ElfCursor before) {
      this.id = id;
      this.created = created;
      this.createdAt = createdAt;
      this.logDate = logDate;
      this.before = before;
      this.advanced = before.advance(id, created);
      this.advancedToken = new CheckpointToken(key, advanced.toValue());
    }
  }

  private FileResult processFile(TypeState t, FileRef file, Instant serverNow, CycleHandoff h)
      throws CycleStoppedException, InterruptedException {
    String path = ElfFiles.logFilePath(rest.apiVersion(), file.id);
    Spool spool;
    try {
      spool = rest.download(path, file.expected);
    } catch (DownloadThrottledException e) {
      // sf2loki_salesforce_api_throttled{api="eventlogfile"} is counted by the REST client
      metrics.eventlogfileDownloadErrors.add(1, Attributes.of(Sf2lokiMetrics.REASON, e.reason()));
      log.atError()
          .addKeyValue("source", SOURCE)
          .addKeyValue("event_type", t.name)
          .addKeyValue("file_id", file.id)
          .log("eventlogfile download throttled (REQUEST_LIMIT_EXCEEDED); cycle marked throttled");
      reporter.failed(t.key, e);
      return new FileResult(FileOutcome.THROTTLED, false);
    } catch (DownloadException e) { // incl. SRC-28 invalid_body: its message names type and sizes
      reporter.failed(t.key, e);
      metrics.eventlogfileDownloadErrors.add(1, Attributes.of(Sf2lokiMetrics.REASON, e.reason()));
      return failed(t, file, serverNow, h, e.reason(), e.status(), e.getMessage(), 0);
    }
    try (spool) {
      metrics.eventlogfileDownloadBytes.add(spool.sizeBytes(), t.eventTypeAttrs);
      return parseAndEmit(t, file, serverNow, h, spool);
    }
  }

  /** ELF-12 for a failure that is not a throttle. */
  private FileResult failed(
      TypeState t,
      FileRef file,
      Instant serverNow,
      CycleHandoff h,
      String reason,
      int status,
      String message,
      long rowsEmitted)
      throws CycleStoppedException, InterruptedException {
    if (status == 404 || status == 410) {
      return abandon(t, file, h, "HTTP " + status, rowsEmitted);
    }
    Duration maxAge = settings.downloadMaxAge();
    boolean old =
        maxAge.isZero()
            || file.createdAt == null
            || Duration.between(file.createdAt, serverNow).compareTo(maxAge) > 0;
    if (old) {
      return abandon(t, file, h, "max_age", rowsEmitted);
    }
    log.atWarn()
        .addKeyValue("source", SOURCE)
        .addKeyValue("event_type", t.name)
        .addKeyValue("file_id", file.id)
        .addKeyValue("created_date", file.created)
        .addKeyValue("reason", reason)
        .addKeyValue("error", reporter.redact(message))
        .log("eventlogfile download failed; type stops for this cycle");
    return new FileResult(FileOutcome.STOP_TYPE, false);
  }

  private FileResult abandon(
      TypeState t, FileRef file, CycleHandoff h, String reason, long rowsEmitted)
      throws CycleStoppedException, InterruptedException {
    return abandon(t, file, h, reason, rowsEmitted, null);
  }

  /**
   * ELF-12 abandonment; {@code parseErrorRow} is the 1-based data row of a CSV parse error (logged
   * as {@code row}), or null for other reasons.
   */
  private FileResult abandon(
      TypeState t,
      FileRef file,
      CycleHandoff h,
      String reason,
      long rowsEmitted,
      Long parseErrorRow)
      throws CycleStoppedException, InterruptedException {
    var event =
        log.atError()
            .addKeyValue("source", SOURCE)
            .addKeyValue("event_type", t.name)
            .addKeyValue("file_id", file.id)
            .addKeyValue("created_date", file.created)
            .addKeyValue("reason", reason)
            .addKeyValue("rows_emitted", rowsEmitted);
    if (parseErrorRow != null) {
      event = event.addKeyValue("row", parseErrorRow);
    }
    event.log("eventlogfile file abandoned");
    metrics.eventlogfileFilesAbandoned.add(
        1, Attributes.of(Sf2lokiMetrics.EVENT_TYPE, t.name, Sf2lokiMetrics.REASON, reason));
    put(h, LogEntry.checkpointOnly(file.advancedToken));
    return new FileResult(FileOutcome.ABANDONED, true);
  }

  /** One CPU-pool task's output. */
  private record Chunk(
      List<LogEntry> entries, int rows, boolean eof, ElfCsvParseException parseError) {}

  private FileResult parseAndEmit(
      TypeState t, FileRef file, Instant serverNow, CycleHandoff h, Spool spool)
      throws CycleStoppedException, InterruptedException {
    long startedNanos = time.ticker().nanoTime();
    CheckpointToken before = new CheckpointToken(t.key, file.before.toValue());
    RowShaper.FileContext ctx =
        new RowShaper.FileContext(
            SalesforceTimestamps.parse(file.logDate).orElse(null), serverNow, before);
    long rows = 0;
    long emitted = 0;
    LogEntry held = null;
    ElfCsvReader reader = null;
    try {
      try {
        reader = onCpu(h, () -> new ElfCsvReader(spool.open()));
        final ElfCsvReader r = reader;
        ctx.header(r.header());
        while (true) {
          Chunk c = onCpu(h, () -> readChunk(t, r, ctx));
          rows += c.rows();
          List<LogEntry> entries = c.entries();
          if (!entries.isEmpty()) {
            // hand over all but the chunk's last entry, which is held back so the file's final
            // entry can carry the advanced cursor (ELF-10)
            List<LogEntry> group = new ArrayList<>(entries.size());
            if (held != null) {
              group.add(held);
            }
            group.addAll(entries.subList(0, entries.size() - 1));
            held = entries.get(entries.size() - 1);
            if (!group.isEmpty()) {
              putGroup(h, group);
              emitted += group.size();
            }
          }
          if (c.parseError() != null) {
            throw c.parseError();
          }
          if (c.eof()) {
            break;
          }
        }
      } catch (ElfCsvParseException e) {
        if (held != null) {
          put(h, held);
          emitted++;
        }
        log.atError()
            .addKeyValue("source", SOURCE)
            .addKeyValue("event_type", t.name)
            .addKeyValue("file_id", file.id)
            .addKeyValue("row", e.row())
            .addKeyValue(
                "error",
                reporter.redact(e.getCause() == null ? e.getMessage() : e.getCause().getMessage()))
            .log("eventlogfile CSV parse error");
        metrics.eventlogfileDownloadErrors.add(1, Attributes.of(Sf2lokiMetrics.REASON, "parse"));
        return abandon(t, file, h, "parse", emitted, e.row());
      } catch (IOException e) {
        metrics.eventlogfileDownloadErrors.add(
            1, Attributes.of(Sf2lokiMetrics.REASON, "transport"));
        return failed(t, file, serverNow, h, "transport", 0, e.getMessage(), emitted);
      }
    } finally {
      closeQuietly(reader);
    }
    metrics.eventlogfileFilesProcessed.add(1, t.eventTypeAttrs);
    if (rows == 0) {
      log.atDebug()
          .addKeyValue("event_type", t.name)
          .addKeyValue("file_id", file.id)
          .log("eventlogfile file has no rows; skipped without advancing");
      return new FileResult(FileOutcome.ZERO_ROWS, false);
    }
    boolean carried = held != null;
    if (carried) {
      put(h, withToken(held, file.advancedToken));
    }
    log.atInfo()
        .addKeyValue("source", SOURCE)
        .addKeyValue("event_type", t.name)
        .addKeyValue("file_id", file.id)
        .addKeyValue("created_date", file.created)
        .addKeyValue("rows", rows)
        .addKeyValue("entries", emitted + (carried ? 1 : 0))
        .addKeyValue("bytes", spool.sizeBytes())
        .addKeyValue("millis", (time.ticker().nanoTime() - startedNanos) / 1_000_000)
        .log("eventlogfile file processed");
    return new FileResult(FileOutcome.DONE, carried);
  }

  private Chunk readChunk(TypeState t, ElfCsvReader reader, RowShaper.FileContext ctx)
      throws IOException {
    List<LogEntry> out = new ArrayList<>(CHUNK_ROWS);
    int rows = 0;
    try {
      while (rows < CHUNK_ROWS) {
        Map<String, Object> row = reader.next();
        if (row == null) {
          return new Chunk(out, rows, true, null);
        }
        rows++;
        LogEntry e = t.shaper.shape(row, ctx);
        if (e != null) {
          out.add(e);
        }
      }
    } catch (ElfCsvParseException e) {
      return new Chunk(out, rows, true, e);
    }
    return new Chunk(out, rows, false, null);
  }

  private static LogEntry withToken(LogEntry e, CheckpointToken token) {
    return new LogEntry(
        e.timestamp(),
        e.labels(),
        e.line(),
        e.structuredMetadata(),
        token,
        e.checkpointOnly(),
        e.lineBytes());
  }

  private void putGroup(CycleHandoff h, List<LogEntry> group)
      throws CycleStoppedException, InterruptedException {
    if (!h.put(group)) {
      throw new CycleStoppedException();
    }
  }

  private void put(CycleHandoff h, LogEntry e) throws CycleStoppedException, InterruptedException {
    if (!h.put(e)) {
      throw new CycleStoppedException();
    }
  }

  /**
   * Runs {@code task} on the CPU executor and waits for it, stop-aware (PIPE-26). Checked
   * exceptions of the task are rethrown as they are.
   */
  private <T> T onCpu(CycleHandoff h, Callable<T> task)
      throws CycleStoppedException, InterruptedException, IOException, ElfCsvParseException {
    CompletableFuture<T> f = offload.submit(task);
    if (!h.await(f)) {
      f.cancel(false);
      throw new CycleStoppedException();
    }
    return CpuOffload.result(f, IOException.class, ElfCsvParseException.class);
  }

  private static void closeQuietly(ElfCsvReader reader) {
    if (reader == null) {
      return;
    }
    try {
      reader.close();
    } catch (IOException e) {
      // the spool is closed by its owner right after
    }
  }

  private static String str(Object v) {
    return v == null ? null : String.valueOf(v);
  }
}
