package io.sf2loki.app.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.json.JsonMapper;
import io.sf2loki.core.settings.Setting;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** How a {@link Setting}'s type, default and bounds read in the generated documents (CFG-26). */
final class SettingText {
  private static final JsonMapper JSON = new JsonMapper();

  private SettingText() {}

  /** The default (or {@code example}) as a YAML flow value; null when there is none. */
  static String yaml(Object value) {
    if (value == null) {
      return null;
    }
    if (value instanceof Duration d) {
      return duration(d);
    }
    if (value instanceof Double d) {
      return d != Math.rint(d) ? Double.toString(d) : d == 0 ? "0" : Section.show(d) + ".0";
    }
    if (value instanceof Number || value instanceof Boolean) {
      return value.toString();
    }
    if (value instanceof List<?> l) {
      return l.isEmpty() ? "[]" : json(l);
    }
    if (value instanceof Map<?, ?> m) {
      return m.isEmpty() ? "{}" : json(m);
    }
    return json(value.toString());
  }

  /** A duration in the shorthand of CFG-5 ({@code 1h}, {@code 30s}, {@code 0s}). */
  static String duration(Duration d) {
    long ms = d.toMillis();
    if (ms == 0) {
      return "0s";
    }
    if (ms % 3_600_000 == 0) {
      return ms / 3_600_000 + "h";
    }
    if (ms % 60_000 == 0) {
      return ms / 60_000 + "m";
    }
    if (ms % 1000 == 0) {
      return ms / 1000 + "s";
    }
    return ms + "ms";
  }

  /** The reference's "Default" cell. */
  static String defaultCell(Setting s) {
    if (s.required()) {
      return "required";
    }
    if (s.defaultText() != null) {
      return s.defaultText();
    }
    if (s.type() == Setting.Type.ENUM && s.defaultValue() != null) {
      return "`" + s.defaultValue() + "`";
    }
    String v = yaml(s.defaultValue());
    return v == null ? "absent" : "`" + v + "`";
  }

  /** The reference's "Type" cell. */
  static String typeCell(Setting s) {
    return switch (s.type()) {
      case STRING -> "string";
      case BOOLEAN -> "bool";
      case INTEGER -> "int";
      case NUMBER -> "number";
      case DURATION -> "duration";
      case SECRET -> "secret (also `" + s.key() + "_file`)";
      case PATH -> "path";
      case ENUM -> String.join(" \\| ", s.choices().stream().map(c -> "`" + c + "`").toList());
      case STRING_LIST -> "list[string]";
      case STRING_MAP -> "map";
      case RATE_MAP -> "map glob→rate";
    };
  }

  /** The reference's "Allowed" cell: the bounds, or empty. */
  static String boundsCell(Setting s) {
    Double min = s.min();
    Double max = s.max();
    if (min != null && max != null) {
      return s.minExclusive()
          ? "(" + bound(s, min) + ", " + bound(s, max) + "]"
          : bound(s, min) + "…" + bound(s, max);
    }
    if (min != null) {
      return (s.minExclusive() ? "> " : "≥ ") + bound(s, min);
    }
    return max == null ? "" : "≤ " + bound(s, max);
  }

  private static String bound(Setting s, double v) {
    return s.type() == Setting.Type.DURATION
        ? duration(Duration.ofMillis(Math.round(v * 1000)))
        : Section.show(v);
  }

  private static String json(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
