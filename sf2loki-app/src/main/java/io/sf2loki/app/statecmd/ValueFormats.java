package io.sf2loki.app.statecmd;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.Base64;
import java.util.Optional;

/**
 * Whether a value is in a form SPEC SRC-15 can read for its key's owner (CLI-8 prints a WARN when
 * not; the value is written verbatim all the same). Keys may carry the ORG-4 prefix {@code
 * org=<name>:}.
 */
final class ValueFormats {
  private static final ObjectMapper JSON = new ObjectMapper();

  private ValueFormats() {}

  /**
   * @return why SRC-15 cannot read {@code value} under {@code key}, or empty when it can (or the
   *     key has no known owner)
   */
  static Optional<String> problem(String key, String value) {
    String k =
        key.startsWith("org=") && key.indexOf(':') > 0 ? key.substring(key.indexOf(':') + 1) : key;
    if (k.startsWith("pubsub:")) {
      try {
        if (Base64.getDecoder().decode(value).length > 0) {
          return Optional.empty();
        }
      } catch (IllegalArgumentException e) {
        // reported below
      }
      return Optional.of("a pubsub value is the standard base64 of the replay id");
    }
    if (k.startsWith("eventlog_objects:") || k.equals("apexlog")) {
      return cursor(value, "last_ts", k.equals("apexlog") ? "apexlog" : "eventlog_objects");
    }
    if (k.startsWith("eventlogfile:")) {
      return cursor(value, "last_created", "eventlogfile");
    }
    if (k.equals("egress:budget")) {
      JsonNode n = json(value);
      if (n != null && n.path("date").isTextual() && n.path("bytes").canConvertToLong()) {
        return Optional.empty();
      }
      return Optional.of("egress:budget is {\"date\": \"YYYY-MM-DD\", \"bytes\": N}");
    }
    return Optional.empty();
  }

  /** {@code {"ids": [...], "<field>": "..."}}, or the legacy bare timestamp string. */
  private static Optional<String> cursor(String value, String field, String owner) {
    JsonNode n = json(value);
    if (n == null) {
      return value.isBlank() || value.trim().startsWith("{") || value.trim().startsWith("[")
          ? Optional.of(owner + " values are {\"ids\": [...], \"" + field + "\": \"...\"}")
          : Optional.empty(); // legacy: a bare timestamp
    }
    if (n.isObject() && n.path("ids").isArray() && n.path(field).isTextual()) {
      return Optional.empty();
    }
    if (n.isTextual()) {
      return Optional.empty();
    }
    return Optional.of(owner + " values are {\"ids\": [...], \"" + field + "\": \"...\"}");
  }

  private static JsonNode json(String value) {
    try {
      return JSON.readTree(value);
    } catch (IOException e) {
      return null;
    }
  }
}
