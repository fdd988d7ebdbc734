package io.sf2loki.app.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sf2loki.core.settings.Setting;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The secret part of {@link HelmValues} (SPEC CLI-6, DEP-4): rewrites every secret of a
 * configuration tree to a file under the chart's Secret mount ({@value #MOUNT}) and lists the
 * Secret keys to create. Secrets are the model's {@link Setting.Type#SECRET} settings (inline value
 * or {@code <key>_file}) and the credential files {@code service_file} (GCS). An inline value that
 * is an environment reference ({@code ${NAME}}) stays as it is; any other inline value is removed
 * from the configuration and never printed.
 */
final class HelmSecrets {
  /** Where the chart mounts its Secret (DEP-4). */
  static final String MOUNT = "/etc/sf2loki/secrets";

  private static final Set<String> CREDENTIAL_FILES = Set.of("service_file");

  /** {@code scheme://user:password@host…}: a URL whose user-info carries a password. */
  private static final Pattern URL_PASSWORD =
      Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*://[^/@]*:[^/@]*@");

  /** Header names whose values are credentials (OTLP {@code headers}, SINK {@code headers}). */
  private static final Pattern CREDENTIAL_HEADER =
      Pattern.compile("(?i).*(authorization|api[-_]?key|token|secret|password|cookie).*");

  private final List<String> secretKeys = secretSettings();
  private final Map<String, HelmValues.SecretKey> byKey = new LinkedHashMap<>();
  private final Map<String, String> keyBySourceFile = new LinkedHashMap<>();
  private final List<String> envReferences = new ArrayList<>();

  /** Rewrites {@code root} in place. */
  void rewrite(ObjectNode root) {
    object(root, "", null);
  }

  /** The Secret keys to create, in configuration order. */
  List<HelmValues.SecretKey> keys() {
    return List.copyOf(byKey.values());
  }

  /** Dotted paths of secrets left as {@code ${NAME}} references. */
  List<String> envReferences() {
    return List.copyOf(envReferences);
  }

  private void object(ObjectNode o, String path, String org) {
    for (String k : secretKeys) {
      secret(o, path, org, k);
    }
    for (String k : CREDENTIAL_FILES) {
      JsonNode v = o.get(k);
      if (v != null && v.isTextual() && !v.asText().isEmpty()) {
        o.put(k, MOUNT + "/" + fromFile(join(path, k), org, v.asText()));
      }
    }
    for (Map.Entry<String, JsonNode> e : o.properties()) {
      String p = join(path, e.getKey());
      refuseUnmovable(p, e.getKey(), e.getValue(), path.endsWith("headers"));
      if (e.getValue() instanceof ObjectNode child) {
        object(child, p, org);
      } else if (e.getValue() instanceof ArrayNode items) {
        for (int i = 0; i < items.size(); i++) {
          if (items.get(i) instanceof ObjectNode item) {
            String itemOrg = path.isEmpty() && e.getKey().equals("orgs") ? orgName(item, i) : org;
            object(item, p + "." + i, itemOrg); // CFG-4: list indices as numbers
          }
        }
      }
    }
  }

  private void secret(ObjectNode o, String path, String org, String k) {
    JsonNode file = o.get(k + "_file");
    JsonNode inline = o.get(k);
    if (file != null && file.isTextual() && !file.asText().isEmpty()) {
      o.put(k + "_file", MOUNT + "/" + fromFile(join(path, k + "_file"), org, file.asText()));
      return;
    }
    if (inline == null || !inline.isValueNode() || inline.asText().isEmpty()) {
      return;
    }
    if (inline.asText().contains("${")) {
      envReferences.add(join(path, k));
      return;
    }
    String key = unique(name(path, org, k));
    byKey.put(key, new HelmValues.SecretKey(key, join(path, k), null));
    o.remove(k);
    o.put(k + "_file", MOUNT + "/" + key);
  }

  /**
   * CLI-19: a credential that is not a secret setting (a URL's user-info password, a credential
   * header value) cannot be moved to the Secret, and printing it would put it in a ConfigMap.
   *
   * @throws ConfigException naming the dotted path, never the value
   */
  private static void refuseUnmovable(String path, String key, JsonNode v, boolean inHeaders) {
    if (v == null || !v.isTextual() || v.asText().contains("${")) {
      return;
    }
    if (URL_PASSWORD.matcher(v.asText()).find()) {
      throw new ConfigException(
          path
              + ": the URL carries a password in its user-info, which helm-values would print into"
              + " the ConfigMap; move the credentials to a secret setting (e.g."
              + " sink.loki.auth_token_file) or a ${NAME} reference");
    }
    if (inHeaders && CREDENTIAL_HEADER.matcher(key).matches()) {
      throw new ConfigException(
          path
              + ": a credential header value would be printed into the ConfigMap; use a ${NAME}"
              + " reference and give the pod that variable from a Secret");
    }
  }

  /** The Secret key for a file-backed secret; one key per distinct source file. */
  private String fromFile(String configPath, String org, String sourceFile) {
    String known = keyBySourceFile.get(sourceFile);
    if (known != null) {
      return known;
    }
    String leaf = configPath.substring(configPath.lastIndexOf('.') + 1);
    String stripped = leaf.replaceAll("_file$", "");
    String base = secretKeys.contains(stripped) ? stripped : leaf;
    String parent =
        configPath.contains(".") ? configPath.substring(0, configPath.lastIndexOf('.')) : "";
    String key = unique(name(parent, org, base));
    byKey.put(key, new HelmValues.SecretKey(key, configPath, sourceFile));
    keyBySourceFile.put(sourceFile, key);
    return key;
  }

  /**
   * {@code private_key} for {@code salesforce.private_key}, {@code <org>_private_key} inside an
   * org, else the dotted path joined with {@code _} ({@code sink_loki_auth_token}).
   */
  private static String name(String parentPath, String org, String key) {
    String p = parentPath.replaceAll("^orgs\\.\\d+\\.?", "").replaceAll("^salesforce\\.?", "");
    String prefix = org == null ? "" : org + "_";
    String joined =
        p.isEmpty() ? key : p.replaceAll("\\.\\d+(?=\\.|$)", "").replace('.', '_') + "_" + key;
    return (prefix + joined).replaceAll("[^-._a-zA-Z0-9]", "_");
  }

  private String unique(String key) {
    String k = key;
    for (int n = 2; byKey.containsKey(k); n++) {
      k = key + "_" + n;
    }
    return k;
  }

  private static String orgName(ObjectNode item, int index) {
    JsonNode n = item.get("name");
    return n != null && n.isTextual() && !n.asText().isEmpty() ? n.asText() : "org" + index;
  }

  private static String join(String path, String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  /** The keys of every SECRET setting of the model, at any depth. */
  private static List<String> secretSettings() {
    Set<String> out = new TreeSet<>();
    collect(ConfigModel.ROOT, out);
    return List.copyOf(out);
  }

  private static void collect(Group g, Set<String> out) {
    for (Setting s : g.settings()) {
      if (s.type() == Setting.Type.SECRET) {
        out.add(s.key());
      }
    }
    for (Group c : g.children()) {
      collect(c, out);
    }
  }
}
