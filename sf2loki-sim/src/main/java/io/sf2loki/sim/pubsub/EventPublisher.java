package io.sf2loki.sim.pubsub;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Consumer;
import org.apache.avro.Schema;

/**
 * Stores events on a {@link SimPubSub}'s topics: generated ones (deterministic per seed), caller
 * payloads and poison events, each with the topic's next replay id and a name-based event id; then
 * hands the topic to {@code deliver} so open streams with credits get them. Thread-safe.
 */
final class EventPublisher {
  private final TopicRegistry registry;
  private final EventGenerator generator;
  private final InstantSource clock;
  private final Duration retention;
  private final Consumer<SimTopic> deliver;

  EventPublisher(
      TopicRegistry registry,
      EventGenerator generator,
      InstantSource clock,
      Duration retention,
      Consumer<SimTopic> deliver) {
    this.registry = registry;
    this.generator = generator;
    this.clock = clock;
    this.retention = retention;
    this.deliver = deliver;
  }

  /** {@link SimPubSub#publish(String, int)}. */
  List<PublishedEvent> publish(String topic, int count) {
    SimTopic t = registry.requireTopic(topic);
    List<PublishedEvent> out = new ArrayList<>(count);
    synchronized (generator) {
      for (int i = 0; i < count; i++) {
        synchronized (t) {
          Instant now = clock.instant();
          EventGenerator.Generated g = generator.next(topic, t.schema(), now);
          byte[] payload = AvroCodec.encode(t.schema(), g.record());
          Map<String, Object> decoded;
          try {
            decoded = AvroCodec.decode(t.schema(), payload);
          } catch (IOException e) {
            throw new UncheckedIOException("generated payload does not decode", e);
          }
          out.add(store(t, t.schemaId(), payload, decoded, g.eventTime(), now, false));
        }
      }
    }
    deliver.accept(t);
    return out;
  }

  /** {@link SimPubSub#publish(String, byte[], String)}. */
  PublishedEvent publish(String topic, byte[] payload, String schemaId) {
    SimTopic t = registry.requireTopic(topic);
    Schema s = registry.requireSchema(schemaId);
    Map<String, Object> decoded;
    try {
      decoded = AvroCodec.decode(s, payload);
    } catch (IOException e) {
      decoded = null;
    }
    PublishedEvent e;
    synchronized (t) {
      Instant now = clock.instant();
      e = store(t, schemaId, payload.clone(), decoded, eventTime(decoded, now), now, false);
    }
    deliver.accept(t);
    return e;
  }

  /** {@link SimPubSub#publishPoison(String)}. */
  PublishedEvent publishPoison(String topic) {
    SimTopic t = registry.requireTopic(topic);
    PublishedEvent e;
    synchronized (generator) {
      synchronized (t) {
        Instant now = clock.instant();
        Schema s = t.schema();
        byte[] full = AvroCodec.encode(s, generator.next(topic, s, now).record());
        byte[] cut = Arrays.copyOf(full, full.length / 2);
        if (decodes(s, cut)) {
          cut = new byte[] {(byte) 0x80}; // an unterminated varint
        }
        e = store(t, t.schemaId(), cut, null, now, now, true);
      }
    }
    deliver.accept(t);
    return e;
  }

  private PublishedEvent store(
      SimTopic t,
      String schemaId,
      byte[] payload,
      Map<String, Object> fields,
      Instant eventTime,
      Instant now,
      boolean poison) {
    t.evict(now, retention);
    byte[] replayId = t.nextReplayId();
    String eventId =
        UUID.nameUUIDFromBytes(
                (t.name + "#" + Base64.getEncoder().encodeToString(replayId))
                    .getBytes(StandardCharsets.UTF_8))
            .toString();
    PublishedEvent e =
        new PublishedEvent(
            t.name, replayId, eventId, schemaId, payload, fields, eventTime, now, poison);
    t.append(e);
    return e;
  }

  @SuppressWarnings("unchecked")
  private static Instant eventTime(Map<String, Object> f, Instant fallback) {
    if (f == null) {
      return fallback;
    }
    if (f.get("ChangeEventHeader") instanceof Map<?, ?> h
        && ((Map<String, Object>) h).get("commitTimestamp") instanceof Long l) {
      return Instant.ofEpochMilli(l);
    }
    if (f.get("EventDate") instanceof Long l) {
      return Instant.ofEpochMilli(l);
    }
    if (f.get("CreatedDate") instanceof Long l) {
      return Instant.ofEpochMilli(l);
    }
    return fallback;
  }

  private static boolean decodes(Schema s, byte[] payload) {
    try {
      AvroCodec.decode(s, payload);
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
