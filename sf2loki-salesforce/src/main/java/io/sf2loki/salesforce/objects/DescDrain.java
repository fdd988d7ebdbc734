package io.sf2loki.salesforce.objects;

import io.sf2loki.core.time.StopSignal;
import io.sf2loki.salesforce.objects.EventLogObjectSource.Outcome;
import io.sf2loki.salesforce.rest.SalesforceRest;
import io.sf2loki.salesforce.rest.SoqlException;
import io.sf2loki.salesforce.rest.SoqlThrottledException;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The newest-first drain of a Big Object (SPEC OBJ-5, OBJ-7, OBJ-8, OBJ-9): pages down from the
 * settle bound to the watermark, holding at most {@code max_catchup_records} records and {@code
 * max_catchup_bytes} bytes (the oldest kept), escapes a full page of one instant on {@code
 * tiebreak_field}, and emits the held records oldest first only after the drain ended (a stop
 * before that emits and commits nothing). Stateless; runs on the source's run thread.
 */
final class DescDrain {
  private final SalesforceRest rest;
  private final RecordPreparer preparer;
  private final WatermarkSignals signals;

  DescDrain(SalesforceRest rest, RecordPreparer preparer, WatermarkSignals signals) {
    this.rest = rest;
    this.preparer = preparer;
    this.signals = signals;
  }

  /** Records held by one drain, ordered ascending (unparseable timestamps first), capped. */
  private static final class Held {
    private record HKey(Instant instant, String key) {}

    private static final Comparator<HKey> ORDER =
        Comparator.comparing(HKey::instant, Comparator.nullsFirst(Comparator.naturalOrder()))
            .thenComparing(HKey::key);

    final TreeMap<HKey, PreparedRecord> records = new TreeMap<>(ORDER);
    final long maxRecords;
    final long maxBytes;
    long bytes;

    Held(long maxRecords, long maxBytes) {
      this.maxRecords = maxRecords;
      this.maxBytes = maxBytes;
    }

    /** Adds and evicts the newest records while a cap is exceeded (keeps at least one). */
    void add(PreparedRecord p) {
      if (records.putIfAbsent(new HKey(p.instant(), p.key()), p) == null) {
        bytes += p.bytes();
      }
      while (records.size() > 1
          && ((maxRecords > 0 && records.size() > maxRecords)
              || (maxBytes > 0 && bytes > maxBytes))) {
        bytes -= records.pollLastEntry().getValue().bytes();
      }
    }
  }

  /** One page's view: its instants and how many of its records were new at the bound. */
  private record PageScan(Set<Instant> instants, int parseable, int newKeys) {}

  /**
   * Drains {@code s} from {@code upper} (the settle bound, or null) down to its watermark.
   *
   * @throws Stopped when the emitter refused an entry
   */
  Outcome drain(ObjectState s, ObjectSoql.Bound upper, ObjectPoll poll, StopSignal stop)
      throws SoqlException, InterruptedException, Stopped {
    String name = s.settings.name();
    String ts = s.settings.timestampField();
    Held held = new Held(s.settings.maxCatchupRecords(), s.settings.maxCatchupBytes());
    ObjectSoql.Bound bound = upper;
    Set<String> seenAtBound = new HashSet<>();
    while (true) {
      if (stop.isStopped()) {
        return Outcome.STOPPED; // OBJ-8: nothing emitted, nothing committed
      }
      List<Map<String, Object>> page =
          rest.query(ObjectSoql.desc(name, ts, s.cursor.lastTs(), bound));
      List<PreparedRecord> prepared = preparer.prepare(s, page, stop);
      if (prepared == null) {
        return Outcome.STOPPED;
      }
      PageScan scan = scan(s, prepared, seenAtBound, held);
      if (page.size() < ObjectSoql.PAGE) {
        break;
      }
      if (scan.instants().size() == 1 && scan.parseable() == prepared.size()) {
        // OBJ-7 tie escape on the index field
        Instant tie = scan.instants().iterator().next();
        Set<String> seen = new HashSet<>(seenAtBound);
        prepared.forEach(p -> seen.add(p.key()));
        if (!tieEscape(s, tie, seen, held, poll, stop)) {
          return Outcome.STOPPED;
        }
        bound = new ObjectSoql.Bound(ObjectSoql.literal(tie), false);
        seenAtBound = new HashSet<>();
        continue;
      }
      if (scan.newKeys() == 0 || scan.instants().isEmpty()) {
        signals.stall(s, bound == null ? s.cursor.lastTs() : bound.literal());
        break;
      }
      Instant oldest = scan.instants().stream().min(Comparator.naturalOrder()).orElseThrow();
      bound = new ObjectSoql.Bound(ObjectSoql.literal(oldest), true);
      Set<String> next = new HashSet<>();
      for (PreparedRecord p : prepared) {
        if (oldest.equals(p.instant())) {
          next.add(p.key());
        }
      }
      seenAtBound = next;
    }
    if (stop.isStopped()) {
      return Outcome.STOPPED;
    }
    emitHeld(s, held, poll);
    return Outcome.OK;
  }

