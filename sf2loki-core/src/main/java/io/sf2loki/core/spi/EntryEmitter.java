package io.sf2loki.core.spi;

import io.sf2loki.core.model.LogEntry;

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
}
