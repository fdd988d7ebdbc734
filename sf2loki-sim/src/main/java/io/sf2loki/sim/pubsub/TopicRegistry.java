package io.sf2loki.sim.pubsub;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;

/**
 * The topics and writer schemas of a {@link SimPubSub}: registration order, schema ids (the fixed
 * one of a captured schema, else the first 16 bytes of SHA-256 of the canonical JSON, base64url
 * without padding) and the JSON text {@code GetSchema} returns. Thread-safe.
 */
final class TopicRegistry {
  private static final String RESOURCES = "/io/sf2loki/sim/pubsub/";
  private static final String ACCOUNT_SCHEMA_ID = "i8wgJwwM-AVcDbFkbRl5Nw";

  private final Map<String, SimTopic> topics = new LinkedHashMap<>(); // guarded by itself
  private final Map<String, Schema> schemas = new ConcurrentHashMap<>();
  private final Map<String, String> schemaJson = new ConcurrentHashMap<>();

  /** Registers the built-in topics with the writer schemas copied from the fixtures. */
  void addBuiltins() {
    addTopic(SimPubSub.LOGIN_TOPIC, null, resource("LoginEventStream.reconstructed.avsc"));
    addTopic(SimPubSub.API_TOPIC, null, resource("ApiEventStream.reconstructed.avsc"));
    addTopic(SimPubSub.API_ANOMALY_TOPIC, null, resource("ApiAnomalyEvent.reconstructed.avsc"));
    addTopic(
        SimPubSub.ACCOUNT_CDC_TOPIC,
        ACCOUNT_SCHEMA_ID,
        resource("AccountChangeEvent." + ACCOUNT_SCHEMA_ID + ".avsc"));
  }

  /** Topic names in registration order. */
  List<String> names() {
    synchronized (topics) {
      return List.copyOf(topics.keySet());
    }
  }

  /**
   * Registers {@code topic} with writer schema {@code json} under {@code fixedId} (null: derived).
   *
   * @throws IllegalArgumentException when the topic exists or the schema does not parse
   */
  String addTopic(String topic, String fixedId, String json) {
    Objects.requireNonNull(topic);
    String id = register(fixedId, json);
    synchronized (topics) {
      if (topics.containsKey(topic)) {
        throw new IllegalArgumentException("topic exists: " + topic);
      }
      topics.put(topic, new SimTopic(topic, topics.size() + 1, id, schemas.get(id)));
    }
    return id;
  }

  /** Registers a writer schema; the same schema twice gets the same id. */
  String register(String fixedId, String json) {
    Schema s;
    try {
      s = new Schema.Parser().parse(json);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("schema does not parse", e);
    }
    String id = fixedId != null ? fixedId : schemaId(s);
    schemas.putIfAbsent(id, s);
    schemaJson.putIfAbsent(id, json);
    return id;
  }

  /** The topic named {@code name}, or null. */
  SimTopic topic(String name) {
    synchronized (topics) {
      return topics.get(name);
    }
  }

  /**
   * The topic named {@code name}.
   *
   * @throws IllegalArgumentException for an unknown topic
   */
  SimTopic requireTopic(String name) {
    SimTopic t = topic(name);
    if (t == null) {
      throw new IllegalArgumentException("unknown topic: " + name);
    }
    return t;
  }

  /**
   * The schema registered under {@code schemaId}.
   *
   * @throws IllegalArgumentException for an unknown schema id
   */
  Schema requireSchema(String schemaId) {
    Schema s = schemas.get(Objects.requireNonNull(schemaId));
    if (s == null) {
      throw new IllegalArgumentException("unknown schema id: " + schemaId);
    }
    return s;
  }

  /** The JSON text registered under {@code schemaId}, or null. */
  String schemaJson(String schemaId) {
    return schemaJson.get(schemaId);
  }

  private static String schemaId(Schema s) {
    try {
      byte[] h =
          MessageDigest.getInstance("SHA-256")
              .digest(s.toString().getBytes(StandardCharsets.UTF_8));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(h, 16));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String resource(String name) {
    try (InputStream in = SimPubSub.class.getResourceAsStream(RESOURCES + name)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
