package io.sf2loki.app.chaos;

import io.sf2loki.app.demo.DemoScenario;
import io.sf2loki.sim.loki.ReceivedEntry;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Conservation bookkeeping of a chaos run (SPEC FEAT-22): entries generated per group ({@code
 * <source>/<event_type>}, the receiver's labels, SRC-13), the drops the daemon counted in {@code
 * sf2loki_loki_entries_dropped{reason}} summed over process lifetimes (a restart resets the
 * counters), and the duplicates a Pub/Sub replay fallback may legitimately re-send. Not
 * thread-safe: the run's thread owns it.
 */
final class Ledger {
  private static final Pattern DROPPED =
      Pattern.compile(
          "^sf2loki_loki_entries_dropped(?:_total)?\\{([^}]*)}\\s+([0-9.eE+]+)", Pattern.MULTILINE);
  private static final Pattern REASON = Pattern.compile("reason=\"([^\"]*)\"");

  private final Map<String, Long> expected = new TreeMap<>();
  private final Map<String, Long> endedDrops = new TreeMap<>();
  private long duplicateAllowance;

  /**
   * What one run amounts to.
   *
   * @param generated entries the simulators served
   * @param stored distinct entries the receiver holds, per group
   * @param missing generated entries not in the receiver (summed over groups)
   * @param extra entries stored beyond the generated count of their group (a re-send that did not
   *     collapse: it differs in timestamp or line)
   * @param droppedByReason the daemon's deliberate drops by reason
   * @param dropped their sum
   * @param lost missing entries no drop accounts for
   */
  record Result(
      long generated,
      Map<String, Long> stored,
      long missing,
      long extra,
      Map<String, Long> droppedByReason,
      long dropped,
      long lost) {}

  static String pubsubGroup(String topic) {
    return "pubsub/" + topic.substring(topic.lastIndexOf('/') + 1);
  }

  /** Records the demo scenario's initial data (EventLogFile types, topics, LoginHistory). */
  void expectAll(DemoScenario s) {
    long elf = 0;
    for (Map.Entry<String, Long> e : s.expectedPerType().entrySet()) {
      expect("eventlogfile/" + e.getKey(), e.getValue());
      elf += e.getValue();
    }
    long topics = 0;
    for (Map.Entry<String, Long> e : s.expectedPerTopic().entrySet()) {
      expect(pubsubGroup(e.getKey()), e.getValue());
      topics += e.getValue();
    }
    expect("eventlog_objects/LoginHistory", s.expectedRows() - elf - topics);
  }

  void expect(String group, long n) {
    expected.merge(group, n, Long::sum);
  }

  /** Adds a process's last scraped drop counters (called before it is stopped). */
  void endLifetime(Map<String, Long> drops) {
    drops.forEach((k, v) -> endedDrops.merge(k, v, Long::sum));
  }

  void allowDuplicates(long n) {
    duplicateAllowance += n;
  }

  long duplicateAllowance() {
    return duplicateAllowance;
  }

  /** {@code reason → count} of {@code sf2loki_loki_entries_dropped} in a Prometheus text page. */
  static Map<String, Long> parseDrops(String prometheusText) {
    Map<String, Long> out = new TreeMap<>();
    Matcher m = DROPPED.matcher(prometheusText);
    while (m.find()) {
      Matcher r = REASON.matcher(m.group(1));
      String reason = r.find() ? r.group(1) : "?";
      out.merge(reason, (long) Double.parseDouble(m.group(2)), Long::sum);
    }
    return out;
  }

  /** Sum of every sample of {@code metric} (any labels) in a Prometheus text page. */
  static long sum(String prometheusText, String metric) {
    double total = 0;
    for (String line : prometheusText.split("\n")) {
      if (line.startsWith(metric + " ") || line.startsWith(metric + "{")) {
        total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    return (long) total;
  }

  /** Compares the generated counts with the receiver's entries and all counted drops. */
  Result result(List<ReceivedEntry> entries, Map<String, Long> liveDrops) {
    Map<String, Long> stored = new TreeMap<>();
    for (ReceivedEntry e : entries) {
      String g = e.labels().get("source") + "/" + e.labels().get("event_type");
      stored.merge(g, 1L, Long::sum);
    }
    long missing = 0;
    long extra = 0;
    for (Map.Entry<String, Long> e : expected.entrySet()) {
      long have = stored.getOrDefault(e.getKey(), 0L);
      missing += Math.max(0, e.getValue() - have);
      extra += Math.max(0, have - e.getValue());
    }
    for (Map.Entry<String, Long> e : stored.entrySet()) {
      if (!expected.containsKey(e.getKey())) {
        extra += e.getValue();
      }
    }
    Map<String, Long> drops = new TreeMap<>(endedDrops);
    liveDrops.forEach((k, v) -> drops.merge(k, v, Long::sum));
    long dropped = drops.values().stream().mapToLong(Long::longValue).sum();
    long generated = expected.values().stream().mapToLong(Long::longValue).sum();
    return new Result(
        generated, stored, missing, extra, drops, dropped, Math.max(0, missing - dropped));
  }

  Map<String, Long> expected() {
    return Map.copyOf(expected);
  }
}
