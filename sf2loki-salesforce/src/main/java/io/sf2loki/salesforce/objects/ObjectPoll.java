package io.sf2loki.salesforce.objects;

import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.spi.EntryEmitter;
import io.sf2loki.core.status.PollReporter;
import io.sf2loki.salesforce.source.TimestampFallback;
import java.time.Instant;

/**
 * One poll of one object (SPEC OBJ-10, OBJ-11, SRC-12): emits prepared records with the object's
 * current cursor riding along and remembers which value the last entry carried. Touched only by the
 * source's run thread.
 */
final class ObjectPoll {
  private static final Attributes SOURCE_ATTRS =
      Attributes.of(Sf2lokiMetrics.SOURCE, EventLogObjectSource.SOURCE);

  private final EntryEmitter emitter;
  private final Sf2lokiMetrics metrics;
  final Instant serverNow;
  final PollReporter reporter;
  String lastCarried;
  int real;

  ObjectPoll(
      EntryEmitter emitter, Sf2lokiMetrics metrics, Instant serverNow, PollReporter reporter) {
    this.emitter = emitter;
    this.metrics = metrics;
    this.serverNow = serverNow;
    this.reporter = reporter;
  }

  /**
   * Emits one record (a sampled-out or dropped one is only counted) carrying the object's cursor.
   *
   * @throws Stopped when the emitter refused the entry
   */
  void emit(ObjectState s, PreparedRecord p) throws Stopped, InterruptedException {
    if (!p.keep()) {
      if (p.sampledOut()) {
        metrics.entriesSampledOut.add(1, s.typeAttrs);
      }
      return;
    }
    Instant ts = p.entryTs();
    if (ts == null) {
      metrics.timestampFallbacks.add(1, SOURCE_ATTRS);
      Instant fb = s.cursor.lastInstant() != null ? s.cursor.lastInstant() : serverNow;
      ts = TimestampFallback.floored(fb, serverNow);
    }
    String value = s.cursor.toValue();
    LogEntry e = LogEntry.of(ts, s.labels, p.line(), p.md(), new CheckpointToken(s.key, value));
    if (!emitter.emit(e)) {
      throw new Stopped();
    }
    lastCarried = value;
    real++;
  }

  /** Emits an entry that only carries a checkpoint (OBJ-11, SRC-3); false when refused. */
  boolean emitCheckpoint(CheckpointToken token) throws InterruptedException {
    return emitter.emit(LogEntry.checkpointOnly(token));
  }
}
