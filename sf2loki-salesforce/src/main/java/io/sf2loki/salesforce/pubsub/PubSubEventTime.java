package io.sf2loki.salesforce.pubsub;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The field-derived timestamp of a decoded Pub/Sub event (SPEC PS-10).
 *
 * <p>Fields tried in order, the first non-null usable value wins: {@code EventDate}, {@code
 * CreatedDate}, {@code ChangeEventHeader.commitTimestamp}; for a change event (the payload has a
 * {@code ChangeEventHeader} map) {@code ChangeEventHeader.commitTimestamp} is tried first, because
 * its {@code CreatedDate} belongs to the changed record. Values are epoch milliseconds ({@code
 * Long}, the Salesforce convention) or {@link Instant} (a {@code timestamp-*} logical type, PS-5).
 * The PS-10 fallbacks (last field time on the topic, then server now) belong to the caller.
 */
public final class PubSubEventTime {
  private PubSubEventTime() {}

  /**
   * Returns the event time taken from the decoded payload's fields, or empty when none of the PS-10
   * fields holds a usable value.
   */
  public static Optional<Instant> fromFields(Map<String, Object> decoded) {
    Object header = decoded.get("ChangeEventHeader");
    Object commit = header instanceof Map<?, ?> h ? h.get("commitTimestamp") : null;
    List<Object> candidates =
        header instanceof Map<?, ?>
            ? java.util.Arrays.asList(commit, decoded.get("EventDate"), decoded.get("CreatedDate"))
            : java.util.Arrays.asList(decoded.get("EventDate"), decoded.get("CreatedDate"), commit);
    for (Object candidate : candidates) {
      Optional<Instant> instant = toInstant(candidate);
      if (instant.isPresent()) {
        return instant;
      }
    }
    return Optional.empty();
  }

  private static Optional<Instant> toInstant(Object value) {
    if (value instanceof Instant i) {
      return Optional.of(i);
    }
    if (value instanceof Long l) {
      return Optional.of(Instant.ofEpochMilli(l));
    }
    return Optional.empty();
  }
}
