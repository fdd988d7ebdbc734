package io.sf2loki.loki;

import io.sf2loki.core.limits.EntryLimiter;
import io.sf2loki.core.model.LogEntry;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Builds the restamped form of a late entry (SPEC SINK-13) and owns the restamp clock.
 *
 * <p>The restamped entry has
 *
 * <ul>
 *   <li>timestamp = the clock's now, made strictly increasing per stream: at least 1 ns after the
 *       previous restamped entry of the same (restamped) label set, for the life of this object —
 *       the sink is process-lifetime, so is the clock (PIPE-20);
 *   <li>labels = the original labels plus {@code late="true"};
 *   <li>structured metadata = the original metadata plus {@code event_time} = the original
 *       timestamp as ISO-8601 UTC with exactly nine fraction digits ({@code
 *       2024-06-05T05:41:17.937000000Z}); when that addition takes the metadata over Loki's limits
 *       (SINK-14: 128 pairs, 60 KiB of names and values) the pair with the largest value other than
 *       {@code level} and {@code event_time} is removed until it fits;
 *   <li>line and checkpoint unchanged.
 * </ul>
 *
 * <p>Thread-safe.
 */
final class Restamper {
  /** The label added to restamped entries. */
  static final String LATE_LABEL = "late";

  /** The structured-metadata key holding the original timestamp. */
  static final String EVENT_TIME = "event_time";

  /** ISO-8601 UTC, nanosecond precision, always nine fraction digits. */
  static final DateTimeFormatter EVENT_TIME_FORMAT =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSSSS'Z'").withZone(ZoneOffset.UTC);

  private static final int PRUNE_FLOOR = 4096;

  private final InstantSource clock;

  /** Guarded by this: last restamp per restamped label set. */
  private final Map<Map<String, String>, Instant> last = new HashMap<>();

  /** Guarded by this: the largest restamp pruned from {@link #last}. */
  private Instant pruned = Instant.MIN;

  private int pruneAt = PRUNE_FLOOR;

  Restamper(InstantSource clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** The {@code event_time} value of {@code t}. */
  static String eventTime(Instant t) {
    return EVENT_TIME_FORMAT.format(t);
  }

  /**
   * Restamps {@code originals} in order (so entries of one stream get increasing timestamps in
   * their batch order).
   *
   * @return the restamped entries, index-aligned with {@code originals}
   */
  List<LogEntry> restamp(List<LogEntry> originals) {
    List<LogEntry> out = new ArrayList<>(originals.size());
    Map<Map<String, String>, Map<String, String>> lateLabels = new HashMap<>();
    for (LogEntry e : originals) {
      Map<String, String> labels = lateLabels.computeIfAbsent(e.labels(), Restamper::withLate);
      Instant ts = next(labels);
      out.add(
          new LogEntry(
              ts,
              labels,
              e.line(),
              metadata(e.structuredMetadata(), eventTime(e.timestamp())),
              e.checkpoint(),
              false,
              e.lineBytes()));
    }
    return out;
  }

  /** The next restamp of the stream {@code labels}: max(now, previous + 1 ns). */
  synchronized Instant next(Map<String, String> labels) {
    Instant now = clock.instant();
    Instant prev = last.getOrDefault(labels, pruned);
    Instant t = now.isAfter(prev) ? now : prev.plusNanos(1);
    last.put(labels, t);
    if (last.size() > pruneAt) {
      prune(now);
    }
    return t;
  }

  /**
   * Forgets streams whose last restamp is before {@code now}: their next restamp is now anyway.
   * {@link #pruned} keeps the largest forgotten value, so a clock stepping back never repeats one.
   */
  private void prune(Instant now) {
    for (var it = last.entrySet().iterator(); it.hasNext(); ) {
      Instant v = it.next().getValue();
      if (v.isBefore(now)) {
        if (v.isAfter(pruned)) {
          pruned = v;
        }
        it.remove();
      }
    }
    pruneAt = Math.max(PRUNE_FLOOR, last.size() * 2);
  }

  private static Map<String, String> withLate(Map<String, String> labels) {
    Map<String, String> m = new LinkedHashMap<>(labels);
    m.put(LATE_LABEL, "true");
    return Collections.unmodifiableMap(m);
  }

  /** Original metadata + {@code event_time}, kept within SINK-14's pair-count and size limits. */
  static Map<String, String> metadata(Map<String, String> original, String eventTime) {
    Map<String, String> m = new LinkedHashMap<>(original);
    m.put(EVENT_TIME, eventTime);
    long total = 0;
    for (Map.Entry<String, String> p : m.entrySet()) {
      total += LogEntry.utf8Length(p.getKey()) + LogEntry.utf8Length(p.getValue());
    }
    while (total > EntryLimiter.MAX_METADATA_TOTAL_BYTES
        || m.size() > EntryLimiter.MAX_METADATA_PAIRS) {
      Map.Entry<String, String> victim = null;
      int victimBytes = -1;
      for (Map.Entry<String, String> p : m.entrySet()) {
        if (p.getKey().equals("level") || p.getKey().equals(EVENT_TIME)) {
          continue;
        }
        int b = LogEntry.utf8Length(p.getValue());
        if (b > victimBytes || (b == victimBytes && p.getKey().compareTo(victim.getKey()) < 0)) {
          victim = p;
          victimBytes = b;
        }
      }
      if (victim == null) {
        break;
      }
      total -= LogEntry.utf8Length(victim.getKey()) + victimBytes;
      m.remove(victim.getKey());
    }
    return Collections.unmodifiableMap(m);
  }
}
