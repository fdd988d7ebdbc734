package io.sf2loki.app.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import io.sf2loki.core.settings.Setting;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One configuration object being bound: reads typed values from a JSON tree node, records every
 * problem with its dotted path and returns a default instead of failing, so that loading reports
 * all problems at once (SPEC CFG-4). Package-private helper of {@link ConfigBinder}.
 */
final class Section {
  static final String UNKNOWN_KEY =
      "unknown configuration key (check for typos; see the configuration reference for valid keys)";
  private static final Pattern INTEGER = Pattern.compile("[-+]?\\d+");
  private static final Pattern DECIMAL =
      Pattern.compile("[-+]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][-+]?\\d+)?");

  /** Problem sink shared by all sections of one load. */
  static final class Problems {
    private final List<ConfigException.Problem> list = new ArrayList<>();

    void add(String path, String message) {
      list.add(new ConfigException.Problem(path, message));
    }

    boolean isEmpty() {
      return list.isEmpty();
    }

    int size() {
      return list.size();
    }

    List<ConfigException.Problem> list() {
      return list;
    }
  }

  private final JsonNode node;
  private final String path;
  private final Problems problems;

  Section(JsonNode node, String path, Problems problems, Set<String> known) {
    this.path = path;
    this.problems = problems;
    if (node == null || node.isMissingNode() || node.isNull() || isEmptyText(node)) {
      this.node = MissingNode.getInstance();
    } else if (!node.isObject()) {
      problems.add(path, "expected a mapping, got " + describe(node));
      this.node = MissingNode.getInstance();
    } else {
      this.node = node;
      Iterator<String> names = node.fieldNames();
      while (names.hasNext()) {
        String k = names.next();
        if (!known.contains(k)) {
          problems.add(join(path, k), UNKNOWN_KEY);
        }
      }
    }
  }

  /** An empty YAML value ({@code key:}) arrives as empty text; for mappings it means absent. */
  private static boolean isEmptyText(JsonNode n) {
    return n.isTextual() && n.textValue().isEmpty();
  }

