package io.sf2loki.loki;

import io.sf2loki.core.model.LogEntry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/** How a batch's entries are ordered and cut into requests (SPEC SINK-6, SINK-16). Stateless. */
final class RequestPlan {
  private RequestPlan() {}

  /**
   * SINK-6: streams in first-seen order, a stream's entries in timestamp order (stable: equal
   * timestamps keep list order).
   */
  static List<LogEntry> ordered(List<LogEntry> entries) {
    Map<Map<String, String>, List<LogEntry>> byStream = group(entries);
    List<LogEntry> out = new ArrayList<>(entries.size());
    for (List<LogEntry> s : byStream.values()) {
      s.sort(Comparator.comparing(LogEntry::timestamp));
      out.addAll(s);
    }
    return out;
  }

  /**
   * SINK-16: the requests for {@code ordered} entries: one request holding every stream whose
   * newest timestamp is {@code known}, and each other stream in a request of its own (Loki reports
   * the ignored entries of one stream per push, so a request never holds two streams it might
   * partially refuse). A batch of known streams only, or of a single stream, is one request.
   */
  static List<List<LogEntry>> requests(
      List<LogEntry> ordered, Predicate<Map<String, String>> known) {
    Map<Map<String, String>, List<LogEntry>> byStream = group(ordered);
    if (byStream.size() <= 1) {
      return ordered.isEmpty() ? List.of() : List.of(ordered);
    }
    List<LogEntry> knownStreams = new ArrayList<>();
    List<List<LogEntry>> out = new ArrayList<>();
    for (Map.Entry<Map<String, String>, List<LogEntry>> s : byStream.entrySet()) {
      if (known.test(s.getKey())) {
        if (knownStreams.isEmpty()) {
          out.add(knownStreams);
        }
        knownStreams.addAll(s.getValue());
      } else {
        out.add(s.getValue());
      }
    }
    return out;
  }

  /** PIPE-5: per-entry overhead added to the line bytes when sizing a request. */
  static final int ENTRY_OVERHEAD_BYTES = 64;

  /**
   * SINK-13: {@code entries} cut into follow-up requests of at most {@code maxEntries} entries,
   * each closed once Σ(line bytes + 64) reaches {@code maxBytes}.
   */
  static List<List<LogEntry>> chunks(List<LogEntry> entries, int maxEntries, long maxBytes) {
    List<List<LogEntry>> out = new ArrayList<>();
    int from = 0;
    while (from < entries.size()) {
      int to = from;
      long bytes = 0;
      while (to < entries.size() && to - from < maxEntries && (to == from || bytes < maxBytes)) {
        bytes += entries.get(to).lineBytes() + ENTRY_OVERHEAD_BYTES;
        to++;
      }
      out.add(entries.subList(from, to));
      from = to;
    }
    return out;
  }

  private static Map<Map<String, String>, List<LogEntry>> group(List<LogEntry> entries) {
    Map<Map<String, String>, List<LogEntry>> byStream = new LinkedHashMap<>();
    for (LogEntry e : entries) {
      byStream.computeIfAbsent(e.labels(), k -> new ArrayList<>()).add(e);
    }
    return byStream;
  }
}
