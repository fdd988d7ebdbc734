package io.sf2loki.core.limits;

import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.LogEntry;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Enforces Loki's per-entry limits when an entry joins a batch (SPEC PIPE-5, SINK-7, SINK-14).
 *
 * <ul>
 *   <li>SINK-7 line cap: a line longer than {@code maxLineBytes} UTF-8 bytes (when &gt; 0) is cut
 *       on a character boundary and ends with the marker {@code …[truncated, original <N> bytes]}
 *       (N = original byte length) so the result never exceeds the cap; when the cap is smaller
 *       than the marker the line is cut to the cap without marker. Lines of {@code source=apexlog}
 *       keep their head and tail (half of the remaining budget each) around the marker.
 *   <li>SINK-14: every structured-metadata value longer than 8 KiB is cut the same way (marker at
 *       the end); then, while the metadata exceeds 60 KiB (Σ UTF-8 bytes of names and values) or
 *       128 pairs, the pair with the largest value is removed ({@code level} and {@code event_time}
 *       never are); a label value longer than 2,048 characters (code points) is cut to 2,048
 *       characters including the marker.
 * </ul>
 *
 * <p>An entry changed by any of these counts once in {@code sf2loki_lines_truncated{source=<the
 * entry's source label, or "unknown">}}. The operation is idempotent: an entry already within the
 * limits is returned as is (same instance) and not counted, so retries and splits never cut or
 * count again. Checkpoint-only entries pass through. Stateless apart from the metric; thread-safe.
 */
public final class EntryLimiter {
  /** {@code batch.max_line_bytes} default (256 KiB). */
  public static final int DEFAULT_MAX_LINE_BYTES = 262_144;

  /** SINK-14: longest structured-metadata value, UTF-8 bytes. */
  public static final int MAX_METADATA_VALUE_BYTES = 8 * 1024;

  /** SINK-14: largest total metadata size per entry (names + values), UTF-8 bytes. */
  public static final int MAX_METADATA_TOTAL_BYTES = 60 * 1024;

  /** SINK-14: most metadata pairs per entry. */
  public static final int MAX_METADATA_PAIRS = 128;

  /** SINK-14: longest label value, characters (Unicode code points), marker included. */
  public static final int MAX_LABEL_VALUE_CHARS = 2048;

  private static final String ELLIPSIS = "\u2026";
  private static final String APEXLOG = "apexlog";

  private final int maxLineBytes;
  private final Sf2lokiMetrics metrics;

  /**
   * @param maxLineBytes {@code sink.loki.batch.max_line_bytes}; ≤ 0 disables the line cap (CFG-20)
   * @param metrics where {@code sf2loki_lines_truncated} is counted
   */
  public EntryLimiter(int maxLineBytes, Sf2lokiMetrics metrics) {
    this.maxLineBytes = maxLineBytes;
    this.metrics = metrics;
  }

  /**
   * The SINK-7 marker for a value of {@code originalBytes} bytes: {@code …[truncated, original <N>
   * bytes]}.
   */
  public static String marker(long originalBytes) {
    return ELLIPSIS + "[truncated, original " + originalBytes + " bytes]";
  }

  /**
   * Applies the limits to one entry.
   *
   * @param entry any entry
   * @return {@code entry} itself when it is within every limit, else a new entry with the cut line,
   *     metadata and labels (counted once in {@code sf2loki_lines_truncated})
   */
  public LogEntry apply(LogEntry entry) {
    if (entry.checkpointOnly()) {
      return entry;
    }
    LogEntry out = entry;
    String source = entry.labels().getOrDefault("source", "unknown");
    if (maxLineBytes > 0 && entry.lineBytes() > maxLineBytes) {
      out =
          out.withLine(cut(entry.line(), entry.lineBytes(), maxLineBytes, APEXLOG.equals(source)));
    }
    Map<String, String> metadata = limitMetadata(entry.structuredMetadata());
    if (metadata != null) {
      out = out.withStructuredMetadata(metadata);
    }
    Map<String, String> labels = limitLabels(entry.labels());
    if (labels != null) {
      out = out.withLabels(labels);
    }
    if (out != entry) {
      metrics.linesTruncated.add(1, Attributes.of(Sf2lokiMetrics.SOURCE, source));
    }
    return out;
  }

  /**
   * Cuts {@code s} ({@code bytes} UTF-8 bytes long, more than {@code cap}) to at most {@code cap}
   * bytes with the marker (SINK-7).
   */
  static String cut(String s, int bytes, int cap, boolean headAndTail) {
    String marker = marker(bytes);
    int markerBytes = LogEntry.utf8Length(marker);
    if (markerBytes > cap) {
      return s.substring(0, Utf8Cut.prefixEnd(s, cap));
    }
    int budget = cap - markerBytes;
    if (!headAndTail) {
      return s.substring(0, Utf8Cut.prefixEnd(s, budget)) + marker;
    }
    int half = budget / 2;
    int headEnd = Utf8Cut.prefixEnd(s, half);
    int tailStart = Math.max(headEnd, Utf8Cut.suffixStart(s, half));
    return s.substring(0, headEnd) + marker + s.substring(tailStart);
  }

  /** The limited metadata, or null when {@code md} is within the limits. */
  private static Map<String, String> limitMetadata(Map<String, String> md) {
    if (md.isEmpty()) {
      return null;
    }
    // fast path: a pre-sized map whose keys and values total at most one value's cap cannot hold
    // an over-long value, nor exceed the total cap (8 KiB <= 60 KiB)
    if (md instanceof io.sf2loki.core.shape.Utf8SizedMap sized
        && sized.utf8Bytes() <= MAX_METADATA_VALUE_BYTES
        && md.size() <= MAX_METADATA_PAIRS) {
      return null;
    }
    Map<String, String> out = null;
    long total = 0;
    for (Map.Entry<String, String> p : md.entrySet()) {
      String v = p.getValue();
      int vb = LogEntry.utf8Length(v);
      if (vb > MAX_METADATA_VALUE_BYTES) {
        if (out == null) {
          out = new LinkedHashMap<>(md);
        }
        v = cut(v, vb, MAX_METADATA_VALUE_BYTES, false);
        out.put(p.getKey(), v);
        vb = LogEntry.utf8Length(v);
      }
      total += LogEntry.utf8Length(p.getKey()) + vb;
    }
    if (total > MAX_METADATA_TOTAL_BYTES || md.size() > MAX_METADATA_PAIRS) {
      if (out == null) {
        out = new LinkedHashMap<>(md);
      }
      List<Map.Entry<String, String>> removable = new ArrayList<>();
      for (Map.Entry<String, String> p : out.entrySet()) {
        if (!p.getKey().equals("level") && !p.getKey().equals("event_time")) {
          removable.add(Map.entry(p.getKey(), p.getValue()));
        }
      }
      // largest value first; ties by name so the outcome is deterministic
      removable.sort(
          (a, b) -> {
            int c =
                Integer.compare(
                    LogEntry.utf8Length(b.getValue()), LogEntry.utf8Length(a.getValue()));
            return c != 0 ? c : a.getKey().compareTo(b.getKey());
          });
      int next = 0;
      while ((total > MAX_METADATA_TOTAL_BYTES || out.size() > MAX_METADATA_PAIRS)
          && next < removable.size()) {
        Map.Entry<String, String> victim = removable.get(next++);
        out.remove(victim.getKey());
        total -= LogEntry.utf8Length(victim.getKey()) + LogEntry.utf8Length(victim.getValue());
      }
    }
    return out == null ? null : Collections.unmodifiableMap(out);
  }

  /** The limited labels, or null when every label value is within the limit. */
  private static Map<String, String> limitLabels(Map<String, String> labels) {
    Map<String, String> out = null;
    for (Map.Entry<String, String> p : labels.entrySet()) {
      String v = p.getValue();
      if (v.length() <= MAX_LABEL_VALUE_CHARS
          || v.codePointCount(0, v.length()) <= MAX_LABEL_VALUE_CHARS) {
        continue;
      }
      if (out == null) {
        out = new LinkedHashMap<>(labels);
      }
      String marker = marker(LogEntry.utf8Length(v));
      int keep = MAX_LABEL_VALUE_CHARS - marker.codePointCount(0, marker.length());
      out.put(p.getKey(), v.substring(0, v.offsetByCodePoints(0, keep)) + marker);
    }
    return out == null ? null : Collections.unmodifiableMap(out);
  }
}
