package io.sf2loki.core.pipeline;

import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.liveness.ProgressWatch;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.spi.EntryEmitter;
import io.sf2loki.core.time.TimeSource;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The producer side of a lane (SPEC PIPE-4): merges the static labels over each real entry's
 * labels, records {@code sf2loki_events_ingested} and {@code sf2loki_ingest_lag_seconds}, and
 * enqueues (blocking). One instance per source; not shared between threads.
 */
final class LaneEmitter implements EntryEmitter {
  private static final int LABEL_CACHE_MAX = 1024;
  private final LaneQueue queue;
  private final Map<String, String> staticLabels;
  private final Sf2lokiMetrics metrics;
  private final TimeSource time;
  private final Map<String, Attributes> attrCache;
  // entries of one stream usually share one label map instance: merge (and resolve the metric
  // attributes) once per instance; the last instance is checked first
  private final Map<Map<String, String>, Merged> merged = new IdentityHashMap<>();
  private Map<String, String> lastOwn;
  private Merged lastMerged;

  LaneEmitter(
      LaneQueue queue,
      Map<String, String> staticLabels,
      Sf2lokiMetrics metrics,
      TimeSource time,
      Map<String, Attributes> sharedAttrCache) {
    this.queue = queue;
    this.staticLabels = staticLabels;
    this.metrics = metrics;
    this.time = time;
    this.attrCache = sharedAttrCache;
  }

  static Map<String, Attributes> newAttrCache() {
    return new ConcurrentHashMap<>();
  }

  @Override
  public boolean emit(LogEntry entry) throws InterruptedException {
    ProgressWatch.progress(); // FEAT-21
    if (entry.checkpointOnly()) {
      return queue.put(entry);
    }
    Merged m = merged(entry.labels());
    LogEntry labelled = entry.withLabels(m.labels());
    boolean enqueued = queue.put(labelled);
    if (enqueued) {
      metrics.eventsIngested.add(1, m.attrs());
      Duration lag = Duration.between(labelled.timestamp(), time.now());
      metrics.ingestLagSeconds.record(Math.max(0, lag.toNanos() / 1e9), m.attrs());
    }
    return enqueued;
  }

  /**
   * Merges the static labels over each real entry's labels (PIPE-4) and enqueues the run with one
   * lane lock acquisition per run of entries that fit ({@link LaneQueue#putAll}); bounds, order and
   * charges are those of {@link #emit} per entry. Metrics are recorded for the enqueued entries
   * only: {@code sf2loki_events_ingested} once per run of equal attributes, {@code
   * sf2loki_ingest_lag_seconds} once per entry against one reading of the clock after the hand-off.
   */
  @Override
  public int emitAll(List<LogEntry> entries) throws InterruptedException {
    ProgressWatch.progress(); // FEAT-21
    int n = entries.size();
    if (n == 0) {
      return 0;
    }
    LogEntry[] labelled = new LogEntry[n];
    Attributes[] attrs = new Attributes[n];
    for (int i = 0; i < n; i++) {
      LogEntry e = entries.get(i);
      if (e.checkpointOnly()) {
        labelled[i] = e;
      } else {
        Merged m = merged(e.labels());
        labelled[i] = e.withLabels(m.labels());
        attrs[i] = m.attrs();
      }
    }
    int enqueued = queue.putAll(Arrays.asList(labelled));
    if (enqueued > 0) {
      record(labelled, attrs, enqueued);
    }
    return enqueued;
  }

  private void record(LogEntry[] labelled, Attributes[] attrs, int count) {
    Instant now = time.now();
    Attributes runAttrs = null;
    long run = 0;
    for (int i = 0; i < count; i++) {
      Attributes a = attrs[i];
      if (a == null) {
        continue; // checkpoint-only
      }
      if (a != runAttrs) {
        if (run > 0) {
          metrics.eventsIngested.add(run, runAttrs);
        }
        runAttrs = a;
        run = 0;
      }
      run++;
      Instant ts = labelled[i].timestamp();
      double lagSeconds =
          (now.getEpochSecond() - ts.getEpochSecond()) + (now.getNano() - ts.getNano()) / 1e9;
      metrics.ingestLagSeconds.record(Math.max(0, lagSeconds), a);
    }
    if (run > 0) {
      metrics.eventsIngested.add(run, runAttrs);
    }
  }

  /** Merged labels and the metric attributes of one source label map instance. */
  private record Merged(Map<String, String> labels, Attributes attrs) {}

  private Merged merged(Map<String, String> own) {
    if (own == lastOwn) {
      return lastMerged;
    }
    Merged m = merged.get(own);
    if (m == null) {
      m = merge(own);
      if (merged.size() >= LABEL_CACHE_MAX) {
        merged.clear();
      }
      merged.put(own, m);
    }
    lastOwn = own;
    lastMerged = m;
    return m;
  }

  private Merged merge(Map<String, String> own) {
    Map<String, String> out = new HashMap<>(own);
    out.putAll(staticLabels); // static labels win (PIPE-4)
    Map<String, String> labels = Map.copyOf(out);
    String source = labels.getOrDefault("source", "unknown");
    String eventType = labels.getOrDefault("event_type", "unknown");
    Attributes attrs =
        attrCache.computeIfAbsent(
            source + '\u0000' + eventType,
            k ->
                Attributes.of(Sf2lokiMetrics.SOURCE, source, Sf2lokiMetrics.EVENT_TYPE, eventType));
    return new Merged(labels, attrs);
  }
}
