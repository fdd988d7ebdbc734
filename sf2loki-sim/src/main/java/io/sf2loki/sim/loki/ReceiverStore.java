package io.sf2loki.sim.loki;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a {@link LokiReceiver} stored and recorded: the streams with their entries (validated like
 * Loki's distributor, duplicates collapsed, the out-of-order window per stream), the recorded
 * requests, the optional history bound and the counters. Thread-safe: every method synchronizes on
 * the store.
 */
final class ReceiverStore {
  /** Marks the one ingester-form message {@link #store} returns. */
  static final String INGESTER_PREFIX = "\u0000ingester:";

  private final EntryRules rules;
  private final int maxLabelNames;
  private final Duration outOfOrderWindow;
  private final boolean ingesterErrors;
  private final int maxHistory;

  private final Map<Map<String, String>, StreamStore> streams = new LinkedHashMap<>();
  private final Deque<RecordedRequest> requests = new ArrayDeque<>();
  // with maxHistory: the stream of every retained entry, oldest first
  private final Deque<StreamStore> arrivalOrder = new ArrayDeque<>();
  private long requestCount;
  private long acceptedEntries;
  private long retainedEntries;
  private long duplicatesDropped;
  private long receivedEntries;

  private static final class StreamStore {
    final Deque<ReceivedEntry> entries = new ArrayDeque<>();
    final Set<Key> keys = new HashSet<>();
    Instant newest;
  }

  private record Key(Instant ts, String line) {}

  /**
   * @param outOfOrderWindow per-stream window, or null (off)
   * @param ingesterErrors out-of-order rejections in the ingester's form
   * @param maxHistory entries and requests kept, 0 = all
   */
  ReceiverStore(
      EntryRules rules,
      int maxLabelNames,
      Duration outOfOrderWindow,
      boolean ingesterErrors,
      int maxHistory) {
    this.rules = rules;
    this.maxLabelNames = maxLabelNames;
    this.outOfOrderWindow = outOfOrderWindow;
    this.ingesterErrors = ingesterErrors;
    this.maxHistory = maxHistory;
  }

  /** Counts the entries of a decoded push, whatever is answered. */
  synchronized void received(int entries) {
    receivedEntries += entries;
  }

  /** Records an answered request (the oldest dropped beyond the history bound). */
  synchronized void record(RecordedRequest r) {
    requests.addLast(r);
    requestCount++;
    if (maxHistory > 0 && requests.size() > maxHistory) {
      requests.pollFirst();
    }
  }

  /**
   * Validates and stores; returns the validation error messages (empty = all accepted), or, when
   * the ingester form is on and an out-of-order rejection happened, one message prefixed with
   * {@link #INGESTER_PREFIX}: the last failing stream's ingester error (Loki's instance push keeps
   * the last stream error).
   */
  synchronized List<String> store(List<PushedStream> decoded, String tenant, Instant now) {
    List<String> errors = new ArrayList<>();
    String ingesterError = null;
    for (PushedStream s : decoded) {
      Map<String, String> labels = labels(s, errors);
      if (labels == null) {
        continue;
      }
      String rendered = LokiLabels.render(labels);
      if (labels.size() > maxLabelNames) {
        errors.add(LokiMessages.labelNames(rendered, labels.size(), maxLabelNames));
        continue;
      }
      Map<String, String> key = Collections.unmodifiableMap(new TreeMap<>(labels));
      List<String> ignored = new ArrayList<>();
      int reachedIngester = 0;
      for (PushedEntry e : s.entries()) {
        String err = rules.validate(e, rendered, now);
        if (err != null) {
          errors.add(err);
          continue;
        }
        reachedIngester++;
        String behind = tooFarBehind(e, key);
        if (behind != null) {
          if (ingesterErrors) {
            ignored.add(LokiMessages.ignoredLine(e.timestamp(), behind));
          } else {
            errors.add(behind);
          }
          continue;
        }
        keep(key, e);
      }
      if (!ignored.isEmpty()) {
        ingesterError = LokiMessages.ingesterError(ignored, tenant, reachedIngester, rendered);
      }
    }
    return ingesterError != null ? List.of(INGESTER_PREFIX + ingesterError) : errors;
  }

  /** The stream's labels, or null after adding the distributor's error for them. */
  private static Map<String, String> labels(PushedStream s, List<String> errors) {
    Map<String, String> labels;
    try {
      labels = LokiLabels.parse(s.labels());
    } catch (LokiLabels.LabelParseException e) {
      errors.add("error parsing labels '" + s.labels() + "' with error: " + e.getMessage());
      return null;
    } catch (LokiLabels.DuplicateLabelException e) {
      errors.add("stream '" + s.labels() + "' has duplicate label name: '" + e.name + "'");
      return null;
    }
    if (labels.isEmpty()) {
      errors.add("error at least one label pair is required per stream");
      return null;
    }
    return labels;
  }

  /** Stores a valid entry unless it duplicates a kept one; applies the history bound. */
  private void keep(Map<String, String> key, PushedEntry e) {
    StreamStore st = streams.computeIfAbsent(key, k -> new StreamStore());
    if (!st.keys.add(new Key(e.timestamp(), e.line()))) {
      duplicatesDropped++;
      return;
    }
    st.entries.add(new ReceivedEntry(key, e.timestamp(), e.line(), e.structuredMetadata()));
    acceptedEntries++;
    retainedEntries++;
    if (maxHistory > 0) {
      arrivalOrder.addLast(st);
      while (retainedEntries > maxHistory) {
        StreamStore oldest = arrivalOrder.pollFirst();
        ReceivedEntry gone = oldest.entries.pollFirst();
        oldest.keys.remove(new Key(gone.timestamp(), gone.line()));
        retainedEntries--;
      }
    }
    if (st.newest == null || e.timestamp().isAfter(st.newest)) {
      st.newest = e.timestamp();
    }
  }

  /** The chunk's out-of-order message when {@code e} is behind its stream's window, else null. */
  private String tooFarBehind(PushedEntry e, Map<String, String> key) {
    if (outOfOrderWindow == null) {
      return null;
    }
    StreamStore st = streams.get(key);
    if (st == null || st.newest == null) {
      return null;
    }
    Instant oldest = st.newest.minus(outOfOrderWindow);
    if (!e.timestamp().isBefore(oldest)) {
      return null;
    }
    return LokiMessages.tooFarBehind(e.timestamp(), oldest);
  }

  synchronized long requestCount() {
    return requestCount;
  }

  synchronized List<RecordedRequest> requests() {
    return List.copyOf(requests);
  }

  synchronized List<Map<String, String>> streams() {
    return streams.entrySet().stream()
        .filter(e -> !e.getValue().entries.isEmpty())
        .map(Map.Entry::getKey)
        .toList();
  }

  synchronized List<ReceivedEntry> entries() {
    return streams.values().stream().flatMap(s -> s.entries.stream()).toList();
  }

  synchronized List<ReceivedEntry> entries(Map<String, String> matchers) {
    List<ReceivedEntry> out = new ArrayList<>();
    for (Map.Entry<Map<String, String>, StreamStore> e : streams.entrySet()) {
      if (e.getKey().entrySet().containsAll(matchers.entrySet())) {
        out.addAll(e.getValue().entries);
      }
    }
    return out;
  }

  synchronized long acceptedEntries() {
    return acceptedEntries;
  }

  synchronized long retainedEntries() {
    return retainedEntries;
  }

  synchronized long duplicatesDropped() {
    return duplicatesDropped;
  }

  synchronized long receivedEntries() {
    return receivedEntries;
  }

  /** Forgets stored entries, recorded requests and the counters. */
  synchronized void reset() {
    streams.clear();
    requests.clear();
    arrivalOrder.clear();
    requestCount = 0;
    acceptedEntries = 0;
    retainedEntries = 0;
    duplicatesDropped = 0;
    receivedEntries = 0;
  }
}
