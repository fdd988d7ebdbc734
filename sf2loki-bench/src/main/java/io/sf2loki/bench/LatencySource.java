package io.sf2loki.bench;

import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.Lane;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.spi.EntryEmitter;
import io.sf2loki.core.spi.Source;
import io.sf2loki.core.time.StopSignal;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * A paced streaming source for harness (f): emits {@code total} entries at {@code perSecond}, each
 * stamped with its emission instant, so the receiver can measure emission → acceptance latency.
 * Lines, labels and metadata are real shaped ELF entries, cycled.
 */
final class LatencySource implements Source {
  private final List<LogEntry> templates;
  private final long total;
  private final long perSecond;

  LatencySource(List<LogEntry> templates, long total, long perSecond) {
    this.templates = templates;
    this.total = total;
    this.perSecond = perSecond;
  }

  @Override
  public String name() {
    return "bench-latency";
  }

  @Override
  public Lane lane() {
    return Lane.STREAMING;
  }

  @Override
  public void run(EntryEmitter emitter, StopSignal stop) throws Exception {
    long start = System.nanoTime();
    long periodNanos = 1_000_000_000L / perSecond;
    for (long i = 0; i < total && !stop.isStopped(); i++) {
      long due = start + i * periodNanos;
      long wait = due - System.nanoTime();
      if (wait > 50_000) {
        LockSupport.parkNanos(wait);
      }
      LogEntry t = templates.get((int) (i % templates.size()));
      LogEntry e =
          new LogEntry(
              Instant.now(),
              t.labels(),
              t.line(),
              t.structuredMetadata(),
              new CheckpointToken("bench:latency", Long.toString(i)),
              false,
              t.lineBytes());
      if (!emitter.emit(e)) {
        return;
      }
    }
  }
}
