package io.sf2loki.core.spi;

import io.sf2loki.core.model.LogEntry;
import java.util.List;

/**
 * Where a source hands its entries (SPEC SRC-2, PIPE-3): blocks while the lane is full (structural
 * backpressure, never drops) and returns early when the term stops.
 */
@FunctionalInterface
public interface EntryEmitter {
  /**
   * Enqueues one entry, waiting while the lane is full.
   *
   * @param entry a real or checkpoint-only entry, in commit order for its key
   * @return true if the entry was enqueued, false if the term's stop signal fired first (the entry
   *     was not enqueued and holds no charge; the source should return)
   * @throws InterruptedException if the producer thread is interrupted
   */
  boolean emit(LogEntry entry) throws InterruptedException;

  /**
   * Enqueues {@code entries} in order, as if by calling {@link #emit} for each until one returns
   * false; each entry waits while the lane is full exactly as {@link #emit} does (structural
   * backpressure, PIPE-3; never drops). Implementations may hand the entries over with fewer
   * synchronisation round trips (the lane emitter takes its lock once per run of entries that fit,
   * not once per entry); the bounds, the order and the per-entry charges are unchanged.
   *
   * @param entries real or checkpoint-only entries in commit order (not modified)
   * @return how many leading entries were enqueued: {@code entries.size()}, or fewer when the
   *     term's stop signal fired first (the entries from that index on were not enqueued and hold
   *     no charge; the source should return)
   * @throws InterruptedException if the producer thread is interrupted; a prefix of the entries may
   *     already be enqueued (each charged and released like any other), the rest hold no charge
   */
  default int emitAll(List<LogEntry> entries) throws InterruptedException {
    int n = 0;
    for (LogEntry e : entries) {
      if (!emit(e)) {
        return n;
      }
      n++;
    }
    return n;
  }
}
