package io.sf2loki.salesforce.elf;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.salesforce.source.CursorCodec;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Reads an EventLogFile checkpoint value (SPEC ELF-4, SRC-15). Thread-safe.
 *
 * <p>Accepted forms: a JSON object with optional {@code last_created} (string) and {@code ids} (an
 * array of {@code [id, createdDate]} pairs or legacy bare id strings); a bare timestamp (JSON
 * string or plain text that parses as a Salesforce timestamp) meaning {@code last_created} with an
 * empty window. Anything else, including an object whose {@code last_created} does not parse as a
 * Salesforce timestamp, is rejected.
 */
final class ElfCursorCodec {
  private final ObjectMapper mapper =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  /**
   * @param value the stored value
   * @param defaultLastCreated {@code last_created} when the object form has none (ELF-4 default)
   * @return the cursor, or empty when the value is not a valid form (caller WARNs and counts)
   */
  Optional<ElfCursor> parse(String value, String defaultLastCreated) {
    if (value == null) {
      return Optional.empty();
    }
    JsonNode root;
    try {
      root = mapper.readTree(value);
    } catch (JsonProcessingException e) {
      root = null;
    }
    if (root == null || root.isMissingNode()) {
      return bareTimestamp(value);
    }
    if (root.isTextual()) {
      return bareTimestamp(root.textValue());
    }
    if (!root.isObject()) {
      return Optional.empty();
    }
    String lastCreated = defaultLastCreated;
    JsonNode lc = root.get("last_created");
    if (lc != null && !lc.isNull()) {
      // the value becomes the SOQL since-literal: anything that is not a timestamp would stall
      // the type with HTTP 400 on every poll or inject SOQL (ELF-4, SRC-18)
      if (!lc.isTextual() || SalesforceTimestamps.parse(lc.textValue()).isEmpty()) {
        return Optional.empty();
      }
      lastCreated = lc.textValue();
    }
    List<ElfCursor.WindowEntry> window = new ArrayList<>();
    JsonNode ids = root.get("ids");
    if (ids != null && !ids.isNull()) {
      if (!ids.isArray()) {
        return Optional.empty();
      }
      for (JsonNode item : ids) {
        if (item.isTextual()) {
          window.add(new ElfCursor.WindowEntry(item.textValue(), null));
        } else if (item.isArray()
            && item.size() == 2
            && item.get(0).isTextual()
            && item.get(1).isTextual()) {
          window.add(new ElfCursor.WindowEntry(item.get(0).textValue(), item.get(1).textValue()));
        } else {
          return Optional.empty();
        }
      }
    }
    return Optional.of(new ElfCursor(lastCreated, window));
  }

  /** This codec as a {@link CursorCodec} whose object form defaults {@code last_created}. */
  CursorCodec<ElfCursor> withDefault(String defaultLastCreated) {
    return CursorCodec.of(v -> parse(v, defaultLastCreated), ElfCursor::toValue);
  }

  private static Optional<ElfCursor> bareTimestamp(String s) {
    String t = s.strip();
    if (SalesforceTimestamps.parse(t).isPresent()) {
      return Optional.of(new ElfCursor(t, List.of()));
    }
    return Optional.empty();
  }
}
