package io.sf2loki.sim.pubsub;

import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;

/**
 * One event stored on a simulated topic, as {@link SimPubSub#publish} returned it. Byte arrays are
 * shared with the simulator: do not mutate them.
 *
 * @param topic topic name, e.g. {@code /event/LoginEventStream}
 * @param replayId the opaque 10-byte replay id delivered in {@code ConsumerEvent.replay_id}
 * @param eventId {@code ProducerEvent.id} (a UUID string)
 * @param schemaId {@code ProducerEvent.schema_id}
 * @param payload {@code ProducerEvent.payload}: schemaless Avro binary written with the schema of
 *     {@code schemaId}
 * @param fields the payload decoded with its writer schema (every field, nulls included; records →
 *     maps, arrays → lists, enums and strings → {@link String}, longs/ints/doubles/booleans boxed);
 *     null when the payload does not decode (poison or raw undecodable events)
 * @param eventTime the timestamp a client derives per PS-10: {@code
 *     ChangeEventHeader.commitTimestamp} for change events, else {@code EventDate}, else {@code
 *     CreatedDate}; the publish time when none applies or the payload does not decode
 * @param publishedAt simulator clock when the event was stored (drives retention)
 * @param poison true when published by {@link SimPubSub#publishPoison(String)}
 */
public record PublishedEvent(
    String topic,
    byte[] replayId,
    String eventId,
    String schemaId,
    byte[] payload,
    Map<String, Object> fields,
    Instant eventTime,
    Instant publishedAt,
    boolean poison) {

  /** Standard base64 of {@link #replayId()} (the checkpoint value of PS-10). */
  public String replayIdBase64() {
    return Base64.getEncoder().encodeToString(replayId);
  }

  /** Lowercase hex of {@link #replayId()}. */
  public String replayIdHex() {
    return HexFormat.of().formatHex(replayId);
  }
}
