package io.sf2loki.core.model;

import java.util.List;

/**
 * An ordered list of entries flushed together by a lane's batcher (SPEC SRC-1, PIPE-5).
 * Checkpoint-only entries ride along for commit order and are never pushed (PIPE-7).
 *
 * @param entries entries in queue order (unmodifiable copy)
 */
public record Batch(List<LogEntry> entries) {
  public Batch {
    entries = List.copyOf(entries);
  }

  /** The entries to push: every entry that is not checkpoint-only, in batch order. */
  public List<LogEntry> realEntries() {
    return entries.stream().filter(e -> !e.checkpointOnly()).toList();
  }

  /** Number of real (non checkpoint-only) entries. */
  public int realCount() {
    int n = 0;
    for (LogEntry e : entries) {
      if (!e.checkpointOnly()) {
        n++;
      }
    }
    return n;
  }

  /** Whether the batch holds only checkpoint-only entries (PIPE-6). */
  public boolean isCheckpointOnly() {
    return realCount() == 0;
  }
}
