package io.sf2loki.salesforce.objects;

import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.Lane;
import io.sf2loki.core.shape.StructuredMetadataExtractor;
import io.sf2loki.core.shape.TimestampParser;
import io.sf2loki.core.spi.EntryEmitter;
import io.sf2loki.core.spi.Source;
import io.sf2loki.core.status.PollReporter;
import io.sf2loki.core.status.ReportsPolls;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.salesforce.elf.RowTransform;
import io.sf2loki.salesforce.rest.SalesforceRest;
import io.sf2loki.salesforce.rest.SoqlException;
import io.sf2loki.salesforce.rest.SoqlThrottledException;
import io.sf2loki.salesforce.revisit.Revisit;
import io.sf2loki.salesforce.source.Jitter;
import io.sf2loki.salesforce.source.PollGate;
import io.sf2loki.salesforce.source.SourceContext;
import io.sf2loki.salesforce.source.StoredCursors;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The SOQL object source {@code eventlog_objects} (SPEC §5, OBJ-1…OBJ-17): polls every configured
 * object (standard objects with the ascending compound {@code (timestamp, Id)} cursor, Big Objects
 * with the newest-first drain) and emits one entry per record with the object's cursor riding
 * along. Lane {@link Lane#BULK}.
 *
 * <p>One instance serves all objects of an org for one leadership term: OBJ-1 schedules every
 * object on its own due time inside one loop, and OBJ-12 makes a throttle of one object push every
 * other due object, which needs the shared schedule. Cursors are loaded from the store once per
 * object (at its first poll) and then kept in memory for the term.
 *
 * <p>Parts: this class schedules the objects and runs each poll (OBJ-1, OBJ-2, OBJ-11, OBJ-12,
 * SRC-19); {@link AscDrain} (OBJ-3, OBJ-4) and {@link DescDrain} (OBJ-5, OBJ-7, OBJ-8) page one
 * object, {@link ObjectPoll} emits its records, {@link WatermarkSignals} raises the OBJ-4/7/9
 * warnings and {@link ObjectRevisit} runs the late-visibility revisit. All log under this class's
 * logger.
 *
 * <p>Threads: {@link #run} (or {@link #pollOnce}) is the only caller of the emitter; each page's
 * records are keyed, transformed, sampled and serialised on the injected CPU executor (PIPE-26).
 *
 * <p>Memory: a DESC drain holds at most {@code max_catchup_records} records and {@code
 * max_catchup_bytes} bytes of canonical JSON (OBJ-8), plus the record keys of the rows at its
 * current lower bound (a tie group). The id window is {@code [last Id]} on the ASC path and every
 * record key at the watermark instant on the DESC path (uncapped, WARN above 5000; OBJ-9). The
 * late-visibility revisit ({@link ObjectRevisit}, OBJ-13…OBJ-17) remembers at most {@code
 * revisit_max_keys} shipped keys per object.
 */
public final class EventLogObjectSource implements Source, ReportsPolls {
  private static final Logger log = LoggerFactory.getLogger(EventLogObjectSource.class);

  /** The {@code source} label and metric attribute. */
  public static final String SOURCE = "eventlog_objects";

  /** Checkpoint key prefix: {@code eventlog_objects:<Object>} (SRC-15). */
  public static final String KEY_PREFIX = "eventlog_objects:";

  private final EventLogObjectsSettings settings;
  private final SalesforceRest rest;
  private final StoredCursors cursors;
  private final Sf2lokiMetrics metrics;
  private final TimeSource time;
  private final AscDrain asc;
  private final DescDrain desc;
  private final RandomGenerator random;
  private final PollGate gate;
  private PollReporter reporter = PollReporter.NONE;
  private final List<ObjectState> states = new ArrayList<>();

  /**
   * Creates the source for one term without transforms and with a fresh jitter generator.
   *
   * @see #EventLogObjectSource(EventLogObjectsSettings, SalesforceRest, SourceContext,
   *     RowTransform, RandomGenerator)
   */
  public EventLogObjectSource(
      EventLogObjectsSettings settings, SalesforceRest rest, SourceContext context) {
    this(settings, rest, context, RowTransform.NONE, RandomGenerator.of("L64X128MixRandom"));
  }

  /**
   * Creates the source for one term.
   *
   * @param settings the org's {@code sources.eventlog_objects} (defaulted and validated)
   * @param rest REST access (queries, server now)
   * @param context time — wall clock (entry fallbacks, gauges), monotonic ticker (due times,
   *     SRC-26), stop-aware sleeper —, the CPU pool for shaping (PIPE-26), metrics, the cursors
   *     {@code eventlog_objects:<Object>} (read-only, unprefixed; a multi-org host prefixes, ORG-4)
   *     and the OBS-21 gate asked before each object's poll (a closed gate skips the poll until the
   *     object's next due time; no query, no cursor change)
   * @param transform compiled {@code sources.eventlog_objects.transforms} (XF), applied to each
   *     record after its key and watermark were taken from the original values (XF-8)
   * @param random jitter source (SRC-21)
   */
  public EventLogObjectSource(
      EventLogObjectsSettings settings,
      SalesforceRest rest,
      SourceContext context,
      RowTransform transform,
      RandomGenerator random) {
    this.gate = context.gate();
    this.settings = Objects.requireNonNull(settings, "settings");
    this.rest = Objects.requireNonNull(rest, "rest");
    this.cursors = context.stored();
    this.metrics = context.metrics();
    this.time = context.time();
    RecordPreparer preparer =
        new RecordPreparer(
            context.cpu(),
            Objects.requireNonNull(transform, "transform"),
            new StructuredMetadataExtractor(settings.structuredMetadataFields()));
    WatermarkSignals signals = new WatermarkSignals(metrics);
    this.asc = new AscDrain(rest, preparer, signals);
    this.desc = new DescDrain(rest, preparer, signals);
    this.random = Objects.requireNonNull(random, "random");
    long now = time.ticker().nanoTime();
    for (ObjectSettings o : settings.objects()) {
      Revisit core = new Revisit(SOURCE, o.name(), o.revisit(), time.ticker(), metrics);
      states.add(new ObjectState(o, now, new ObjectRevisit(core, o, rest, preparer)));
    }
  }

  @Override
  public String name() {
    return SOURCE;
  }

  @Override
  public Lane lane() {
    return Lane.BULK;
  }

  /** How one poll of one object ended. */
  public enum Outcome {
    /** The poll completed (including a stall, OBJ-4). */
    OK,
    /** {@code REQUEST_LIMIT_EXCEEDED} (OBJ-12): nothing beyond the already emitted entries. */
    THROTTLED,
    /** Another SOQL error (SRC-19): retried next poll. */
    FAILED,
    /** The stop signal fired or the emitter refused an entry. */
    STOPPED
  }

  /**
   * Result of one poll.
   *
   * @param outcome how it ended
   * @param realEntries real entries emitted
   * @param advanced whether the object's cursor moved
   */
  public record PollResult(Outcome outcome, int realEntries, boolean advanced) {}

  /**
   * OBJ-1: every object is due at start; the loop sleeps (stop-aware) until the earliest due time
   * and polls due objects one after another, each then due again after its jittered {@code
   * poll_interval}. With {@link EventLogObjectsSettings#finite()} rounds run back to back and it
   * returns after the first round in which no cursor advanced.
   */
  @Override
  public void run(EntryEmitter emitter, StopSignal stop) throws Exception {
    while (!stop.isStopped()) {
      long now = time.ticker().nanoTime();
      boolean advanced = false;
      for (ObjectState s : states) {
        if (!settings.finite() && s.dueNanos - now > 0) {
          continue;
        }
        if (!gate.open()) { // OBS-21: skipped, due again after its interval
          reporter.paused(s.key);
          s.dueNanos = time.ticker().nanoTime() + jittered(s.settings.pollInterval()).toNanos();
          continue;
        }
        PollResult r = poll(s, emitter, stop);
        if (r.outcome() == Outcome.STOPPED) {
          return;
        }
        s.dueNanos = time.ticker().nanoTime() + jittered(s.settings.pollInterval()).toNanos();
        advanced |= r.advanced();
        if (r.outcome() == Outcome.THROTTLED) {
          // OBJ-12: every other due object waits one full jittered interval
          for (ObjectState o : states) {
            if (o != s && o.dueNanos - now <= 0) {
              reporter.skipped(o.key);
              o.dueNanos = time.ticker().nanoTime() + jittered(o.settings.pollInterval()).toNanos();
            }
          }
          if (settings.finite()) {
            break;
          }
        }
      }
      if (settings.finite()) {
        if (!advanced) {
          return;
        }
        continue;
      }
      long earliest = Long.MAX_VALUE;
      for (ObjectState s : states) {
        earliest = Math.min(earliest, s.dueNanos);
      }
      if (states.isEmpty()) {
        stop.await();
        return;
      }
      long wait = earliest - time.ticker().nanoTime();
      if (wait > 0 && !time.sleeper().sleep(Duration.ofNanos(wait), stop)) {
        return;
      }
    }
  }

  /**
   * Polls one object now, regardless of its due time (tests, diagnostics). Call from one thread at
   * a time, never concurrently with {@link #run}.
   *
   * @throws IllegalArgumentException for an object that is not configured
   */
  public PollResult pollOnce(String object, EntryEmitter emitter, StopSignal stop)
      throws InterruptedException {
    for (ObjectState s : states) {
      if (s.settings.name().equals(object)) {
        return poll(s, emitter, stop);
      }
    }
    throw new IllegalArgumentException("object not configured: " + object);
  }

  /**
   * Reports each object's poll results to {@code r} (FEAT-3, OBS-35), keyed by checkpoint key. Call
   * before {@link #run}.
   *
   * @return this
   */
  @Override
  public EventLogObjectSource reportTo(PollReporter r) {
    this.reporter = Objects.requireNonNull(r, "reporter");
    return this;
  }

  private Duration jittered(Duration interval) {
    return Jitter.poll(interval, random);
  }

  // ---------------------------------------------------------------------------------------------
  // per object

  private PollResult poll(ObjectState s, EntryEmitter emitter, StopSignal stop)
      throws InterruptedException {
    if (stop.isStopped()) {
      return new PollResult(Outcome.STOPPED, 0, false);
    }
    Instant serverNow = rest.serverNow();
    if (s.cursor == null) {
      s.cursor = load(s, serverNow);
    }
    String start = s.cursor.toValue();
    ObjectSoql.Bound upper =
        s.settings.settleWindow().isZero()
            ? null
            : new ObjectSoql.Bound(
                ObjectSoql.literal(serverNow.minus(s.settings.settleWindow())), true);
    ObjectPoll em = new ObjectPoll(emitter, metrics, serverNow, reporter);
    Outcome out;
    try {
      out = s.settings.bigObject() ? desc.drain(s, upper, em, stop) : asc.drain(s, upper, em, stop);
      if (out == Outcome.OK && !s.revisit.run(s, serverNow, p -> em.emit(s, p), stop)) {
        out = Outcome.STOPPED; // OBJ-13: after the main path, with the unchanged cursor
      }
    } catch (SoqlThrottledException e) {
      // sf2loki_salesforce_api_throttled{api="soql"} is counted by the REST client
      metrics.soqlPollErrors.add(1, s.objectAttrs);
      log.atError()
          .addKeyValue("source", SOURCE)
          .addKeyValue("object", s.settings.name())
          .addKeyValue("error", reporter.redact(e.getMessage()))
          .log("object poll throttled (REQUEST_LIMIT_EXCEEDED); due objects wait one interval");
      out = Outcome.THROTTLED;
      reporter.failed(s.key, e);
    } catch (SoqlException e) {
      pollFailure(s, e);
      reporter.failed(s.key, e);
      out = Outcome.FAILED;
    } catch (Stopped e) {
      return new PollResult(Outcome.STOPPED, em.real, false);
    }
    if (out == Outcome.STOPPED) {
      return new PollResult(Outcome.STOPPED, em.real, false);
    }
    String end = s.cursor.toValue();
    boolean advanced = !end.equals(start);
    if (advanced && !end.equals(em.lastCarried)) {
      // OBJ-11 / SRC-3
      if (!em.emitCheckpoint(new CheckpointToken(s.key, end))) {
        return new PollResult(Outcome.STOPPED, em.real, advanced);
      }
    }
    if (out == Outcome.OK) {
      reporter.ok(s.key);
      s.failures.reset();
      metrics.sourceLastSuccessTimestampSeconds.set(
          time.now().toEpochMilli() / 1000.0, s.objectAttrs);
    }
    return new PollResult(out, em.real, advanced);
  }

  /** OBJ-2. */
  private ObjectCursor load(ObjectState s, Instant serverNow) {
    String def = ObjectSoql.defaultSince(serverNow.minus(s.settings.lookback()));
    return cursors.load(
        log,
        SOURCE,
        s.key,
        ObjectCursor.CODEC,
        new ObjectCursor(def, TimestampParser.parseOrNull(def), List.of()),
        def,
        "object checkpoint unusable; starting from the lookback window");
  }

  /** SRC-19 (and the OBJ-12 Big Object hint). */
  private void pollFailure(ObjectState s, SoqlException e) {
    metrics.soqlPollErrors.add(1, s.objectAttrs);
    var b = s.failures.pollFailed(log, SOURCE, s.settings.name(), e, reporter);
    if (e.hasErrorCode("BIG_OBJECT_UNSUPPORTED_OPERATION")) { // SRC-27: whole error body
      b = b.addKeyValue("hint", "set big_object: true for this object");
    }
    b.log("object poll failed; retried next poll");
  }
}
