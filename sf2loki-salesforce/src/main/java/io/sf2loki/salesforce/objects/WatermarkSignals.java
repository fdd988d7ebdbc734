package io.sf2loki.salesforce.objects;

import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.status.PollReporter;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The watermark warnings both drains raise (SPEC OBJ-4, OBJ-7, OBJ-9): a stalled page, a tie group
 * that cannot be paged and an id window above {@value #WINDOW_WARN} keys. Stateless; the per-object
 * memory lives in {@link ObjectState}.
 */
final class WatermarkSignals {
  private static final Logger log = LoggerFactory.getLogger(EventLogObjectSource.class);
  private static final String SOURCE = EventLogObjectSource.SOURCE;

  /** OBJ-9: a window above this many keys logs WARN once per boundary. */
  static final int WINDOW_WARN = 5000;

  private final Sf2lokiMetrics metrics;

  WatermarkSignals(Sf2lokiMetrics metrics) {
    this.metrics = metrics;
  }

  /** OBJ-4 stall signals: WARN first, ERROR + counter on a repeat at the same boundary. */
  void stall(ObjectState s, String boundary) {
    boolean repeat = boundary.equals(s.lastStallBoundary);
    s.lastStallBoundary = boundary;
    var b = repeat ? log.atError() : log.atWarn();
    if (repeat) {
      metrics.watermarkStalls.add(1, s.objectAttrs);
    }
    b.addKeyValue("source", SOURCE)
        .addKeyValue("object", s.settings.name())
        .addKeyValue("boundary", boundary)
        .log("object watermark stalled: a full page added no new record");
  }

  /** OBJ-9: WARN once per watermark while the window exceeds {@value #WINDOW_WARN} keys. */
  void windowWarn(ObjectState s) {
    if (s.cursor.windowSize() > WINDOW_WARN && !s.cursor.lastTs().equals(s.warnedWindowAt)) {
      s.warnedWindowAt = s.cursor.lastTs();
      log.atWarn()
          .addKeyValue("source", SOURCE)
          .addKeyValue("object", s.settings.name())
          .addKeyValue("watermark", s.cursor.lastTs())
          .log("object id window exceeds 5000 keys");
    }
  }

  /** OBJ-7: a tie group that cannot be paged on {@code tiebreak_field}; counted as a stall. */
  void tieFailure(ObjectState s, Instant tie, String why, PollReporter reporter) {
    metrics.watermarkStalls.add(1, s.objectAttrs);
    log.atError()
        .addKeyValue("source", SOURCE)
        .addKeyValue("object", s.settings.name())
        .addKeyValue("error", reporter.redact(why))
        .log(
            "tie group at "
                + ObjectSoql.literal(tie)
                + " cannot be paged; remaining rows at that instant may be skipped");
  }
}
