package io.sf2loki.sim.loki;

import java.time.Instant;
import java.util.Map;

/**
 * One decoded entry of a push body.
 *
 * @param timestamp entry time with nanosecond precision, or null when the protobuf entry had none
 * @param line the log line
 * @param structuredMetadata structured metadata (name to value; empty when none), in body order
 */
public record PushedEntry(Instant timestamp, String line, Map<String, String> structuredMetadata) {
  public PushedEntry {
    structuredMetadata =
        java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(structuredMetadata));
  }
}
