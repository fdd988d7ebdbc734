package io.sf2loki.loki.encode;

import io.sf2loki.core.model.LogEntry;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Grouping and ordering rules shared by both encoders (SPEC SINK-6). */
final class Streams {
  private Streams() {}

  /** Orders strings by Unicode code point (as 1.x's Python {@code sorted()} did). */
  static final Comparator<String> CODE_POINT_ORDER = Streams::compareCodePoints;

  private static final Comparator<Map.Entry<String, String>> BY_KEY =
      (a, b) -> compareCodePoints(a.getKey(), b.getKey());

  /** One stream: its label map and its entries in batch order. */
  record Stream(Map<String, String> labels, List<LogEntry> entries) {}

  /** Groups entries by label set, streams in first-seen order, entries in batch order. */
  static List<Stream> group(List<LogEntry> realEntries) {
    if (realEntries.isEmpty()) {
      throw new IllegalArgumentException("no entries to encode");
    }
    Map<Map<String, String>, Stream> byLabels = new HashMap<>();
    List<Stream> ordered = new ArrayList<>();
    Map<String, String> lastLabels = null;
    Stream last = null;
    for (LogEntry e : realEntries) {
      if (e.checkpointOnly()) {
        throw new IllegalArgumentException("checkpoint-only entries are never encoded");
      }
      Map<String, String> labels = e.labels();
      Stream s;
      if (labels == lastLabels) {
        s = last;
      } else {
        s = byLabels.get(labels);
        if (s == null) {
          s = new Stream(labels, new ArrayList<>());
          byLabels.put(labels, s);
          ordered.add(s);
        }
        lastLabels = labels;
        last = s;
      }
      s.entries().add(e);
    }
    return ordered;
  }

  /** Map entries sorted by key in code point order. */
  @SuppressWarnings("unchecked")
  static Map.Entry<String, String>[] sorted(Map<String, String> map) {
    Map.Entry<String, String>[] pairs = map.entrySet().toArray(new Map.Entry[0]);
    if (pairs.length > 1) {
      Arrays.sort(pairs, BY_KEY);
    }
    return pairs;
  }

  /**
   * The protobuf label string {@code {k1="v1",k2="v2"}}: keys sorted, no space after commas, values
   * escaping {@code \}, {@code "} and LF (SINK-6).
   */
  static String labelString(Map<String, String> labels) {
    StringBuilder sb = new StringBuilder(16 + labels.size() * 24);
    sb.append('{');
    boolean first = true;
    for (Map.Entry<String, String> p : sorted(labels)) {
      if (!first) {
        sb.append(',');
      }
      first = false;
      sb.append(p.getKey()).append("=\"");
      String v = p.getValue();
      for (int i = 0, n = v.length(); i < n; i++) {
        char c = v.charAt(i);
        switch (c) {
          case '\\' -> sb.append("\\\\");
          case '"' -> sb.append("\\\"");
          case '\n' -> sb.append("\\n");
          default -> sb.append(c);
        }
      }
      sb.append('"');
    }
    return sb.append('}').toString();
  }

  /**
   * {@code s} with every unpaired surrogate replaced by {@code ?}, exactly as {@code
   * String.getBytes(UTF_8)} (and so the protobuf encoder) renders it. Returns {@code s} itself when
   * it is well-formed.
   */
  static String wellFormed(String s) {
    int n = s.length();
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (Character.isSurrogate(c)) {
        if (Character.isHighSurrogate(c)
            && i + 1 < n
            && Character.isLowSurrogate(s.charAt(i + 1))) {
          i++;
          continue;
        }
        return new String(
            s.getBytes(java.nio.charset.StandardCharsets.UTF_8),
            java.nio.charset.StandardCharsets.UTF_8);
      }
    }
    return s;
  }

  private static int compareCodePoints(String a, String b) {
    int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      char x = a.charAt(i);
      char y = b.charAt(i);
      if (x != y) {
        return fixup(x) - fixup(y);
      }
    }
    return a.length() - b.length();
  }

  /** Maps UTF-16 units so that surrogates (astral code points) sort after U+E000…U+FFFF. */
  private static int fixup(char c) {
    if (c >= 0xE000) {
      return c - 0x800;
    }
    if (c >= 0xD800) {
      return c + 0x2000;
    }
    return c;
  }
}