  static String join(String path, String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  static String describe(JsonNode n) {
    if (n.isObject()) {
      return "a mapping";
    }
    if (n.isArray()) {
      return "a list";
    }
    if (n.isBoolean()) {
      return "a boolean";
    }
    if (n.isNumber()) {
      return "a number";
    }
    return "a string";
  }

  String path() {
    return path;
  }

  String path(String key) {
    return join(path, key);
  }

  Problems problems() {
    return problems;
  }

  void problem(String key, String message) {
    problems.add(key == null ? path : join(path, key), message);
  }

  /**
   * The raw child, or {@code null} when absent, YAML null or empty text (an empty YAML value and
   * {@code ""} both mean "not set": string keys fall back to their default).
   */
  JsonNode raw(String key) {
    JsonNode n = node.get(key);
    return n == null || n.isNull() || isEmptyText(n) ? null : n;
  }

  boolean has(String key) {
    return raw(key) != null;
  }

  Section section(String key, Set<String> known) {
    return new Section(raw(key), path(key), problems, known);
  }

  // ---- scalars ----

  String string(String key, String dflt) {
    JsonNode n = raw(key);
    if (n == null) {
      return dflt;
    }
    if (n.isContainerNode()) {
      problem(key, "expected a string, got " + describe(n));
      return dflt;
    }
    return scalarText(n);
  }

  /**
   * A required string: {@code null} after one problem — {@code required} when absent or empty, the
   * type error alone when the value is a list or mapping (one mistake, one message).
   */
  String requiredString(String key) {
    String v = string(key, null);
    if ((v == null || v.isEmpty()) && !has(key)) {
      problem(key, "required");
    } else if (v != null && !v.isEmpty() && v.isBlank()) {
      problem(key, "must not be blank");
    }
    return v == null || v.isBlank() ? null : v;
  }

  Optional<String> optString(String key) {
    return Optional.ofNullable(string(key, null));
  }

  /** Text of a scalar node; decimals keep their written scale ({@code 60.10}). */
  static String scalarText(JsonNode n) {
    if (n.isBigDecimal()) {
      return n.decimalValue().toPlainString();
    }
    return n.asText();
  }

  boolean bool(String key, boolean dflt) {
    JsonNode n = raw(key);
    if (n == null) {
      return dflt;
    }
    if (n.isBoolean()) {
      return n.booleanValue();
    }
    if (n.isIntegralNumber() && (n.asLong() == 0 || n.asLong() == 1)) {
      return n.asLong() == 1;
    }
    if (n.isTextual()) {
      switch (n.textValue().strip().toLowerCase(Locale.ROOT)) {
        case "true", "yes", "on", "1" -> {
          return true;
        }
        case "false", "no", "off", "0" -> {
          return false;
        }
        default -> {}
      }
    }
    problem(key, "expected a boolean (true/false, yes/no, on/off), got '" + shortText(n) + "'");
    return dflt;
  }

  long integer(String key, long dflt) {
    JsonNode n = raw(key);
    if (n == null) {
      return dflt;
    }
    try {
      if (n.isIntegralNumber()) {
        return n.bigIntegerValue().longValueExact();
      }
      if (n.isNumber() && !n.isFloat() && !n.isDouble()) {
        return n.decimalValue().longValueExact();
      }
      if (n.isNumber()) {
        return new BigDecimal(n.asText()).longValueExact();
      }
      if (n.isTextual() && INTEGER.matcher(n.textValue().strip()).matches()) {
        return Long.parseLong(n.textValue().strip());
      }
    } catch (ArithmeticException | NumberFormatException e) {
      // reported below
    }
    problem(key, "expected an integer, got '" + shortText(n) + "'");
    return dflt;
  }

  int intValue(String key, int dflt) {
    long v = integer(key, dflt);
    if (v > Integer.MAX_VALUE || v < Integer.MIN_VALUE) {
      problem(key, "value " + v + " is out of range");
      return dflt;
    }
    return (int) v;
  }

  double number(String key, double dflt) {
    JsonNode n = raw(key);
    if (n == null) {
      return dflt;
    }
    Double d = toDouble(n);
    if (d == null) {
      problem(key, "expected a number, got '" + shortText(n) + "'");
      return dflt;
    }
    return d;
  }

  static Double toDouble(JsonNode n) {
    if (n.isNumber()) {
      return n.doubleValue();
    }
    if (n.isTextual() && DECIMAL.matcher(n.textValue().strip()).matches()) {
      return Double.parseDouble(n.textValue().strip());
    }
    return null;
  }

  /** A duration (CFG-5); negative values are rejected (CFG-6). */
  Duration duration(String key, Duration dflt) {
    JsonNode n = raw(key);
    if (n == null) {
      return dflt;
    }
    try {
      if (n.isNumber()) {
        return Durations.ofSeconds(new BigDecimal(scalarText(n)));
      }
      if (n.isTextual()) {
        return Durations.parse(n.textValue());
      }
      problem(key, "expected a duration, got " + describe(n));
    } catch (IllegalArgumentException e) {
      problem(key, e.getMessage());
    }
    return dflt;
  }

  /** A duration that must be strictly positive (CFG-6). */
  Duration positiveDuration(String key, Duration dflt) {
    Duration d = duration(key, dflt);
    if (has(key) && d.isZero() && dflt != null) {
      problem(key, "must be greater than zero");
      return dflt;
    }
    return d;
  }

  <E extends Enum<E> & YamlEnum> E enumValue(String key, E[] values, E dflt, boolean ignoreCase) {
    String s = string(key, null);
    if (s == null) {
      return dflt;
    }
    for (E e : values) {
      if (ignoreCase ? e.yaml().equalsIgnoreCase(s.strip()) : e.yaml().equals(s)) {
        return e;
      }
    }
    List<String> allowed = new ArrayList<>();
    for (E e : values) {
      allowed.add(e.yaml());
    }
    problem(key, "must be one of " + String.join(", ", allowed) + " (got '" + s + "')");
    return dflt;
  }

  // ---- containers ----

  /** List items of {@code key}; absent = empty; a non-list is a problem. */
  List<JsonNode> list(String key) {
    JsonNode n = raw(key);
    if (n == null || isEmptyText(n)) {
      return List.of();
    }
    if (!n.isArray()) {
      problem(key, "expected a list, got " + describe(n));
      return List.of();
    }
    List<JsonNode> out = new ArrayList<>();
    n.forEach(out::add);
    return out;
  }

  List<String> stringList(String key, List<String> dflt) {
    if (!has(key)) {
      return dflt;
    }
    List<String> out = new ArrayList<>();
    List<JsonNode> items = list(key);
    for (int i = 0; i < items.size(); i++) {
      JsonNode item = items.get(i);
      if (item.isNull() || item.isContainerNode()) {
        problems.add(path(key) + "." + i, "expected a string");
      } else {
        out.add(scalarText(item));
      }
    }
    return List.copyOf(out);
  }

  /** An ordered string map; absent = empty. */
  Map<String, String> stringMap(String key) {
    Map<String, String> out = new LinkedHashMap<>();
    JsonNode n = raw(key);
    if (n == null) {
      return out;
    }
    if (!n.isObject()) {
      problem(key, "expected a mapping, got " + describe(n));
      return out;
    }
    Iterator<Map.Entry<String, JsonNode>> it = n.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode v = e.getValue();
      if (v.isContainerNode()) {
        problems.add(path(key) + "." + e.getKey(), "expected a string");
      } else {
        out.put(e.getKey(), v.isNull() ? "" : scalarText(v));
      }
    }
    return out;
  }

  /** The raw mapping node of {@code key} (for maps with non-string values), or null. */
  JsonNode mapping(String key) {
    JsonNode n = raw(key);
    if (n != null && !n.isObject()) {
      problem(key, "expected a mapping, got " + describe(n));
      return null;
    }
    return n;
  }

  private static String shortText(JsonNode n) {
    String s = n.isContainerNode() ? describe(n) : n.asText();
    return s.length() > 60 ? s.substring(0, 60) + "…" : s;
  }

