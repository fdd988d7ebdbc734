package io.sf2loki.state;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.sf2loki.core.spi.StateCorruptException;
import io.sf2loki.core.spi.StateException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;

/**
 * The checkpoint document shared by every back end (SPEC STATE-1, SRC-15): one flat JSON object of
 * string keys to string values, written as compact JSON in insertion order. The reserved key
 * {@value #FENCE_EPOCH_KEY} holds the decimal fencing epoch (STATE-7) and is hidden from callers
 * (STATE-12).
 */
public final class CheckpointDocument {
  /** The reserved key of STATE-7 / STATE-12. */
  public static final String FENCE_EPOCH_KEY = "__fence_epoch__";

  private static final ObjectMapper JSON =
      JsonMapper.builder().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

  /** Builds the named error for an unreadable document, e.g. with the advice how to reset. */
  @FunctionalInterface
  public interface CorruptionReport {
    /**
     * @param what what is wrong, e.g. {@code "is not valid JSON (...)"}
     * @param cause the parser's exception, or null
     */
    StateCorruptException corrupt(String what, Throwable cause);
  }

  private CheckpointDocument() {}

  /**
   * Parses stored bytes (STATE-3, STATE-8, STATE-11).
   *
   * @return the document in stored key order (mutable)
   * @throws StateCorruptException via {@code report} for invalid UTF-8, invalid JSON, a non-object
   *     or a non-string value
   */
  public static Map<String, String> parse(byte[] bytes, CorruptionReport report) {
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes))
              .toString();
    } catch (CharacterCodingException e) {
      throw report.corrupt("is not valid UTF-8", e);
    }
    JsonNode root;
    try {
      root = JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw report.corrupt("is not valid JSON (" + e.getOriginalMessage() + ")", e);
    }
    if (root == null || !root.isObject()) {
      throw report.corrupt("is not a JSON object", null);
    }
    Map<String, String> doc = new LinkedHashMap<>();
    Iterator<Map.Entry<String, JsonNode>> it = root.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      if (!e.getValue().isTextual()) {
        throw report.corrupt("holds a non-string value under key '" + e.getKey() + "'", null);
      }
      doc.put(e.getKey(), e.getValue().textValue());
    }
    return doc;
  }

  /** Compact JSON of {@code doc} (STATE-4). */
  public static byte[] serialise(Map<String, String> doc) {
    try {
      return JSON.writeValueAsBytes(doc);
    } catch (JsonProcessingException e) {
      throw new StateException("cannot serialise checkpoint document: " + e.getMessage(), e);
    }
  }

  /**
   * Checks a commit's arguments (STATE-2, STATE-12).
   *
   * @throws IllegalArgumentException when a caller sets or removes {@value #FENCE_EPOCH_KEY}
   * @throws NullPointerException for a null key or value
   */
  public static void checkCommit(Map<String, String> values, Set<String> keysToRemove) {
    Objects.requireNonNull(values, "values");
    Objects.requireNonNull(keysToRemove, "keysToRemove");
    if (values.containsKey(FENCE_EPOCH_KEY) || keysToRemove.contains(FENCE_EPOCH_KEY)) {
      throw new IllegalArgumentException(FENCE_EPOCH_KEY + " is reserved for the store (STATE-12)");
    }
    for (Map.Entry<String, String> e : values.entrySet()) {
      Objects.requireNonNull(e.getKey(), "key");
      Objects.requireNonNull(e.getValue(), "value of " + e.getKey());
    }
  }

  /** {@code base} with {@code values} set and {@code keysToRemove} removed (a new map). */
  public static Map<String, String> merge(
      Map<String, String> base, Map<String, String> values, Set<String> keysToRemove) {
    Map<String, String> next = new LinkedHashMap<>(base);
    next.putAll(values);
    keysToRemove.forEach(next::remove);
    return next;
  }

  /** The caller-visible view: sorted, without reserved keys (STATE-12). */
  public static Map<String, String> visible(Map<String, String> doc) {
    Map<String, String> out = new TreeMap<>(doc);
    out.remove(FENCE_EPOCH_KEY);
    return Collections.unmodifiableMap(out);
  }

  /**
   * The stored fencing epoch (STATE-7).
   *
   * @return empty when absent or not a decimal integer
   */
  public static OptionalLong fenceEpoch(Map<String, String> doc) {
    String v = doc.get(FENCE_EPOCH_KEY);
    if (v == null) {
      return OptionalLong.empty();
    }
    try {
      return OptionalLong.of(Long.parseLong(v.trim()));
    } catch (NumberFormatException e) {
      return OptionalLong.empty();
    }
  }
}
