package io.sf2loki.salesforce.objects;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.core.shape.CanonicalJson;
import io.sf2loki.core.shape.TimestampParser;
import io.sf2loki.salesforce.source.CursorCodec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The cursor of one object (SPEC OBJ-2, OBJ-9, SRC-15): the watermark — the raw Salesforce
 * timestamp exactly as received — and the id window of record keys already emitted at it. Mutable;
 * touched only by the source's run thread.
 *
 * <p>Stored as {@code {"ids": [...], "last_ts": "<raw>"}} in canonical JSON (SRC-7); a legacy bare
 * timestamp (JSON string or plain text) is read as an empty window.
 */
final class ObjectCursor {
  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private String lastTs;
  private Instant lastInstant;
  private final LinkedHashSet<String> ids;

  ObjectCursor(String lastTs, Instant lastInstant, List<String> ids) {
    this.lastTs = lastTs;
    this.lastInstant = lastInstant;
    this.ids = new LinkedHashSet<>(ids);
  }

  String lastTs() {
    return lastTs;
  }

  Instant lastInstant() {
    return lastInstant;
  }

  boolean inWindow(String key) {
    return ids.contains(key);
  }

  int windowSize() {
    return ids.size();
  }

  /** The last key of the window (the ASC compound cursor's Id), or null. */
  String lastKey() {
    String last = null;
    for (String s : ids) {
      last = s;
    }
    return last;
  }

  /**
   * OBJ-9: the watermark becomes {@code raw}; with {@code onlyLast} (ASC path, real Id) the window
   * becomes {@code [key]}, otherwise the window restarts with {@code key} when the instant moved
   * and grows otherwise.
   *
   * @return whether the window restarted at a new instant
   */
  boolean advance(String raw, Instant instant, String key, boolean onlyLast) {
    boolean moved = lastInstant == null || !instant.equals(lastInstant);
    lastTs = raw;
    lastInstant = instant;
    if (onlyLast || moved) {
      ids.clear();
    }
    ids.add(key);
    return moved;
  }

  /** Canonical JSON {@code {"ids": [...], "last_ts": "..."}} (SRC-15). */
  String toValue() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("ids", new ArrayList<>(ids));
    m.put("last_ts", lastTs);
    return CanonicalJson.write(m);
  }

  /** The checkpoint codec (SRC-15): {@link #parse} and {@link #toValue}. */
  static final CursorCodec<ObjectCursor> CODEC =
      CursorCodec.of(ObjectCursor::parse, ObjectCursor::toValue);

  /**
   * Parses a stored value (OBJ-2).
   *
   * @return the cursor, or empty when the value is not a usable form or its watermark does not
   *     parse
   */
  static Optional<ObjectCursor> parse(String value) {
    if (value == null) {
      return Optional.empty();
    }
    JsonNode root;
    try {
      root = MAPPER.readTree(value);
    } catch (JsonProcessingException e) {
      root = null;
    }
    if (root == null || root.isMissingNode()) {
      return bare(value);
    }
    if (root.isTextual()) {
      return bare(root.textValue());
    }
    if (!root.isObject()) {
      return Optional.empty();
    }
    JsonNode ts = root.get("last_ts");
    if (ts == null || !ts.isTextual()) {
      return Optional.empty();
    }
    Instant at = TimestampParser.parseOrNull(ts.textValue());
    if (at == null) {
      return Optional.empty();
    }
    List<String> ids = new ArrayList<>();
    JsonNode arr = root.get("ids");
    if (arr != null && !arr.isNull()) {
      if (!arr.isArray()) {
        return Optional.empty();
      }
      for (JsonNode n : arr) {
        if (!n.isTextual()) {
          return Optional.empty();
        }
        ids.add(n.textValue());
      }
    }
    return Optional.of(new ObjectCursor(ts.textValue(), at, ids));
  }

  private static Optional<ObjectCursor> bare(String s) {
    String t = s.strip();
    Instant at = TimestampParser.parseOrNull(t);
    return at == null ? Optional.empty() : Optional.of(new ObjectCursor(t, at, List.of()));
  }
}
