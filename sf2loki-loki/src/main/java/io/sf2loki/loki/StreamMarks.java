package io.sf2loki.loki;

import io.sf2loki.core.model.LogEntry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.IntConsumer;

/**
 * The newest timestamp this sink delivered per stream (label set), SPEC SINK-15: Loki refuses an
 * entry older than its stream's newest entry minus the out-of-order window ({@code max_chunk_age /
 * 2}, 1 h by default; {@code entry too far behind}), and the sink is the only writer of its
 * streams, so such entries can be routed to the late stream (SINK-13) before any push.
 *
 * <p>Bounded: at most {@code capacity} streams, least recently used evicted first; an evicted or
 * never-seen stream is <em>unknown</em> (as after a restart) and its entries are pushed live. The
 * current size is reported through {@code sizeListener} (gauge {@code
 * sf2loki_loki_tracked_streams}). Thread-safe.
 */
final class StreamMarks {
  private final int capacity;
  private final Duration routeWindow;
  private final IntConsumer sizeListener;

  /** Guarded by this; access order = LRU. */
  private final LinkedHashMap<Map<String, String>, Instant> newest;

  /**
   * @param capacity most streams tracked, ≥ 1
   * @param window Loki's out-of-order window as configured ({@code out_of_order_window}); zero
   *     disables routing
   * @param sizeListener receives the number of tracked streams after each change
   */
  StreamMarks(int capacity, Duration window, IntConsumer sizeListener) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity must be >= 1");
    }
    this.capacity = capacity;
    this.routeWindow = routeWindow(window);
    this.sizeListener = sizeListener;
    this.newest = new LinkedHashMap<>(16, 0.75f, true);
  }

  /**
   * SINK-15 safety margin: entries are routed late once they are older than the newest minus 90 %
   * of the configured window, so a Loki whose real window is up to 10 % shorter than configured
   * still never sees a too-far-behind entry from a tracked stream.
   */
  static Duration routeWindow(Duration window) {
    return window.minus(window.dividedBy(10));
  }

  /** The newest delivered timestamp of stream {@code labels}, or null when unknown. */
  synchronized Instant newest(Map<String, String> labels) {
    return newest.get(labels);
  }

  /** Whether stream {@code labels} is tracked (its newest delivered timestamp is known). */
  synchronized boolean known(Map<String, String> labels) {
    return newest.get(labels) != null; // get, not containsKey: a look-up is a use (LRU)
  }

  /** Number of tracked streams. */
  synchronized int size() {
    return newest.size();
  }

  /**
   * The entries of tracked streams older than their stream's newest delivered timestamp minus the
   * routing window (90 % of the configured window), in list order; empty when routing is off.
   */
  synchronized List<LogEntry> behind(List<LogEntry> entries) {
    List<LogEntry> out = new ArrayList<>();
    if (routeWindow.isZero() || routeWindow.isNegative()) {
      return out;
    }
    for (LogEntry e : entries) {
      Instant n = newest.get(e.labels());
      if (n != null && e.timestamp().isBefore(n.minus(routeWindow))) {
        out.add(e);
      }
    }
    return out;
  }

  /**
   * Learns a stream's mark from Loki's reported cutoff (its {@code oldest acceptable timestamp}):
   * the mark becomes at least {@code cutoff} + 90 % of the window, so exactly the entries older
   * than the cutoff — which Loki refuses anyway — are routed late from now on (after a restart, the
   * stream's following pushes no longer meet the 400). Ignored while routing is off.
   */
  void learn(Map<Map<String, String>, Instant> cutoffs) {
    if (cutoffs.isEmpty() || !routeWindow.isPositive()) {
      return;
    }
    Map<Map<String, String>, Instant> marks = new HashMap<>();
    cutoffs.forEach((labels, cutoff) -> marks.put(labels, cutoff.plus(routeWindow)));
    advance(marks);
  }

  /** Records {@code delivered} entries (stored by Loki): each stream's newest moves forward. */
  void delivered(List<LogEntry> delivered) {
    if (delivered.isEmpty()) {
      return;
    }
    Map<Map<String, String>, Instant> max = new HashMap<>();
    for (LogEntry e : delivered) {
      max.merge(e.labels(), e.timestamp(), (a, b) -> a.isAfter(b) ? a : b);
    }
    advance(max);
  }

  /** Moves each stream's mark forward to at least the given instant. */
  private void advance(Map<Map<String, String>, Instant> max) {
    int size;
    synchronized (this) {
      for (Map.Entry<Map<String, String>, Instant> m : max.entrySet()) {
        Instant old = newest.get(m.getKey());
        newest.put(m.getKey(), old != null && old.isAfter(m.getValue()) ? old : m.getValue());
      }
      while (newest.size() > capacity) {
        var it = newest.entrySet().iterator();
        it.next();
        it.remove();
      }
      size = newest.size();
    }
    sizeListener.accept(size);
  }
}
