package io.sf2loki.salesforce.objects;

import io.sf2loki.core.shape.TextForm;
import io.sf2loki.core.shape.TimestampParser;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.salesforce.rest.SalesforceRest;
import io.sf2loki.salesforce.rest.SoqlException;
import io.sf2loki.salesforce.revisit.Revisit;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The late-visibility revisit of one SOQL object (SPEC OBJ-13…OBJ-17): after a clean poll, at most
 * once per {@code revisit_interval}, one key-only listing of {@code [server now − revisit_window,
 * watermark)}, then full rows only for keys this term has not shipped, in {@code IN (…)} chunks of
 * 200. Recovered rows are shipped with the object's current (unchanged) checkpoint value.
 *
 * <p>Key fields: {@code Id} on ordinary objects; the tiebreak field on Big Objects, and on ordinary
 * objects once the main path keyed a row by it (placeholder Ids, OBJ-5). Not thread-safe; owned by
 * the source's run thread.
 */
final class ObjectRevisit {
  /** Ships one recovered record through the source's emission path. */
  interface Shipper {
    void ship(PreparedRecord p) throws Stopped, InterruptedException;
  }

  private final Revisit core;
  private final ObjectSettings settings;
  private final SalesforceRest rest;
  private final RecordPreparer preparer;
  private boolean tiebreakKeys;

  ObjectRevisit(
      Revisit core, ObjectSettings settings, SalesforceRest rest, RecordPreparer preparer) {
    this.core = core;
    this.settings = settings;
    this.rest = rest;
    this.preparer = preparer;
  }

  /** The shared core (tests, diagnostics). */
  Revisit core() {
    return core;
  }

  /** OBJ-15: the main path handled {@code p} (emitted, dropped or sampled out). */
  void remember(PreparedRecord p, Instant serverNow) {
    if (!core.enabled()) {
      return;
    }
    if (!settings.bigObject() && p.tiebreak() != null && p.key().equals(p.tiebreak())) {
      tiebreakKeys = true;
    }
    core.remember(p.key(), p.instant(), serverNow);
  }

  /**
   * Runs the revisit when due (OBJ-14).
   *
   * @return false when the stop signal fired
   * @throws SoqlException a failed revisit query (handled like a poll failure, SRC-19/OBJ-12)
   * @throws Stopped the emitter refused an entry
   */
  boolean run(ObjectState s, Instant serverNow, Shipper shipper, StopSignal stop)
      throws SoqlException, InterruptedException, Stopped {
    Optional<Revisit.Range> range = core.begin(serverNow, s.cursor.lastInstant());
    if (range.isEmpty()) {
      return true;
    }
    Revisit.Range r = range.get();
    List<Map<String, Object>> listed =
        rest.query(
            ObjectSoql.revisitListing(
                settings, settings.bigObject() || tiebreakKeys, r, core.listingLimit()));
    core.listed(listed.size());
    Map<String, Instant> missing = new LinkedHashMap<>();
    List<String> queries = fetchQueries(listed, r, missing);
    if (missing.isEmpty()) {
      return true;
    }
    List<PreparedRecord> found = new ArrayList<>();
    for (String soql : queries) {
      if (stop.isStopped()) {
        return false;
      }
      core.fetched();
      List<PreparedRecord> page = preparer.prepare(s, rest.query(soql), stop);
      if (page == null) {
        return false;
      }
      found.addAll(page);
    }
    found.sort(
        Comparator.comparing(
                PreparedRecord::instant, Comparator.nullsFirst(Comparator.naturalOrder()))
            .thenComparing(PreparedRecord::key));
    for (PreparedRecord p : found) {
      if (!missing.containsKey(p.key()) || core.shipped(p.key()) || !r.contains(p.instant())) {
        continue; // not asked for, a duplicate in the fetch, or moved out of the range
      }
      if (stop.isStopped()) {
        return false;
      }
      shipper.ship(p);
      core.recovered(p.key(), p.instant(), serverNow, p.keep());
    }
    return true;
  }

  /** Keys of {@code listed} not shipped yet → into {@code missing}; returns the fetch queries. */
  private List<String> fetchQueries(
      List<Map<String, Object>> listed, Revisit.Range r, Map<String, Instant> missing) {
    String ts = settings.timestampField();
    List<String> byId = new ArrayList<>();
    List<String> byTb = new ArrayList<>();
    TreeMap<Instant, List<String>> byInstant = new TreeMap<>();
    int unkeyed = 0;
    for (Map<String, Object> rec : listed) {
      Instant at = TimestampParser.parseOrNull(rec.get(ts));
      Object idv = rec.get("Id");
      Object tbv = rec.get(settings.tiebreakField());
      String id = idv instanceof String str ? str : null;
      String key =
          RecordPreparer.recordKey(settings.bigObject(), id, tbv == null ? null : TextForm.of(tbv));
      if (key == null || at == null) {
        unkeyed++;
        continue;
      }
      if (!r.contains(at) || core.shipped(key) || missing.containsKey(key)) {
        continue;
      }
      missing.put(key, at);
      if (settings.bigObject()) {
        byInstant.computeIfAbsent(at, k -> new ArrayList<>()).add(key);
      } else if (key.equals(id)) {
        byId.add(key);
      } else {
        byTb.add(key);
      }
    }
    if (unkeyed > 0) {
      core.unkeyed(unkeyed);
    }
    List<String> queries = new ArrayList<>();
    for (List<String> c : Revisit.chunks(byId)) {
      queries.add(ObjectSoql.revisitFetch(settings, "Id", null, c));
    }
    for (List<String> c : Revisit.chunks(byTb)) {
      queries.add(ObjectSoql.revisitFetch(settings, settings.tiebreakField(), null, c));
    }
    for (var e : byInstant.entrySet()) {
      for (List<String> c : Revisit.chunks(e.getValue())) {
        queries.add(ObjectSoql.revisitFetch(settings, settings.tiebreakField(), e.getKey(), c));
      }
    }
    return queries;
  }
}
