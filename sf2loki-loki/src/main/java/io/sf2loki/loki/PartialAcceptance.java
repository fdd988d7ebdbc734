package io.sf2loki.loki;

import io.sf2loki.core.model.LogEntry;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads which entries of a request Loki's ingester did not store from its 400 body (SPEC SINK-16).
 *
 * <p>Loki's ingester answers a partially accepted push with, per failing stream ({@code
 * pkg/ingester/stream.go} {@code errorForFailedEntries}; at most {@code
 * ingester.max-ignored-stream-errors} = 10 entries listed):
 *
 * <pre>
 * entry with timestamp &lt;Go time.Time.String()&gt; ignored, reason: '&lt;reason&gt;',
 * ...
 * user '&lt;tenant&gt;', total ignored: &lt;k&gt; out of &lt;n&gt; for stream: &lt;labels&gt;
 * </pre>
 *
 * The rejected entries of a reported stream are identified when
 *
 * <ul>
 *   <li>{@code n} equals the stream's entry count in the request (otherwise the distributor refused
 *       some entries and its message was replaced by the ingester's), and
 *   <li>either the {@code k} listed timestamps match exactly {@code k} entries of the stream
 *       (timestamps with several entries must be listed as often as they occur), or — more than 10
 *       ignored, all for {@code too far behind}/{@code out of order} — the listed timestamps are
 *       the first ones of the stream in request order (the sink sends a stream's entries in
 *       timestamp order, SINK-6, so Loki rejects a prefix) and entry {@code k} is strictly newer
 *       than entry {@code k−1}: then the rejected entries are the {@code k} oldest.
 * </ul>
 *
 * Loki reports one stream's error per push, so the body only accounts for a request when every
 * stream of it that could have been refused is reported: {@code unknownAtSend} (streams without a
 * known newest timestamp, SINK-15) must all be reported. Any other text, a truncated body or a
 * mismatch gives {@link Optional#empty()} (the caller falls back to SINK-10's split). Stateless.
 */
final class PartialAcceptance {
  private PartialAcceptance() {}

  /** Loki's {@code ingester.max-ignored-stream-errors} default. */
  static final int MAX_LISTED = 10;

  private static final Pattern ENTRY =
      Pattern.compile("^entry with timestamp (.+?) ignored, reason: '(.*)',$");
  private static final Pattern TOTAL =
      Pattern.compile("^user '.*', total ignored: (\\d+) out of (\\d+) for stream: (\\{.*\\})$");
  private static final Pattern GO_TIME =
      Pattern.compile(
          "^(\\d{4}-\\d{2}-\\d{2}) (\\d{2}:\\d{2}:\\d{2})(?:\\.(\\d{1,9}))? ([+-])(\\d{2})(\\d{2})"
              + " \\S+$");

  /** One reported stream: its labels, listed timestamps and reasons, and the counts. */
  record Block(
      Map<String, String> labels,
      List<Instant> listed,
      List<String> reasons,
      long ignored,
      long total) {}

  /**
   * The entries of {@code request} Loki did not store, or empty when the body does not tell.
   *
   * @param body the whole response body (bounded by the caller)
   * @param truncated whether the body was cut at the caller's bound
   * @param request the request's entries in request order
   * @param unknownAtSend streams of the request without a known newest timestamp when sent
   */
  static Optional<List<LogEntry>> rejected(
      String body,
      boolean truncated,
      List<LogEntry> request,
      Set<Map<String, String>> unknownAtSend) {
    if (truncated) {
      return Optional.empty();
    }
    Optional<List<Block>> blocks = parse(body);
    if (blocks.isEmpty() || blocks.get().isEmpty()) {
      return Optional.empty();
    }
    Map<Map<String, String>, List<LogEntry>> byStream = new LinkedHashMap<>();
    for (LogEntry e : request) {
      byStream.computeIfAbsent(e.labels(), k -> new ArrayList<>()).add(e);
    }
    List<LogEntry> out = new ArrayList<>();
    Set<Map<String, String>> reported = new java.util.HashSet<>();
    for (Block b : blocks.get()) {
      List<LogEntry> stream = byStream.get(b.labels());
      if (stream == null || !reported.add(b.labels()) || b.total() != stream.size()) {
        return Optional.empty();
      }
      Optional<List<LogEntry>> r = rejectedOf(b, stream);
      if (r.isEmpty()) {
        return Optional.empty();
      }
      out.addAll(r.get());
    }
    if (!reported.containsAll(unknownAtSend)) {
      return Optional.empty();
    }
    return Optional.of(out);
  }

  private static Optional<List<LogEntry>> rejectedOf(Block b, List<LogEntry> stream) {
    long k = b.ignored();
    int listed = b.listed().size();
    if (k < 1 || k > stream.size() || listed > k) {
      return Optional.empty();
    }
    if (listed == k) {
      Map<Instant, Integer> want = new HashMap<>();
      b.listed().forEach(t -> want.merge(t, 1, Integer::sum));
      List<LogEntry> out = new ArrayList<>();
      Map<Instant, Integer> have = new HashMap<>();
      for (LogEntry e : stream) {
        if (want.containsKey(e.timestamp())) {
          out.add(e);
          have.merge(e.timestamp(), 1, Integer::sum);
        }
      }
      return have.equals(want) ? Optional.of(out) : Optional.empty();
    }
    if (listed < MAX_LISTED) {
      return Optional.empty();
    }
    for (String reason : b.reasons()) {
      String r = reason.toLowerCase(Locale.ROOT);
      if (!r.contains("too far behind") && !r.contains("entry out of order")) {
        return Optional.empty();
      }
    }
    for (int i = 1; i < stream.size(); i++) {
      if (stream.get(i).timestamp().isBefore(stream.get(i - 1).timestamp())) {
        return Optional.empty();
      }
    }
    for (int i = 0; i < listed; i++) {
      if (!stream.get(i).timestamp().equals(b.listed().get(i))) {
        return Optional.empty();
      }
    }
    int kk = (int) k;
    if (kk < stream.size() && !stream.get(kk).timestamp().isAfter(stream.get(kk - 1).timestamp())) {
      return Optional.empty();
    }
    return Optional.of(List.copyOf(stream.subList(0, kk)));
  }

  /**
   * The ingester blocks of {@code body}, or empty when any non-blank line is not of the ingester
   * form (or a block has no {@code total ignored} line, or a count past {@code long}).
   */
  static Optional<List<Block>> parse(String body) {
    List<Block> blocks = new ArrayList<>();
    List<Instant> listed = new ArrayList<>();
    List<String> reasons = new ArrayList<>();
    for (String raw : body.split("\n", -1)) {
      String line = raw.strip();
      if (line.isEmpty()) {
        continue;
      }
      Matcher e = ENTRY.matcher(line);
      if (e.matches()) {
        Instant t = goTime(e.group(1));
        if (t == null) {
          return Optional.empty();
        }
        listed.add(t);
        reasons.add(e.group(2));
        continue;
      }
      Matcher t = TOTAL.matcher(line);
      if (!t.matches()) {
        return Optional.empty();
      }
      Map<String, String> labels = labels(t.group(3));
      long ignored = LokiResponses.count(t.group(1));
      long total = LokiResponses.count(t.group(2));
      if (labels == null || ignored < 0 || total < 0) {
        return Optional.empty();
      }
      blocks.add(new Block(labels, List.copyOf(listed), List.copyOf(reasons), ignored, total));
      listed.clear();
      reasons.clear();
    }
    return listed.isEmpty() ? Optional.of(blocks) : Optional.empty();
  }

  private static final Pattern CUTOFF =
      Pattern.compile("oldest acceptable timestamp is: (\\d{4}-\\d{2}-\\d{2}T[0-9:.]+Z)");

  /**
   * Loki's per-stream cutoff from an ingester body: for each reported stream, the latest {@code
   * oldest acceptable timestamp is: <RFC 3339>} of its listed too-far-behind reasons (SINK-15
   * learns marks from it). Empty for any other body.
   */
  static Map<Map<String, String>, Instant> cutoffs(String body) {
    Map<Map<String, String>, Instant> out = new HashMap<>();
    for (Block b : parse(body).orElse(List.of())) {
      for (String reason : b.reasons()) {
        Matcher m = CUTOFF.matcher(reason);
        if (m.find()) {
          try {
            out.merge(b.labels(), Instant.parse(m.group(1)), (x, y) -> x.isAfter(y) ? x : y);
          } catch (java.time.format.DateTimeParseException e) {
            // not a cutoff we can use
          }
        }
      }
    }
    return out;
  }

  /** Parses Go's {@code time.Time.String()} ({@code 2021-11-08 03:30:43.947325032 +0000 UTC}). */
  static Instant goTime(String s) {
    Matcher m = GO_TIME.matcher(s.strip());
    if (!m.matches()) {
      return null;
    }
    try {
      LocalDateTime ldt = LocalDateTime.parse(m.group(1) + "T" + m.group(2));
      String frac = m.group(3) == null ? "" : m.group(3);
      int nanos = frac.isEmpty() ? 0 : Integer.parseInt((frac + "000000000").substring(0, 9));
      int sign = m.group(4).equals("-") ? -1 : 1;
      ZoneOffset off =
          ZoneOffset.ofHoursMinutes(
              sign * Integer.parseInt(m.group(5)), sign * Integer.parseInt(m.group(6)));
      return ldt.toInstant(off).plusNanos(nanos);
    } catch (RuntimeException e) {
      return null;
    }
  }

  /**
   * Parses a Prometheus label string ({@code {a="x", b="y\"z"}}, with or without a space after each
   * comma); null when malformed.
   */
  static Map<String, String> labels(String s) {
    if (!s.startsWith("{") || !s.endsWith("}")) {
      return null;
    }
    Map<String, String> out = new HashMap<>();
    int i = 1;
    int end = s.length() - 1;
    while (i < end) {
      int eq = s.indexOf('=', i);
      if (eq < 0 || eq + 1 >= end || s.charAt(eq + 1) != '"') {
        return null;
      }
      String name = s.substring(i, eq).strip();
      StringBuilder v = new StringBuilder();
      int j = eq + 2;
      for (; j < end && s.charAt(j) != '"'; j++) {
        char c = s.charAt(j);
        if (c == '\\' && j + 1 < end) {
          char n = s.charAt(++j);
          v.append(n == 'n' ? '\n' : n);
        } else {
          v.append(c);
        }
      }
      if (j >= end || name.isEmpty() || out.put(name, v.toString()) != null) {
        return null;
      }
      i = j + 1;
      if (i < end) {
        if (s.charAt(i) != ',') {
          return null;
        }
        i++;
        while (i < end && s.charAt(i) == ' ') {
          i++;
        }
      }
    }
    return out;
  }
}
