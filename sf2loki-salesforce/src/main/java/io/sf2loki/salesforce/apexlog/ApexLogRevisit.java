package io.sf2loki.salesforce.apexlog;

import io.sf2loki.core.shape.TimestampParser;
import io.sf2loki.core.spi.EntryEmitter;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.salesforce.rest.SoqlException;
import io.sf2loki.salesforce.revisit.Revisit;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The late-visibility revisit of ApexLog (SPEC APX-10, OBJ-13…OBJ-17): after a clean poll, at most
 * once per {@code revisit_interval}, one {@code SELECT Id, StartTime} listing of {@code [server now
 * − revisit_window, watermark)}, then the APX-1 metadata only for Ids this term has not handled
 * ({@code Id IN (…)}, 200 per query), and each such log is shipped like a listed one (body
 * download, APX-5/6) carrying the current, unchanged cursor. Not thread-safe; owned by the poll
 * thread.
 */
final class ApexLogRevisit {
  private final Revisit core;
  private final ApexLogSettings settings;
  private final ToolingApi api;
  private final LogShipper shipper;

  ApexLogRevisit(Revisit core, ApexLogSettings settings, ToolingApi api, LogShipper shipper) {
    this.core = core;
    this.settings = settings;
    this.api = api;
    this.shipper = shipper;
  }

  /** OBJ-15: the listing path handled log {@code id} (StartTime {@code at}, may be null). */
  void remember(String id, Instant at, Instant serverNow) {
    core.remember(id, at, serverNow);
  }

  /** The shared core (tests, diagnostics). */
  Revisit core() {
    return core;
  }

  /**
   * Runs the revisit when due.
   *
   * @param cursor the cursor after the poll; recovered entries carry it unchanged
   * @return {@code CLEAN}, or why it ended early ({@code STOPPED}, {@code THROTTLED} by a body,
   *     {@code BODY_FAILED}); a log not shipped is retried by the next revisit
   * @throws SoqlException a failed revisit query (the caller handles it as a listing failure)
   */
  ApexLogSource.Outcome run(
      ApexLogCursor cursor, Instant serverNow, EntryEmitter emitter, StopSignal stop)
      throws SoqlException, InterruptedException {
    Optional<Revisit.Range> range =
        core.begin(serverNow, TimestampParser.parseOrNull(cursor.lastTs()));
    if (range.isEmpty()) {
      return ApexLogSource.Outcome.CLEAN;
    }
    Revisit.Range r = range.get();
    List<Map<String, Object>> listed =
        api.toolingQuery(ApexLogSoql.revisitListing(r, settings.users(), core.listingLimit()));
    core.listed(listed.size());
    Set<String> missing = new LinkedHashSet<>();
    int unkeyed = 0;
    for (Map<String, Object> rec : listed) {
      String id = LogShipper.str(rec.get("Id"));
      Instant at = TimestampParser.parseOrNull(rec.get("StartTime"));
      if (id == null || id.isEmpty() || at == null) {
        unkeyed++;
      } else if (r.contains(at) && !core.shipped(id)) {
        missing.add(id);
      }
    }
    if (unkeyed > 0) {
      core.unkeyed(unkeyed);
    }
    List<Map<String, Object>> rows = new ArrayList<>();
    for (List<String> chunk : Revisit.chunks(missing)) {
      if (stop.isStopped()) {
        return ApexLogSource.Outcome.STOPPED;
      }
      core.fetched();
      rows.addAll(api.toolingQuery(ApexLogSoql.revisitFetch(chunk)));
    }
    rows.sort(
        Comparator.comparing(
                (Map<String, Object> m) -> TimestampParser.parseOrNull(m.get("StartTime")),
                Comparator.nullsFirst(Comparator.naturalOrder()))
            .thenComparing(m -> String.valueOf(m.get("Id"))));
    for (Map<String, Object> rec : rows) {
      String id = LogShipper.str(rec.get("Id"));
      Instant at = TimestampParser.parseOrNull(rec.get("StartTime"));
      if (id == null || !missing.contains(id) || core.shipped(id) || !r.contains(at)) {
        continue;
      }
      LogShipper.LogResult res = shipper.process(rec, id, cursor, emitter, stop, serverNow);
      if (res.step() == LogShipper.Step.END) {
        return res.outcome();
      }
      core.recovered(id, at, serverNow, res.carried() != null);
    }
    return ApexLogSource.Outcome.CLEAN;
  }
}
