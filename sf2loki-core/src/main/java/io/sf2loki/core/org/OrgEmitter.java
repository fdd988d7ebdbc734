package io.sf2loki.core.org;

import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.spi.EntryEmitter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The emitter an org's inner source writes to (SPEC ORG-3, ORG-4): every real entry gains the org's
 * identity labels (they win over a same-named inner label), every checkpoint key, real or
 * checkpoint-only, becomes {@code org=<name>:<key>}; a token shared by consecutive entries (PIPE-3)
 * is rewritten once. Thread-safe: sources with several threads (ELF workers, Pub/Sub topic readers)
 * emit concurrently; the one-token cache is an immutable pair in a volatile field.
 */
final class OrgEmitter implements EntryEmitter {
  private final EntryEmitter delegate;
  private final OrgScope org;
  private final Map<String, String> identity;
  private final AtomicLong emitted = new AtomicLong();
  private final Map<String, String> lastValues = new ConcurrentHashMap<>(); // ORG-13
  private final Map<Map<String, String>, Map<String, String>> labelled = new ConcurrentHashMap<>();
  private volatile Rewrite last;
  private volatile Relabel lastLabels;

  /** Distinct inner label sets remembered before the cache starts over. */
  static final int LABEL_CACHE_MAX = 1024;

  private record Rewrite(CheckpointToken in, CheckpointToken out) {}

  private record Relabel(Map<String, String> in, Map<String, String> out) {}

  /**
   * @param delegate the lane's emitter
   * @param org the org (key prefix)
   * @param identity the ORG-3 labels ({@link OrgScope#labels})
   */
  OrgEmitter(EntryEmitter delegate, OrgScope org, Map<String, String> identity) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
    this.org = Objects.requireNonNull(org, "org");
    this.identity = Map.copyOf(identity);
  }

  /** Entries the lane accepted through this emitter. */
  long emitted() {
    return emitted.get();
  }

  /** ORG-13: prefixed key → the last value of an accepted entry (real or checkpoint-only). */
  Map<String, String> lastValues() {
    return Map.copyOf(lastValues);
  }

  private void accepted(LogEntry wrapped) {
    CheckpointToken t = wrapped.checkpoint();
    lastValues.put(t.key(), t.value());
  }

  @Override
  public boolean emit(LogEntry entry) throws InterruptedException {
    LogEntry out = wrap(entry);
    boolean ok = delegate.emit(out);
    if (ok) {
      emitted.incrementAndGet();
      accepted(out);
    }
    return ok;
  }

  @Override
  public int emitAll(List<LogEntry> entries) throws InterruptedException {
    List<LogEntry> out = new ArrayList<>(entries.size());
    for (LogEntry e : entries) {
      out.add(wrap(e));
    }
    int n = delegate.emitAll(out);
    emitted.addAndGet(n);
    for (int i = 0; i < n; i++) {
      accepted(out.get(i));
    }
    return n;
  }

  /** The org's form of {@code entry}. */
  LogEntry wrap(LogEntry entry) {
    CheckpointToken token = token(entry.checkpoint());
    if (entry.checkpointOnly()) {
      return LogEntry.checkpointOnly(token);
    }
    return new LogEntry(
        entry.timestamp(),
        labels(entry.labels()),
        entry.line(),
        entry.structuredMetadata(),
        token,
        false,
        entry.lineBytes());
  }

  /**
   * The inner labels plus the identity, one instance per distinct inner label set, so the lane's
   * per-instance caches (LaneEmitter, LaneQueue) keep hitting.
   */
  private Map<String, String> labels(Map<String, String> inner) {
    Relabel r = lastLabels;
    if (r != null && r.in == inner) {
      return r.out;
    }
    Map<String, String> out = labelled.get(inner);
    if (out == null) {
      Map<String, String> merged = new HashMap<>(inner);
      merged.putAll(identity);
      out = Map.copyOf(merged);
      if (labelled.size() >= LABEL_CACHE_MAX) {
        labelled.clear();
      }
      labelled.put(Map.copyOf(inner), out);
    }
    lastLabels = new Relabel(inner, out);
    return out;
  }

  private CheckpointToken token(CheckpointToken in) {
    Rewrite r = last;
    if (r != null && r.in == in) {
      return r.out;
    }
    CheckpointToken out = new CheckpointToken(org.prefixed(in.key()), in.value());
    last = new Rewrite(in, out);
    return out;
  }
}
