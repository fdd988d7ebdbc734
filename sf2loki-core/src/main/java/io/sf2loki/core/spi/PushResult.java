package io.sf2loki.core.spi;

import java.util.Map;

/**
 * The outcome of a successful {@link Sink#push}: the request was accepted, possibly after some
 * entries were deliberately dropped (SINK-10, SINK-13).
 *
 * @param bodyBytes request body bytes of all accepted requests
 * @param droppedByReason real entries dropped per reason ({@code bad_request}, {@code
 *     oversized_413}, …); empty when everything was delivered
 */
public record PushResult(long bodyBytes, Map<String, Integer> droppedByReason) {
  public PushResult {
    droppedByReason = Map.copyOf(droppedByReason);
  }

  /** Everything delivered. */
  public static PushResult delivered(long bodyBytes) {
    return new PushResult(bodyBytes, Map.of());
  }
}
