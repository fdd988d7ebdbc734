package io.sf2loki.sim.loki;

import java.time.Instant;
import java.util.Map;

/**
 * One entry stored by the {@link LokiReceiver}.
 *
 * @param labels the stream labels (sorted, unmodifiable)
 * @param timestamp entry time with nanosecond precision
 * @param line the log line
 * @param structuredMetadata structured metadata (unmodifiable, body order)
 */
public record ReceivedEntry(
    Map<String, String> labels,
    Instant timestamp,
    String line,
    Map<String, String> structuredMetadata) {}
