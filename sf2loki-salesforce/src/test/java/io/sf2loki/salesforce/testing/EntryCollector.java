package io.sf2loki.salesforce.testing;

import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.spi.EntryEmitter;
import java.util.ArrayList;
import java.util.List;

/** An emitter that collects every entry; thread-safe. Shared by the source tests. */
public class EntryCollector implements EntryEmitter {
  private final List<LogEntry> entries = new ArrayList<>();

  @Override
  public synchronized boolean emit(LogEntry entry) {
    entries.add(entry);
    return true;
  }

  /** Every entry so far, in emit order. */
  public synchronized List<LogEntry> entries() {
    return List.copyOf(entries);
  }

  /** The real (not checkpoint-only) entries so far. */
  public synchronized List<LogEntry> real() {
    return entries.stream().filter(e -> !e.checkpointOnly()).toList();
  }

  /** Forgets every entry. */
  public synchronized void clear() {
    entries.clear();
  }

  /** The last token value emitted, or null. */
  public synchronized String lastValue() {
    return entries.isEmpty() ? null : entries.getLast().checkpoint().value();
  }

  /** The last token value emitted for {@code key}, or null. */
  public synchronized String lastValue(String key) {
    String v = null;
    for (LogEntry e : entries) {
      if (e.checkpoint().key().equals(key)) {
        v = e.checkpoint().value();
      }
    }
    return v;
  }
}
