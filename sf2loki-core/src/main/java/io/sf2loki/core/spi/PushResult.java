package io.sf2loki.core.spi;

import io.sf2loki.core.model.LogEntry;
import java.util.List;
import java.util.Map;

/**
 * The outcome of a successful {@link Sink#push}: the request was accepted, possibly after some
 * entries were deliberately dropped (SINK-10, SINK-13).
 *
 * @param bodyBytes request body bytes of all accepted requests
 * @param droppedByReason real entries dropped per reason ({@code bad_request}, {@code
 *     oversized_413}, …); empty when everything was delivered
 * @param droppedEntries per reason, the dropped entries the sink identified (FEAT-10 attributes
 *     them); at most {@code droppedByReason}'s count each (a SINK-19 refusal may name none)
 */
public record PushResult(
    long bodyBytes,
    Map<String, Integer> droppedByReason,
    Map<String, List<LogEntry>> droppedEntries) {
  public PushResult {
    droppedByReason = Map.copyOf(droppedByReason);
    Map<String, List<LogEntry>> copy = new java.util.HashMap<>();
    droppedEntries.forEach((k, v) -> copy.put(k, List.copyOf(v)));
    droppedEntries = Map.copyOf(copy);
  }

  /** Drops counted without identifying the entries. */
  public PushResult(long bodyBytes, Map<String, Integer> droppedByReason) {
    this(bodyBytes, droppedByReason, Map.of());
  }

  /** Everything delivered. */
  public static PushResult delivered(long bodyBytes) {
    return new PushResult(bodyBytes, Map.of());
  }

  /** The identified dropped entries of {@code reason} (empty when none were identified). */
  public List<LogEntry> droppedEntries(String reason) {
    return droppedEntries.getOrDefault(reason, List.of());
  }
}