  /** Holds the page's records that are new at the bound and not in the window. */
  private static PageScan scan(
      ObjectState s, List<PreparedRecord> prepared, Set<String> seenAtBound, Held held) {
    Set<Instant> instants = new HashSet<>();
    int parseable = 0;
    int newKeys = 0;
    for (PreparedRecord p : prepared) {
      if (p.instant() != null) {
        instants.add(p.instant());
        parseable++;
      }
      if (seenAtBound.contains(p.key())) {
        continue; // a tie at the inclusive bound, re-fetched
      }
      newKeys++;
      if (!s.cursor.inWindow(p.key())) {
        held.add(p);
      }
    }
    return new PageScan(instants, parseable, newKeys);
  }

  /** Emits the held records oldest first, advancing the cursor per record. */
  private void emitHeld(ObjectState s, Held held, ObjectPoll poll)
      throws Stopped, InterruptedException {
    for (PreparedRecord p : held.records.values()) {
      if (p.instant() != null) {
        s.cursor.advance(p.rawTs(), p.instant(), p.key(), false);
        signals.windowWarn(s);
      }
      poll.emit(s, p);
      s.revisit.remember(p, poll.serverNow);
    }
  }

  /**
   * Pages through one instant on {@code tiebreak_field} (OBJ-7).
   *
   * @return false when the stop signal fired
   */
  private boolean tieEscape(
      ObjectState s, Instant tie, Set<String> seen, Held held, ObjectPoll poll, StopSignal stop)
      throws SoqlException, InterruptedException {
    String lastTb = null;
    while (true) {
      if (stop.isStopped()) {
        return false;
      }
      String soql =
          ObjectSoql.tie(
              s.settings.name(),
              s.settings.timestampField(),
              tie,
              s.settings.tiebreakField(),
              lastTb);
      List<Map<String, Object>> page;
      try {
        page = rest.query(soql);
      } catch (SoqlThrottledException e) {
        throw e;
      } catch (SoqlException e) {
        signals.tieFailure(s, tie, e.getMessage(), poll.reporter);
        return true;
      }
      List<PreparedRecord> prepared = preparer.prepare(s, page, stop);
      if (prepared == null) {
        return false;
      }
      boolean missing = false;
      for (PreparedRecord p : prepared) {
        if (p.tiebreak() == null) {
          missing = true;
        } else if (lastTb == null || p.tiebreak().compareTo(lastTb) < 0) {
          lastTb = p.tiebreak();
        }
        if (seen.add(p.key()) && !s.cursor.inWindow(p.key())) {
          held.add(p);
        }
      }
      if (missing) {
        signals.tieFailure(s, tie, "a record lacks " + s.settings.tiebreakField(), poll.reporter);
        return true;
      }
      if (page.size() < ObjectSoql.PAGE) {
        return true;
      }
    }
  }
}
