package io.sf2loki.salesforce.apexlog;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.core.shape.CanonicalJson;
import io.sf2loki.core.shape.TimestampParser;
import io.sf2loki.salesforce.source.CursorCodec;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The ApexLog cursor (SPEC SRC-15, APX-2, APX-3): the raw StartTime of the newest processed log
 * (the watermark) and a window of the last {@value #WINDOW} processed Ids, oldest first. Immutable.
 *
 * <p>Checkpoint value (key {@code apexlog}, canonical JSON, SRC-7): {@code {"ids": ["<Id>", …],
 * "last_ts": "<StartTime>"}}; a legacy bare timestamp is read as an empty window.
 *
 * @param lastTs raw StartTime exactly as received (SRC-16), or the APX-2 default {@code
 *     YYYY-MM-DDTHH:MM:SSZ}
 * @param ids processed Ids, oldest first, at most {@value #WINDOW}
 */
public record ApexLogCursor(String lastTs, List<String> ids) {
  /** APX-2/APX-3: the window keeps this many Ids. */
  public static final int WINDOW = 500;

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  public ApexLogCursor {
    Objects.requireNonNull(lastTs, "lastTs");
    ids = List.copyOf(ids.size() > WINDOW ? ids.subList(ids.size() - WINDOW, ids.size()) : ids);
  }

  /**
   * The outcome of reading a stored value.
   *
   * @param cursor the cursor to continue from
   * @param unusable true when a value was stored but its watermark (or shape) was unusable: the
   *     caller logs WARN and counts {@code sf2loki_checkpoint_load_errors} (APX-2, OBJ-2)
   */
  public record Loaded(ApexLogCursor cursor, boolean unusable) {}

  /**
   * APX-2 cursor load. Accepted: a JSON object with {@code last_ts} (a string that parses as a
   * timestamp) and optional {@code ids} (array of strings, trimmed to its last {@value #WINDOW}); a
   * bare timestamp (plain text or JSON string) meaning an empty window. An object whose {@code
   * last_ts} is missing or does not parse keeps its valid {@code ids} but starts at {@code
   * defaultTs} and is reported unusable; anything else starts at {@code defaultTs} with an empty
   * window and is reported unusable.
   *
   * @param stored the stored value, or null when the key is absent (not unusable)
   * @param defaultTs server now − lookback as {@code YYYY-MM-DDTHH:MM:SSZ}
   */
  /**
   * {@link #load} as the source framework's codec (SRC-15): an unusable value keeps what it
   * salvages (its valid ids) and starts at {@code defaultTs}.
   *
   * @param defaultTs server now − lookback as {@code YYYY-MM-DDTHH:MM:SSZ}
   */
  public static CursorCodec<ApexLogCursor> codec(String defaultTs) {
    return new CursorCodec<>() {
      @Override
      public Optional<ApexLogCursor> decode(String value) {
        Loaded l = load(value, defaultTs);
        return l.unusable() ? Optional.empty() : Optional.of(l.cursor());
      }

      @Override
      public String encode(ApexLogCursor cursor) {
        return cursor.toValue();
      }

      @Override
      public Decoded<ApexLogCursor> decodeOr(String value, ApexLogCursor fresh) {
        Loaded l = load(value, defaultTs);
        return new Decoded<>(l.cursor(), !l.unusable());
      }
    };
  }

  public static Loaded load(String stored, String defaultTs) {
    ApexLogCursor fresh = new ApexLogCursor(defaultTs, List.of());
    if (stored == null) {
      return new Loaded(fresh, false);
    }
    JsonNode root;
    try {
      root = JSON.readTree(stored);
    } catch (JsonProcessingException e) {
      root = null;
    }
    if (root == null || root.isMissingNode()) {
      return bare(stored, fresh);
    }
    if (root.isTextual()) {
      return bare(root.textValue(), fresh);
    }
    if (!root.isObject()) {
      return new Loaded(fresh, true);
    }
    List<String> ids = new ArrayList<>();
    JsonNode idsNode = root.get("ids");
    if (idsNode != null && !idsNode.isNull()) {
      if (!idsNode.isArray()) {
        return new Loaded(fresh, true);
      }
      for (JsonNode item : idsNode) {
        if (!item.isTextual()) {
          return new Loaded(fresh, true);
        }
        ids.add(item.textValue());
      }
    }
    JsonNode ts = root.get("last_ts");
    if (ts != null && ts.isTextual() && parses(ts.textValue())) {
      return new Loaded(new ApexLogCursor(ts.textValue(), ids), false);
    }
    return new Loaded(new ApexLogCursor(defaultTs, ids), true);
  }

  private static Loaded bare(String s, ApexLogCursor fresh) {
    String t = s.strip();
    if (parses(t)) {
      return new Loaded(new ApexLogCursor(t, List.of()), false);
    }
    return new Loaded(fresh, true);
  }

  private static boolean parses(String s) {
    return TimestampParser.parseOrNull(s) != null;
  }

  /** The last Id of the window (the compound cursor's tie breaker, APX-1), or null when empty. */
  public String lastId() {
    return ids.isEmpty() ? null : ids.getLast();
  }

  /** The window as a set, for skipping listed logs (APX-3). */
  public Set<String> idSet() {
    return new HashSet<>(ids);
  }

  /**
   * APX-3: the cursor after log {@code id}: the watermark becomes {@code startTimeRaw} when it
   * parses (else it stays), and {@code id} is appended to the window, which keeps its last {@value
   * #WINDOW} Ids.
   */
  public ApexLogCursor advance(String id, String startTimeRaw) {
    List<String> next = new ArrayList<>(Math.min(ids.size() + 1, WINDOW + 1));
    next.addAll(ids);
    next.remove(id);
    next.add(id);
    String ts = startTimeRaw != null && parses(startTimeRaw) ? startTimeRaw : lastTs;
    return new ApexLogCursor(ts, next);
  }

  /** The checkpoint value, canonical JSON (SRC-7, SRC-15). */
  public String toValue() {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("ids", ids);
    doc.put("last_ts", lastTs);
    return CanonicalJson.write(doc);
  }
}
