package io.sf2loki.salesforce.pubsub;

import com.google.protobuf.ByteString;
import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.shape.Sampler;
import io.sf2loki.core.shape.StructuredMetadataExtractor;
import io.sf2loki.salesforce.source.SourceTransforms;
import io.sf2loki.salesforce.source.TimestampFallback;
import java.time.Instant;
import java.time.InstantSource;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Shapes the decoded events of one topic for one term (SPEC SRC-4…SRC-13, PS-10, PS-11): the {@code
 * sources.pubsub.transforms} first (XF-1; a {@code drop_row} match leaves a checkpoint-only entry,
 * XF-6), then sampling (SRC-14, key = lowercase hex of the replay id, XF-9), then labels {@code
 * source=pubsub} and {@code event_type=<last topic segment>}, the canonical JSON line, structured
 * metadata (SRC-9 with the envelope names {@code replay_id} and {@code schema_id}) and the PS-10
 * timestamp. The timestamp fallback is the last field-derived time seen on this topic by this
 * shaper (so one shaper per topic and term), else server now, floored at server now − 167 h
 * (SRC-12), counting {@code sf2loki_timestamp_fallbacks{source="pubsub"}}. Static labels are merged
 * by the pipeline (PIPE-4). Not thread-safe.
 */
public final class PubSubEntryShaper {

  private final String topic;
  private final String key;
  private final Map<String, String> labels;
  private final StructuredMetadataExtractor metadata;
  private final double sampleRate;
  private final Sf2lokiMetrics metrics;
  private final InstantSource serverNow;
  private final SourceTransforms transforms;
  private final Attributes sourceAttrs;
  private final Attributes typeAttrs;
  private final RecordLineWriter lineWriter = new RecordLineWriter();
  private Instant lastFieldTime;

  /**
   * @param topic the topic name
   * @param metadata the global structured-metadata extractor (SRC-9)
   * @param sampleRate the topic's sample rate (XF-9; ≥ 1 keeps everything)
   * @param metrics the instance's metrics
   * @param serverNow the org's server-now clock (SRC-20)
   */
  public PubSubEntryShaper(
      String topic,
      StructuredMetadataExtractor metadata,
      double sampleRate,
      Sf2lokiMetrics metrics,
      InstantSource serverNow) {
    this(topic, metadata, sampleRate, metrics, serverNow, SourceTransforms.NONE);
  }

  /**
   * As above, with the source's transforms (XF-1).
   *
   * @param transforms the compiled {@code sources.pubsub.transforms}, or {@link
   *     SourceTransforms#NONE}
   */
  public PubSubEntryShaper(
      String topic,
      StructuredMetadataExtractor metadata,
      double sampleRate,
      Sf2lokiMetrics metrics,
      InstantSource serverNow,
      SourceTransforms transforms) {
    this.transforms = Objects.requireNonNull(transforms, "transforms");
    this.topic = Objects.requireNonNull(topic, "topic");
    this.key = PubSubTopics.checkpointKey(topic);
    String eventType = PubSubTopics.eventType(topic);
    Map<String, String> l = new LinkedHashMap<>();
    l.put("source", TopicReader.SOURCE);
    l.put("event_type", eventType);
    this.labels = Map.copyOf(l);
    this.metadata = Objects.requireNonNull(metadata, "metadata");
    this.sampleRate = sampleRate;
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.serverNow = Objects.requireNonNull(serverNow, "serverNow");
    this.sourceAttrs = Attributes.of(Sf2lokiMetrics.SOURCE, TopicReader.SOURCE);
    this.typeAttrs =
        Attributes.of(
            Sf2lokiMetrics.SOURCE, TopicReader.SOURCE, Sf2lokiMetrics.EVENT_TYPE, eventType);
  }

  /** The topic's checkpoint token for a replay id (SRC-15: base64 with padding). */
  public CheckpointToken token(ByteString replayId) {
    return new CheckpointToken(key, ReplayPosition.base64(replayId));
  }

  /** A checkpoint-only entry for {@code replayId} (SRC-3, PS-6, PS-11). */
  public LogEntry checkpointOnly(ByteString replayId) {
    return LogEntry.checkpointOnly(token(replayId));
  }

  /**
   * Shapes one decoded event.
   *
   * @param decoded the decoded payload (PS-5); transforms change it in place
   * @param replayId the event's replay id
   * @param schemaId the event's schema id
   * @return a real entry, or a checkpoint-only entry when a {@code drop_row} rule dropped the event
   *     (counted in {@code sf2loki_rows_filtered}) or it is sampled out (counted in {@code
   *     sf2loki_entries_sampled_out{source,event_type}})
   */
  public LogEntry shape(Map<String, Object> decoded, ByteString replayId, String schemaId) {
    if (!transforms.apply(decoded)) {
      return checkpointOnly(replayId); // XF-6: dropped visibly, the position still advances
    }
    if (sampleRate < 1.0
        && !Sampler.keep(HexFormat.of().formatHex(replayId.toByteArray()), sampleRate)) {
      metrics.entriesSampledOut.add(1, typeAttrs);
      return checkpointOnly(replayId);
    }
    String b64 = ReplayPosition.base64(replayId);
    Instant ts = timestamp(decoded);
    Map<String, String> md =
        metadata.extract(decoded, Map.of("replay_id", b64, "schema_id", schemaId));
    // SRC-7: the same text as CanonicalJson.write(decoded), keys sorted once per schema
    return LogEntry.of(ts, labels, lineWriter.write(decoded), md, new CheckpointToken(key, b64));
  }

  private Instant timestamp(Map<String, Object> decoded) {
    Optional<Instant> fromFields = PubSubEventTime.fromFields(decoded);
    if (fromFields.isPresent()) {
      lastFieldTime = fromFields.get();
      return lastFieldTime;
    }
    metrics.timestampFallbacks.add(1, sourceAttrs);
    Instant now = serverNow.instant();
    Instant fallback = lastFieldTime != null ? lastFieldTime : now;
    return TimestampFallback.floored(fallback, now);
  }

  /** The topic this shaper serves. */
  public String topic() {
    return topic;
  }
}
