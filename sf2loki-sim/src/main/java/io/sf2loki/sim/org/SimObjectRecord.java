package io.sf2loki.sim.org;

import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One row of a simulated queryable object (SPEC OBJ, FEAT-18). Immutable.
 *
 * @param object the object name
 * @param id the {@code Id} (the placeholder {@code 000000000000000AAA} on big objects)
 * @param timestamp the row's true timestamp: queries filter and sort on it
 * @param visibleAt the row is returned by queries only once the org's clock reached this instant
 *     (late visibility, OBJ-6)
 * @param values field → value; datetime fields hold {@link Instant}s (rendered as Salesforce
 *     timestamps), the timestamp field holds {@code timestamp}
 * @param renderedTimestamp when {@code hasRenderedOverride}, the timestamp field is sent as this
 *     value (null or an unparseable string) while filtering still uses {@code timestamp}
 * @param hasRenderedOverride whether {@code renderedTimestamp} applies
 */
public record SimObjectRecord(
    String object,
    String id,
    Instant timestamp,
    Instant visibleAt,
    Map<String, Object> values,
    Object renderedTimestamp,
    boolean hasRenderedOverride) {
  public SimObjectRecord {
    values = Collections.unmodifiableMap(new LinkedHashMap<>(values));
  }

  /** The value of {@code field} as stored (datetime fields are {@link Instant}s). */
  public Object get(String field) {
    return ObjectQuery.get(values, field);
  }
}
