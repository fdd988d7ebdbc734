package io.sf2loki.app.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.pipeline.CommitListener;
import io.sf2loki.core.shape.TimestampParser;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Updates the committed-watermark gauges after each checkpoint write (SPEC PIPE-10): {@code
 * eventlogfile:<T>} → {@code sf2loki_watermark_timestamp_seconds{source="eventlogfile",object=<T>}}
 * = the value's {@code last_created}. A value that cannot be parsed leaves the gauge unchanged
 * (DEBUG); bookkeeping never fails a commit.
 */
final class CommitGauges implements CommitListener {
  private static final Logger log = LoggerFactory.getLogger(CommitGauges.class);
  private static final JsonMapper JSON = new JsonMapper();
  private static final String ELF_PREFIX = "eventlogfile:";
  private static final String OBJ_PREFIX = "eventlog_objects:";
  private final Sf2lokiMetrics metrics;

  CommitGauges(Sf2lokiMetrics metrics) {
    this.metrics = metrics;
  }

  @Override
  public void committed(Map<String, String> written) {
    written.forEach(
        (key, value) -> {
          if (key.startsWith(ELF_PREFIX)) {
            watermark(value, "last_created")
                .ifPresentOrElse(
                    ts ->
                        metrics.watermarkTimestampSeconds.set(
                            ts.getEpochSecond() + ts.getNano() / 1e9,
                            Attributes.of(
                                Sf2lokiMetrics.SOURCE,
                                "eventlogfile",
                                Sf2lokiMetrics.OBJECT,
                                key.substring(ELF_PREFIX.length()))),
                    () -> log.atDebug().addKeyValue("key", key).log("unparseable watermark"));
          } else if (key.startsWith(OBJ_PREFIX)) { // eventlog_objects: last_ts (PIPE-10)
            watermark(value, "last_ts")
                .ifPresent(
                    ts ->
                        metrics.watermarkTimestampSeconds.set(
                            ts.getEpochSecond() + ts.getNano() / 1e9,
                            Attributes.of(
                                Sf2lokiMetrics.SOURCE,
                                "eventlog_objects",
                                Sf2lokiMetrics.OBJECT,
                                key.substring(OBJ_PREFIX.length()))));
          }
        });
  }

  /** The timestamp under {@code field} of a JSON value, or of a legacy bare timestamp. */
  static Optional<Instant> watermark(String value, String field) {
    try {
      JsonNode node = JSON.readTree(value);
      if (node != null && node.isObject() && node.path(field).isTextual()) {
        return TimestampParser.parse(node.get(field).asText());
      }
      if (node != null && node.isTextual()) {
        return TimestampParser.parse(node.asText());
      }
    } catch (Exception notJson) {
      // legacy bare timestamp
    }
    return TimestampParser.parse(value);
  }
}
