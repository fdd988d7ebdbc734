package io.sf2loki.app.config;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Loads the configuration (SPEC CFG-1…CFG-3): the YAML file (optional) is read with Jackson's YAML
 * parser into a tree (no object construction, no custom tags; an empty file is an empty mapping),
 * every string scalar is {@code ${VAR}}-interpolated, {@code SF2LOKI_*} environment variables are
 * deep-merged over it, and the result is bound and validated by {@link ConfigBinder}
 * (CFG-4…CFG-24).
 *
 * <p>Environment overrides: {@code SF2LOKI_SINK__LOKI__URL} sets {@code sink.loki.url}; names match
 * case-insensitively; a value starting with {@code [} or <code>{</code> is parsed as JSON (lists
 * and maps); values are not interpolated. A variable whose first segment is not a root key ({@code
 * salesforce}, {@code orgs}, {@code sources}, {@code sink}, {@code state}, {@code coordinate},
 * {@code service}) is ignored, so unrelated {@code SF2LOKI_*} variables do not break loading;
 * unknown nested keys are rejected like YAML ones.
 */
public final class ConfigLoader {
  /** Environment variable prefix of CFG-1. */
  public static final String ENV_PREFIX = "SF2LOKI_";

  private static final Pattern INTERPOLATION =
      Pattern.compile("\\$\\$\\{|\\$\\{([A-Za-z_][A-Za-z0-9_]*)\\}");
  private static final java.util.Set<String> CORE_TAGS =
      java.util.Set.of(
          "tag:yaml.org,2002:str",
          "tag:yaml.org,2002:int",
          "tag:yaml.org,2002:float",
          "tag:yaml.org,2002:bool",
          "tag:yaml.org,2002:null",
          "tag:yaml.org,2002:map",
          "tag:yaml.org,2002:seq",
          "!");
  private static final JsonMapper JSON = new JsonMapper();

  /** Bound on the nodes of the built tree, against "billion laughs" alias expansion. */
  private static final long MAX_TREE_NODES = 200_000;

  private final SecretResolver secrets;

  /** A loader reading secret files from the file system. */
  public ConfigLoader() {
    this(SecretResolver.DEFAULT_READER);
  }

  ConfigLoader(SecretResolver.FileReader secretReader) {
    this.secrets = new SecretResolver(secretReader);
  }

  /**
   * Loads and validates a configuration (CFG-1…CFG-24; not CFG-28, see {@link #validateForDaemon}).
   *
   * @param yamlOrNull the {@code --config} file, or {@code null} for environment and defaults only
   * @param env the process environment (used for both {@code ${VAR}} and {@code SF2LOKI_*})
   * @return the validated configuration; {@link Sf2lokiConfig#warnings()} holds startup WARN notes
   * @throws ConfigException listing every problem, or naming the file-level failure
   */
  public Sf2lokiConfig load(Path yamlOrNull, Map<String, String> env) {
    ObjectNode tree =
        yamlOrNull == null ? JsonNodeFactory.instance.objectNode() : readYaml(yamlOrNull);
    return loadTree(tree, env);
  }

  /** {@link #load(Path, Map)} over an already parsed file; {@code tree} is changed in place. */
  Sf2lokiConfig loadTree(ObjectNode tree, Map<String, String> env) {
    interpolateObject(tree, env);
    mergeEnvironment(tree, env);
    OtelEnvironment.applyDefaults(
        tree, env); // OBS-29: OTEL_* fill what the configuration left unset
    return new ConfigBinder(secrets).bind(tree);
  }

  /** Convenience: {@link #load} with {@link System#getenv()}. */
  public static Sf2lokiConfig load(Path yamlOrNull) {
    return new ConfigLoader().load(yamlOrNull, System.getenv());
  }

  /**
   * The daemon-only whole-configuration rule CFG-28 ({@code run}, {@code --check}, {@code doctor}):
   * at least one source of some org can produce data.
   *
   * @throws ConfigException {@code no source enabled: <reason>}
   */
  public static void validateForDaemon(Sf2lokiConfig config) {
    SourceAvailability.check(config);
  }

  // ---- YAML ----

  /** The file as a YAML mapping (CFG-1); a named {@link ConfigException} otherwise. */
  static ObjectNode readYaml(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      throw new ConfigException("cannot read configuration file " + file + ": no such file", e);
    } catch (IOException e) {
      throw new ConfigException(
          "cannot read configuration file " + file + ": " + e.getMessage(), e);
    }
    JsonNode root;
    try {
      root = parseYaml(text);
    } catch (StreamReadException e) {
      throw new ConfigException(
          "cannot parse configuration file " + file + ": " + e.getOriginalMessage() + location(e),
          e);
    } catch (IOException e) {
      throw new ConfigException(
          "cannot parse configuration file " + file + ": " + e.getMessage(), e);
    }
    if (root == null || root.isNull()) {
      return JsonNodeFactory.instance.objectNode();
    }
    if (!root.isObject()) {
      throw new ConfigException(
          "configuration file "
              + file
              + " must contain a mapping at the top level, not "
              + Section.describe(root));
    }
    return (ObjectNode) root;
  }

  private static String location(StreamReadException e) {
    return e.getLocation() == null
        ? ""
        : " (line "
            + e.getLocation().getLineNr()
            + ", column "
            + e.getLocation().getColumnNr()
            + ")";
  }

  /**
   * Builds a tree from the YAML token stream. Scalars Jackson reports as numbers but cannot parse
   * (YAML 1.1 sexagesimal such as {@code 00:00:05.5}) stay text; decimals keep their scale; any tag
   * outside the YAML core schema is rejected; anchors, aliases and {@code <<} merge keys are
   * resolved as a 1.x (safe-load) parser does; a duplicate key is an error.
   */
  static JsonNode parseYaml(String text) throws IOException {
    YAMLFactory factory = YAMLFactory.builder().build();
    JsonNodeFactory nf = JsonNodeFactory.withExactBigDecimals(true);
    try (YAMLParser p = (YAMLParser) factory.createParser(text)) {
      Map<String, JsonNode> anchors = new java.util.HashMap<>();
      Map<String, Long> anchorSizes = new java.util.HashMap<>();
      long totalNodes = 0;
      Deque<Frame> stack = new ArrayDeque<>();
      JsonToken t = p.nextToken();
      while (t != null) {
        String tag = p.getTypeId() == null ? null : p.getTypeId().toString();
        if (tag != null && !CORE_TAGS.contains(tag)) {
          throw new JsonParseException(p, "custom YAML tag " + tag + " is not allowed");
        }
        JsonNode value = null;
        long valueSize = 1;
        String anchor = p.getCurrentAnchor();
        switch (t) {
          case START_OBJECT -> stack.push(new Frame(nf.objectNode(), anchor));
          case START_ARRAY -> stack.push(new Frame(nf.arrayNode(), anchor));
          case FIELD_NAME -> {
            Frame f = stack.peek();
            String name = p.currentName();
            if (((ObjectNode) f.node).has(name) && !f.merged.remove(name)) {
              throw new JsonParseException(p, "duplicate key '" + name + "'");
            }
            f.name = name;
          }
          case END_OBJECT, END_ARRAY -> {
            Frame f = stack.pop();
            value = f.node;
            valueSize = f.size;
            anchor = f.anchor;
          }
          default -> {
            if (p.isCurrentAlias()) {
              JsonNode target = anchors.get(p.getText());
              if (target == null) {
                throw new JsonParseException(p, "unknown YAML alias *" + p.getText());
              }
              valueSize = anchorSizes.get(p.getText());
              totalNodes += valueSize;
              if (totalNodes > MAX_TREE_NODES) {
                throw new JsonParseException(
                    p, "document expands to more than " + MAX_TREE_NODES + " nodes via aliases");
              }
              value = target.deepCopy();
              anchor = null;
            } else {
              value = scalar(p, nf, t);
            }
          }
        }
        if (value != null) {
          if (anchor != null) {
            anchors.put(anchor, value);
            anchorSizes.put(anchor, valueSize);
          }
          if (stack.isEmpty()) {
            return value;
          }
          Frame parent = stack.peek();
          parent.size += valueSize;
          if (parent.node instanceof ObjectNode o) {
            if ("<<".equals(parent.name)) {
              merge(p, parent, o, value);
            } else {
              o.set(parent.name, value);
            }
          } else {
            ((ArrayNode) parent.node).add(value);
          }
        }
        t = p.nextToken();
      }
      return null;
    }
  }

  /** One open mapping or sequence while building the tree. */
  private static final class Frame {
    final JsonNode node;
    final String anchor;
    final java.util.Set<String> merged = new java.util.HashSet<>();
    String name;
    long size = 1;

    Frame(JsonNode node, String anchor) {
      this.node = node;
      this.anchor = anchor;
    }
  }

  /** YAML merge key: copies keys not yet present; explicit keys (before or after) win. */
  private static void merge(JsonParser p, Frame frame, ObjectNode target, JsonNode source)
      throws JsonParseException {
    List<JsonNode> sources = new java.util.ArrayList<>();
    if (source.isObject()) {
      sources.add(source);
    } else if (source.isArray()) {
      source.forEach(sources::add);
    }
    for (JsonNode src : sources) {
      if (!src.isObject()) {
        throw new JsonParseException(p, "a << merge key needs a mapping or a list of mappings");
      }
      Iterator<Map.Entry<String, JsonNode>> it = src.fields();
      while (it.hasNext()) {
        Map.Entry<String, JsonNode> e = it.next();
        if (!target.has(e.getKey())) {
          target.set(e.getKey(), e.getValue().deepCopy());
          frame.merged.add(e.getKey());
        }
      }
    }
    if (sources.isEmpty()) {
      throw new JsonParseException(p, "a << merge key needs a mapping or a list of mappings");
    }
  }

  private static JsonNode scalar(JsonParser p, JsonNodeFactory nf, JsonToken t) throws IOException {
    return switch (t) {
      case VALUE_STRING -> nf.textNode(p.getText());
      case VALUE_TRUE -> nf.booleanNode(true);
      case VALUE_FALSE -> nf.booleanNode(false);
      case VALUE_NULL -> nf.nullNode();
      case VALUE_NUMBER_INT -> number(p, nf, true);
      case VALUE_NUMBER_FLOAT -> number(p, nf, false);
      default -> nf.textNode(p.getText());
    };
  }

  private static JsonNode number(JsonParser p, JsonNodeFactory nf, boolean integral)
      throws IOException {
    String raw = p.getText();
    try {
      if (integral) {
        return nf.numberNode(p.getBigIntegerValue());
      }
      if (raw.matches("[-+]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][-+]?\\d+)?")) {
        return nf.numberNode(new java.math.BigDecimal(raw));
      }
      return nf.numberNode(p.getDoubleValue());
    } catch (NumberFormatException | StreamReadException e) {
      return nf.textNode(raw);
    }
  }

  // ---- CFG-3 interpolation ----

  private static void interpolateObject(ObjectNode node, Map<String, String> env) {
    Iterator<Map.Entry<String, JsonNode>> it = node.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode v = e.getValue();
      if (v.isTextual()) {
        e.setValue(TextNode.valueOf(interpolate(v.textValue(), env)));
      } else {
        interpolateContainer(v, env);
      }
    }
  }

  private static void interpolateContainer(JsonNode v, Map<String, String> env) {
    if (v instanceof ObjectNode o) {
      interpolateObject(o, env);
    } else if (v instanceof ArrayNode a) {
      for (int i = 0; i < a.size(); i++) {
        JsonNode item = a.get(i);
        if (item.isTextual()) {
          a.set(i, TextNode.valueOf(interpolate(item.textValue(), env)));
        } else {
          interpolateContainer(item, env);
        }
      }
    }
  }

  /**
   * CFG-3: replaces {@code ${NAME}} by the variable's value; {@code $${} yields a literal {@code
   * ${}.
   *
   * @throws ConfigException {@code config references undefined environment variable ${NAME}}
   */
  static String interpolate(String s, Map<String, String> env) {
    if (!s.contains("${")) {
      return s;
    }
    Matcher m = INTERPOLATION.matcher(s);
    StringBuilder sb = new StringBuilder();
    while (m.find()) {
      String replacement;
      if (m.group(1) == null) {
        replacement = "${";
      } else {
        replacement = env.get(m.group(1));
        if (replacement == null) {
          throw new ConfigException(
              "config references undefined environment variable ${" + m.group(1) + "}");
        }
      }
      m.appendReplacement(sb, Matcher.quoteReplacement(replacement));
    }
    m.appendTail(sb);
    return sb.toString();
  }

  // ---- CFG-1 environment overrides ----

  private static void mergeEnvironment(ObjectNode tree, Map<String, String> env) {
    // sorted for a deterministic merge order when two spellings collide
    Map<String, String> sorted = new TreeMap<>(env);
    for (Map.Entry<String, String> e : sorted.entrySet()) {
      String name = e.getKey();
      if (name.length() <= ENV_PREFIX.length()
          || !name.regionMatches(true, 0, ENV_PREFIX, 0, ENV_PREFIX.length())) {
        continue;
      }
      List<String> segments =
          List.of(name.substring(ENV_PREFIX.length()).toLowerCase(Locale.ROOT).split("__", -1));
      if (segments.stream().anyMatch(String::isEmpty)
          || !ConfigBinder.ROOT_KEYS.contains(segments.get(0))) {
        continue;
      }
      JsonNode value = envValue(name, e.getValue());
      ObjectNode override = JsonNodeFactory.instance.objectNode();
      ObjectNode cur = override;
      for (int i = 0; i < segments.size() - 1; i++) {
        cur = cur.putObject(segments.get(i));
      }
      cur.set(segments.get(segments.size() - 1), value);
      deepMerge(tree, override);
    }
  }

  private static JsonNode envValue(String name, String raw) {
    String v = raw.strip();
    if (v.startsWith("[") || v.startsWith("{")) {
      try {
        return JSON.readTree(v);
      } catch (IOException e) {
        throw new ConfigException(
            "environment variable " + name + " must hold valid JSON for a list or mapping value");
      }
    }
    return TextNode.valueOf(raw);
  }

  /** Merges {@code over} into {@code base}: mappings recursively, anything else replaces. */
  static void deepMerge(ObjectNode base, ObjectNode over) {
    Iterator<Map.Entry<String, JsonNode>> it = over.fields();
    while (it.hasNext()) {
      Map.Entry<String, JsonNode> e = it.next();
      JsonNode existing = base.get(e.getKey());
      if (existing instanceof ObjectNode eo && e.getValue() instanceof ObjectNode vo) {
        deepMerge(eo, vo);
      } else {
        base.set(e.getKey(), e.getValue().deepCopy());
      }
    }
  }
}