  /**
   * Builds a component's settings record from values bound here. A rejection by its constructor
   * ({@link IllegalArgumentException}, {@link NullPointerException}) becomes a problem at this
   * section unless one was already reported, so loading goes on and reports everything at once
   * (CFG-4).
   *
   * @return the record, or null when it was rejected (the load then fails with the problems)
   */
  <T> T build(java.util.function.Supplier<T> make) {
    try {
      return make.get();
    } catch (IllegalArgumentException | NullPointerException e) {
      if (problems.isEmpty()) {
        problem(null, String.valueOf(e.getMessage()));
      }
      return null;
    }
  }

  // ---- bound by a definition (the key, default and bounds come from the Setting) ----

  String string(Setting d) {
    return string(d.key(), d.stringDefault());
  }

  boolean bool(Setting d) {
    return bool(d.key(), d.boolDefault());
  }

  /** The integer of {@code d}, with its bounds checked (CFG-20). */
  long integer(Setting d) {
    long v = integer(d.key(), d.longDefault());
    checkBounds(d, v);
    return v;
  }

  /** The int of {@code d}, with its bounds checked (CFG-20). */
  int intValue(Setting d) {
    int v = intValue(d.key(), (int) d.longDefault());
    checkBounds(d, v);
    return v;
  }

  /** The number of {@code d}; bounds are checked by the caller ({@link #checkBounds}). */
  double number(Setting d) {
    return number(d.key(), d.doubleDefault());
  }

  /** The duration of {@code d}; "greater than zero" when the definition says so (CFG-6). */
  Duration duration(Setting d) {
    Duration v =
        d.positive()
            ? positiveDuration(d.key(), d.durationDefault())
            : duration(d.key(), d.durationDefault());
    Double min = d.min();
    if (min != null && min > 0 && has(d.key())) {
      Duration least = Duration.ofMillis(Math.round(min * 1000));
      if (v.compareTo(least) < 0) {
        problem(
            d.key(),
            "must be at least "
                + SettingText.duration(least)
                + " (got "
                + SettingText.duration(v)
                + ")");
        return d.durationDefault();
      }
    }
    return v;
  }

  List<String> stringList(Setting d) {
    return stringList(d.key(), d.listDefault());
  }

  /** The enum constant of {@code d}; its default is the constant whose YAML is the default. */
  <E extends Enum<E> & YamlEnum> E enumValue(Setting d, E[] values, boolean ignoreCase) {
    E dflt = null;
    for (E e : values) {
      if (e.yaml().equals(d.stringDefault())) {
        dflt = e;
      }
    }
    return enumValue(d.key(), values, dflt, ignoreCase);
  }

  /**
   * The constant of a component's enum for the {@link Setting.Type#ENUM} definition {@code d}: the
   * YAML value must equal one of {@code d.choices()} exactly (CFG-20 wording otherwise, default
   * kept), and the choice maps to the constant whose name equals it ignoring case (e.g. {@code
   * jwt_bearer} → {@code JWT_BEARER}, {@code Hourly} → {@code Hourly}).
   *
   * @throws IllegalStateException when a choice names no constant of {@code type} (a definition
   *     bug, caught by the tests that load the defaults)
   */
  <E extends Enum<E>> E choice(Setting d, Class<E> type) {
    String chosen = choiceText(d);
    return chosen == null ? null : constant(type, chosen);
  }

  /**
   * The YAML spelling of the {@link Setting.Type#ENUM} definition {@code d}: one of {@code
   * d.choices()} exactly, else the default (the CFG-20 problem reported).
   */
  String choiceText(Setting d) {
    String dflt = d.stringDefault();
    String s = string(d.key(), null);
    String chosen = dflt;
    if (s != null) {
      if (d.choices().contains(s)) {
        chosen = s;
      } else {
        problem(d.key(), "must be one of " + String.join(", ", d.choices()) + " (got '" + s + "')");
      }
    }
    return chosen;
  }

  static <E extends Enum<E>> E constant(Class<E> type, String yaml) {
    for (E e : type.getEnumConstants()) {
      if (e.name().equalsIgnoreCase(yaml)) {
        return e;
      }
    }
    throw new IllegalStateException(type.getSimpleName() + " has no constant for '" + yaml + "'");
  }

  /** Reports {@code v} outside the bounds of {@code d} with the CFG-20 wording. */
  void checkBounds(Setting d, double v) {
    Double min = d.min();
    Double max = d.max();
    boolean below = min != null && (d.minExclusive() ? v <= min : v < min);
    boolean above = max != null && v > max;
    if (!below && !above) {
      return;
    }
    if (min != null && max != null) {
      problem(
          d.key(), "must be between " + show(min) + " and " + show(max) + " (got " + show(v) + ")");
    } else if (below && d.minExclusive() && min == 0) {
      problem(d.key(), "must be greater than zero");
    } else if (below) {
      problem(
          d.key(), (d.minExclusive() ? "must be greater than " : "must be at least ") + show(min));
    } else {
      problem(d.key(), "must be at most " + show(max));
    }
  }

  static String show(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? Long.toString((long) v) : Double.toString(v);
  }
}
