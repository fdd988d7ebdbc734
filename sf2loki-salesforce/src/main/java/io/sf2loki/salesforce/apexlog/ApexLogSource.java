package io.sf2loki.salesforce.apexlog;

import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.Lane;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.shape.TimestampParser;
import io.sf2loki.core.spi.EntryEmitter;
import io.sf2loki.core.spi.Source;
import io.sf2loki.core.status.PollReporter;
import io.sf2loki.core.status.ReportsPolls;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.salesforce.rest.SoqlException;
import io.sf2loki.salesforce.rest.SoqlThrottledException;
import io.sf2loki.salesforce.revisit.Revisit;
import io.sf2loki.salesforce.source.FailureStreak;
import io.sf2loki.salesforce.source.PollGate;
import io.sf2loki.salesforce.source.PollLoop;
import io.sf2loki.salesforce.source.SourceContext;
import io.sf2loki.salesforce.source.StoredCursors;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ApexLog source (SPEC §7, APX-1…APX-10): lists debug logs through the Tooling API with a
 * compound {@code (StartTime, Id)} cursor, fetches each body and emits one entry per log whose line
 * is the raw body (or the metadata JSON when the body is skipped). Lane {@link Lane#BULK}, name
 * {@code apexlog}, checkpoint key {@code apexlog}. Built fresh for every leadership term; the
 * cursor is read from the store at the first poll and then kept in memory for the term.
 *
 * <p>Threads: everything runs on the thread calling {@link #run} (or {@link #pollOnce}); instances
 * are not thread-safe. Bodies are read as UTF-8 with invalid bytes replaced by U+FFFD.
 *
 * <p>Failure memory (APX-6's "third consecutive cycle failing on the same log") and the revisit's
 * memory of handled Ids (APX-10, at most {@code revisit_max_keys}) live in the instance, so they
 * restart empty with each term.
 */
public final class ApexLogSource implements Source, ReportsPolls {
  private static final Logger log = LoggerFactory.getLogger(ApexLogSource.class);

  /** Source name, {@code source} label and {@code event_type} label (APX-7). */
  public static final String SOURCE = "apexlog";

  /** The checkpoint key, one regardless of {@code users} (SRC-15). */
  public static final String KEY = "apexlog";

  /**
   * APX-6: the cycle that fails on the same log for this many consecutive cycles skips its body.
   */
  public static final int FAILING_CYCLES_BEFORE_SKIP = 3;

  private static final DateTimeFormatter DEFAULT_SINCE =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);

  private final ApexLogSettings settings;
  private final ToolingApi api;
  private final StoredCursors cursors;
  private final Sf2lokiMetrics metrics;
  private final TimeSource time;
  private final LogShipper shipper;
  private final ApexLogRevisit revisit;
  private final PollGate gate;
  private PollReporter reporter = PollReporter.NONE;
  private final RandomGenerator random = RandomGenerator.of("L64X128MixRandom");
  private final Attributes objectAttrs =
      Attributes.of(Sf2lokiMetrics.SOURCE, SOURCE, Sf2lokiMetrics.OBJECT, SOURCE);

  // state of the term; touched only by the polling thread
  private ApexLogCursor cursor;
  private final FailureStreak listingFailures = new FailureStreak();
  private boolean stalledLastPoll;

  /** Creates the source for one term, without transforms. */
  public ApexLogSource(ApexLogSettings settings, ToolingApi api, SourceContext context) {
    this(settings, api, context, MetadataTransform.NONE);
  }

  /**
   * Creates the source for one term.
   *
   * @param settings the org's {@code sources.apexlog} (defaulted and validated)
   * @param api Tooling queries, body downloads, server now ({@link
   *     ToolingApi#over(io.sf2loki.salesforce.rest.HttpSalesforceRest)})
   * @param context time — wall clock (OBS-14 gauge), ticker (revisit), stop-aware sleeper (poll
   *     interval) —, metrics, the cursor {@code apexlog} (read-only, unprefixed; a multi-org host
   *     prefixes, ORG-4) and the OBS-21 gate asked before each poll (a closed gate skips the poll
   *     until the next interval; no query, no download, no cursor change); the CPU pool is unused
   * @param transform compiled {@code sources.apexlog.transforms} (metadata only), or {@link
   *     MetadataTransform#NONE}
   */
  public ApexLogSource(
      ApexLogSettings settings,
      ToolingApi api,
      SourceContext context,
      MetadataTransform transform) {
    this.gate = context.gate();
    this.settings = Objects.requireNonNull(settings, "settings");
    this.api = Objects.requireNonNull(api, "api");
    this.cursors = context.stored();
    this.metrics = context.metrics();
    this.time = context.time();
    this.shipper =
        new LogShipper(settings, api, metrics, Objects.requireNonNull(transform, "transform"));
    this.revisit =
        new ApexLogRevisit(
            new Revisit(SOURCE, SOURCE, settings.revisit(), time.ticker(), metrics),
            settings,
            api,
            shipper);
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
   * Polls at once, then every jittered {@code poll_interval} (SRC-21, stop-aware) until {@code
   * stop} fires or the emitter refuses an entry. With {@link ApexLogSettings#finite()} polls run
   * back to back and it returns after the first poll that moved the cursor past no log.
   */
  @Override
  public void run(EntryEmitter emitter, StopSignal stop) throws InterruptedException {
    new PollLoop(settings.pollInterval(), settings.finite(), time.sleeper(), random)
        .runInterruptibly(
            stop,
            () -> {
              // OBS-21: a poll due while the API reserve pauses is skipped (no call, cursor kept)
              PollReport report = gate.open() ? pollOnce(emitter, stop) : paused();
              return new PollLoop.Poll.Result(
                  report.outcome() == Outcome.STOPPED, report.logsDone() > 0);
            });
  }

  /** How a poll ended. */
  public enum Outcome {
    /** The listing drained to a short page and every listed log was handled. */
    CLEAN,
    /** A listing query failed (SRC-19). */
    LISTING_ERROR,
    /** A listing query or a body download was throttled (APX-6, APX-8). */
    THROTTLED,
    /** A body download failed transiently; the poll ended before that log (APX-6). */
    BODY_FAILED,
    /** A full page held only already-seen Ids (APX-8). */
    STALLED,
    /** The stop signal fired or the emitter refused an entry. */
    STOPPED
  }

  /**
   * Outcome of one poll.
   *
   * @param outcome how it ended
   * @param logsDone logs the cursor moved past (entries, skipped bodies, dropped, sampled out)
   * @param queries listing queries sent
   */
  public record PollReport(Outcome outcome, int logsDone, int queries) {}

  /** A poll skipped by the API reserve (OBS-21). */
  private static final PollReport SKIPPED = new PollReport(Outcome.CLEAN, 0, 0);

  private PollReport paused() {
    reporter.paused(KEY);
    return SKIPPED;
  }

  /**
   * Reports poll results to {@code r} (FEAT-3, OBS-35) under the key {@code apexlog}. Call before
   * {@link #run}.
   *
   * @return this
   */
  @Override
  public ApexLogSource reportTo(PollReporter r) {
    this.reporter = Objects.requireNonNull(r, "reporter");
    shipper.reportTo(r);
    return this;
  }

  /**
   * Runs exactly one poll: drains the listing until a short page (APX-1), handles each new log
   * (APX-3…APX-7), then emits the APX-9 checkpoint-only entry when needed. For tests and {@link
   * #run}; call from one thread at a time.
   *
   * @throws InterruptedException if interrupted while emitting or calling Salesforce
   */
  public PollReport pollOnce(EntryEmitter emitter, StopSignal stop) throws InterruptedException {
    Instant serverNow = api.serverNow();
    if (cursor == null) {
      cursor = loadCursor(serverNow);
    }
    final ApexLogCursor start = cursor;
    Listing l = drainListing(emitter, stop, serverNow);
    Outcome outcome = l.outcome;
    if (outcome != Outcome.STALLED) {
      stalledLastPoll = false;
    }
    if (outcome != Outcome.LISTING_ERROR
        && outcome != Outcome.STOPPED
        && outcome != Outcome.THROTTLED) {
      listingFailures.reset();
    }
    if (outcome != Outcome.STOPPED && !cursor.equals(start)) {
      String value = cursor.toValue();
      if (!value.equals(l.lastCarried)
          && !emitter.emit(LogEntry.checkpointOnly(new CheckpointToken(KEY, value)))) {
        outcome = Outcome.STOPPED;
      }
    }
    if (outcome == Outcome.CLEAN) {
      outcome = revisit(serverNow, emitter, stop); // APX-10, after the listing path
    }
    if (outcome == Outcome.BODY_FAILED) { // APX-6; listing failures reported where caught
      reporter.failed(KEY, "body_failed", "a log body download failed; the poll ended before it");
    }
    if (outcome == Outcome.CLEAN || outcome == Outcome.STALLED) {
      reporter.ok(KEY);
    }
    if (outcome == Outcome.CLEAN) {
      metrics.sourceLastSuccessTimestampSeconds.set(
          time.now().toEpochMilli() / 1000.0, objectAttrs);
    }
    return new PollReport(outcome, l.done, l.queries);
  }

  /** What one poll's listing went through. */
  private static final class Listing {
    Outcome outcome;
    String lastCarried;
    int done;
    int queries;
    boolean anyNew;
  }

  /** APX-1: pages through the listing until a short page, a stall, a failure or stop. */
  private Listing drainListing(EntryEmitter emitter, StopSignal stop, Instant serverNow)
      throws InterruptedException {
    Listing l = new Listing();
    Set<String> window = cursor.idSet();
    while (true) {
      if (stop.isStopped()) {
        l.outcome = Outcome.STOPPED;
        return l;
      }
      String soql = ApexLogSoql.listing(cursor.lastTs(), cursor.lastId(), settings.users());
      List<Map<String, Object>> records;
      l.queries++;
      try {
        records = api.toolingQuery(soql);
      } catch (SoqlThrottledException e) {
        log.atError()
            .addKeyValue("source", SOURCE)
            .addKeyValue("object", SOURCE)
            .addKeyValue("error", reporter.redact(e.getMessage()))
            .log("apexlog listing throttled (REQUEST_LIMIT_EXCEEDED); poll ends");
        reporter.failed(KEY, e);
        l.outcome = Outcome.THROTTLED;
        return l;
      } catch (SoqlException e) {
        listingFailure(e);
        reporter.failed(KEY, e);
        l.outcome = Outcome.LISTING_ERROR;
        return l;
      }
      Outcome ended = handlePage(records, window, l, emitter, stop, serverNow);
      if (ended != null) {
        l.outcome = ended;
        return l;
      }
      if (records.size() < ApexLogSoql.PAGE_SIZE) {
        l.outcome = Outcome.CLEAN;
        return l;
      }
      if (!l.anyNew) {
        stall();
        l.outcome = Outcome.STALLED;
        return l;
      }
    }
  }

  /**
   * APX-3…APX-7 for one listing page.
   *
   * @return the outcome that ends the poll, or null to go on
   */
  private Outcome handlePage(
      List<Map<String, Object>> records,
      Set<String> window,
      Listing l,
      EntryEmitter emitter,
      StopSignal stop,
      Instant serverNow)
      throws InterruptedException {
    l.anyNew = false;
    for (Map<String, Object> rec : records) {
      String id = LogShipper.str(rec.get("Id"));
      if (id == null || id.isEmpty()) {
        log.atWarn().addKeyValue("source", SOURCE).log("apexlog listing record without Id skipped");
        continue;
      }
      if (window.contains(id)) {
        continue;
      }
      l.anyNew = true;
      // XF-8: the cursor uses the original Id and StartTime
      ApexLogCursor advanced = cursor.advance(id, LogShipper.str(rec.get("StartTime")));
      LogShipper.LogResult r = shipper.process(rec, id, advanced, emitter, stop, serverNow);
      switch (r.step()) {
        case ADVANCED -> {
          cursor = advanced;
          revisit.remember(id, TimestampParser.parseOrNull(rec.get("StartTime")), serverNow);
          window.add(id);
          l.done++;
          if (r.carried() != null) {
            l.lastCarried = r.carried();
          }
        }
        case END -> {
          return r.outcome();
        }
      }
    }
    return null;
  }

  /** The cursor as of now (null before the first poll); for tests. */
  public ApexLogCursor cursor() {
    return cursor;
  }

  // ---------------------------------------------------------------------------------------------

  /** APX-10: the revisit; its query failures are listing failures (SRC-19, APX-8). */
  private Outcome revisit(Instant serverNow, EntryEmitter emitter, StopSignal stop)
      throws InterruptedException {
    try {
      return revisit.run(cursor, serverNow, emitter, stop);
    } catch (SoqlThrottledException e) {
      log.atError()
          .addKeyValue("source", SOURCE)
          .addKeyValue("object", SOURCE)
          .addKeyValue("error", reporter.redact(e.getMessage()))
          .log("apexlog revisit throttled (REQUEST_LIMIT_EXCEEDED); poll ends");
      reporter.failed(KEY, e);
      return Outcome.THROTTLED;
    } catch (SoqlException e) {
      listingFailure(e);
      reporter.failed(KEY, e);
      return Outcome.LISTING_ERROR;
    }
  }

  /** APX-2: absent → lookback default; unusable → WARN, counted, lookback default. */
  private ApexLogCursor loadCursor(Instant serverNow) {
    String def =
        DEFAULT_SINCE.format(serverNow.minus(settings.lookback()).truncatedTo(ChronoUnit.SECONDS));
    return cursors.load(
        log,
        SOURCE,
        KEY,
        ApexLogCursor.codec(def),
        new ApexLogCursor(def, List.of()),
        def,
        "apexlog checkpoint unreadable; starting from the lookback window");
  }

  /** SRC-19: WARN, ERROR from the third consecutive failure; counted. */
  private void listingFailure(SoqlException e) {
    metrics.soqlPollErrors.add(1, objectAttrs);
    listingFailures.pollFailed(log, SOURCE, SOURCE, e, reporter).log("apexlog listing failed");
  }

  /** APX-8: WARN at the first stalled poll, ERROR and a counted stall from the second in a row. */
  private void stall() {
    if (stalledLastPoll) {
      metrics.watermarkStalls.add(1, objectAttrs);
      log.atError()
          .addKeyValue("source", SOURCE)
          .addKeyValue("object", SOURCE)
          .addKeyValue("watermark", cursor.lastTs())
          .log("apexlog watermark stalled: a full page of already-seen logs again");
    } else {
      log.atWarn()
          .addKeyValue("source", SOURCE)
          .addKeyValue("object", SOURCE)
          .addKeyValue("watermark", cursor.lastTs())
          .log("apexlog listing returned a full page of already-seen logs");
    }
    stalledLastPoll = true;
  }
}
