package io.sf2loki.loki;

import io.sf2loki.core.model.Batch;
import io.sf2loki.core.model.LogEntry;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What happened to the entries of one batch so far (SPEC SINK-10, SINK-13, SINK-15), by identity:
 * originals dropped (with counts per reason), originals delivered, originals restamped (with their
 * restamped form), restamped forms delivered. Owned by the batch's {@link
 * io.sf2loki.core.spi.Sink.Delivery}, which the lane holds across the batch's attempts; confined to
 * the pushing thread.
 */
final class BatchMarks {
  final Batch batch;
  private final Set<LogEntry> dropped = Collections.newSetFromMap(new IdentityHashMap<>());
  final Map<String, Integer> counts = new HashMap<>();

  /** Per reason, the dropped originals (FEAT-10); unidentified drops are only counted. */
  final Map<String, List<LogEntry>> droppedEntries = new HashMap<>();

  /** Restamped form → original. */
  private final Map<LogEntry, LogEntry> originalOf = new IdentityHashMap<>();

  /** Restamped forms in restamp order. */
  private final List<LogEntry> restamped = new ArrayList<>();

  private final Set<LogEntry> restampedOriginals =
      Collections.newSetFromMap(new IdentityHashMap<>());
  private final Set<LogEntry> delivered = Collections.newSetFromMap(new IdentityHashMap<>());

  BatchMarks(Batch batch) {
    this.batch = batch;
  }

  boolean isEmpty() {
    return dropped.isEmpty() && restamped.isEmpty() && delivered.isEmpty();
  }

  /** Marks {@code entries} (originals or restamped forms) dropped under {@code reason}. */
  void drop(List<LogEntry> entries, String reason) {
    int added = 0;
    List<LogEntry> named = droppedEntries.computeIfAbsent(reason, r -> new ArrayList<>());
    for (LogEntry e : entries) {
      LogEntry original = originalOf.getOrDefault(e, e);
      if (dropped.add(original)) {
        named.add(original);
        added++;
      }
    }
    counts.merge(reason, added, Integer::sum);
  }

  /**
   * Counts {@code count} entries dropped under {@code reason} that Loki refused without naming them
   * (SINK-19); the caller marks the whole request delivered, so they are never re-sent.
   */
  void dropUnidentified(String reason, int count) {
    counts.merge(reason, count, Integer::sum);
  }

  /** Records the restamped forms ({@code forms}, index-aligned) of {@code originals}. */
  void restamp(List<LogEntry> originals, List<LogEntry> forms) {
    for (int i = 0; i < originals.size(); i++) {
      LogEntry o = originals.get(i);
      if (restampedOriginals.add(o)) {
        originalOf.put(forms.get(i), o);
        restamped.add(forms.get(i));
      }
    }
  }

  /** Marks originals or restamped forms as stored by Loki: a retry of the batch skips them. */
  void delivered(List<LogEntry> entries) {
    delivered.addAll(entries);
  }

  /** Restamped forms neither delivered nor dropped, in restamp order. */
  List<LogEntry> pendingRestamps() {
    List<LogEntry> out = new ArrayList<>();
    for (LogEntry r : restamped) {
      if (!delivered.contains(r) && !dropped.contains(originalOf.get(r))) {
        out.add(r);
      }
    }
    return out;
  }

  /** Originals neither dropped, delivered nor restamped, in batch order. */
  List<LogEntry> remaining(List<LogEntry> all) {
    return all.stream()
        .filter(
            e -> !dropped.contains(e) && !restampedOriginals.contains(e) && !delivered.contains(e))
        .toList();
  }
}
