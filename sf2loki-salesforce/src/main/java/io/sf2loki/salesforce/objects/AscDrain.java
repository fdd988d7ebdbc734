package io.sf2loki.salesforce.objects;

import io.sf2loki.core.time.StopSignal;
import io.sf2loki.salesforce.objects.EventLogObjectSource.Outcome;
import io.sf2loki.salesforce.rest.SalesforceRest;
import io.sf2loki.salesforce.rest.SoqlException;
import java.util.List;
import java.util.Map;

/**
 * The ascending drain of a standard object (SPEC OBJ-3, OBJ-4, OBJ-9): pages by the compound {@code
 * (timestamp, Id)} cursor, emits each new record as it goes (the cursor advances per record) and
 * stops at a short page or a stalled full page. Stateless; runs on the source's run thread.
 */
final class AscDrain {
  private final SalesforceRest rest;
  private final RecordPreparer preparer;
  private final WatermarkSignals signals;

  AscDrain(SalesforceRest rest, RecordPreparer preparer, WatermarkSignals signals) {
    this.rest = rest;
    this.preparer = preparer;
    this.signals = signals;
  }

  /**
   * Drains {@code s} up to {@code upper} (the settle bound, or null).
   *
   * @throws Stopped when the emitter refused an entry
   */
  Outcome drain(ObjectState s, ObjectSoql.Bound upper, ObjectPoll poll, StopSignal stop)
      throws SoqlException, InterruptedException, Stopped {
    while (true) {
      if (stop.isStopped()) {
        return Outcome.STOPPED;
      }
      String last = s.cursor.lastKey();
      String lastId = RecordPreparer.isRealId(last) ? last : null;
      String soql =
          ObjectSoql.asc(
              s.settings.name(), s.settings.timestampField(), s.cursor.lastTs(), lastId, upper);
      List<Map<String, Object>> page = rest.query(soql);
      List<PreparedRecord> prepared = preparer.prepare(s, page, stop);
      if (prepared == null) {
        return Outcome.STOPPED;
      }
      String before = s.cursor.toValue();
      String boundary = s.cursor.lastTs() + " " + s.cursor.lastKey();
      boolean newKey = false;
      for (PreparedRecord p : prepared) {
        if (s.cursor.inWindow(p.key())) {
          continue; // OBJ-4 dedup
        }
        newKey = true;
        if (p.instant() != null) {
          s.cursor.advance(p.rawTs(), p.instant(), p.key(), p.realIdKey());
          signals.windowWarn(s);
        }
        poll.emit(s, p);
        s.revisit.remember(p, poll.serverNow);
      }
      if (page.size() < ObjectSoql.PAGE) {
        return Outcome.OK;
      }
      if (!newKey || s.cursor.toValue().equals(before)) {
        signals.stall(s, boundary);
        return Outcome.OK;
      }
    }
  }
}
