package io.sf2loki.app.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.org.OrgScope;
import io.sf2loki.core.pipeline.CommitListener;
import io.sf2loki.core.shape.TimestampParser;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Updates the committed-position gauges after each checkpoint write (SPEC PIPE-10): {@code
 * pubsub:<topic>} → {@code sf2loki_last_replay_commit_timestamp_seconds{topic}} = now (unix s);
 * {@code eventlogfile:<T>} → {@code
 * sf2loki_watermark_timestamp_seconds{source="eventlogfile",object=<T>}} = the value's {@code
 * last_created}; {@code eventlog_objects:<Obj>} → {@code source="eventlog_objects",object=<Obj>} =
 * {@code last_ts}; {@code apexlog} → {@code source="apexlog",object="apexlog"} = {@code last_ts}.
 * Legacy bare timestamps are read too. In multi-org the {@code org=<name>:} prefix is stripped and
 * exported as attribute {@code org} (PIPE-10, ORG-8); unprefixed keys ({@code egress:budget}) carry
 * none. A value that cannot be parsed leaves the gauge unchanged (DEBUG); bookkeeping never fails a
 * commit.
 */
final class CommitGauges implements CommitListener {
  private static final Logger log = LoggerFactory.getLogger(CommitGauges.class);
  private static final JsonMapper JSON = new JsonMapper();
  private static final String ELF_PREFIX = "eventlogfile:";
  private static final String OBJ_PREFIX = "eventlog_objects:";
  private static final String PUBSUB_PREFIX = "pubsub:";
  private final Sf2lokiMetrics metrics;
  private final InstantSource wall;

  /**
   * @param metrics the instance's metrics
   * @param wall the wall clock the replay-commit gauge reads
   */
  CommitGauges(Sf2lokiMetrics metrics, InstantSource wall) {
    this.metrics = metrics;
    this.wall = wall;
  }

  /** A checkpoint key family whose value carries a watermark (PIPE-10). */
  private record Family(String prefix, boolean exact, String source, String field) {
    Optional<String> object(String key) {
      if (exact) {
        return key.equals(prefix) ? Optional.of(prefix) : Optional.empty();
      }
      return key.startsWith(prefix)
          ? Optional.of(key.substring(prefix.length()))
          : Optional.empty();
    }
  }

  private static final List<Family> FAMILIES =
      List.of(
          new Family(ELF_PREFIX, false, "eventlogfile", "last_created"),
          new Family(OBJ_PREFIX, false, "eventlog_objects", "last_ts"),
          new Family("apexlog", true, "apexlog", "last_ts"));

  @Override
  public void committed(Map<String, String> written) {
    written.forEach(
        (storedKey, value) -> {
          OrgScope.Split split = OrgScope.split(storedKey); // PIPE-10: org=<name>: → attribute
          String key = split.key();
          if (key.startsWith(PUBSUB_PREFIX)) {
            metrics.lastReplayCommitTimestampSeconds.set(
                wall.millis() / 1000.0,
                withOrg(
                    Attributes.of(Sf2lokiMetrics.TOPIC, key.substring(PUBSUB_PREFIX.length())),
                    split));
            return;
          }
          for (Family f : FAMILIES) {
            Optional<String> object = f.object(key);
            if (object.isEmpty()) {
              continue;
            }
            watermark(value, f.field())
                .ifPresentOrElse(
                    ts ->
                        metrics.watermarkTimestampSeconds.set(
                            ts.getEpochSecond() + ts.getNano() / 1e9,
                            withOrg(
                                Attributes.of(
                                    Sf2lokiMetrics.SOURCE,
                                    f.source(),
                                    Sf2lokiMetrics.OBJECT,
                                    object.get()),
                                split)),
                    () -> log.atDebug().addKeyValue("key", key).log("unparseable watermark"));
            return;
          }
        });
  }

  private static Attributes withOrg(Attributes attrs, OrgScope.Split split) {
    return split.org().isEmpty()
        ? attrs
        : attrs.toBuilder().put(Sf2lokiMetrics.ORG, split.org().get()).build();
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
