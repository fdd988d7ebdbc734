package io.sf2loki.app.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code sf2loki config helm-values} (SPEC CLI-6, CFG-26, DEP-4, DEP-5): without a configuration,
 * the chart's generated {@code config:} region of {@code deploy/helm/sf2loki/values.yaml}; with
 * one, Helm values that deploy it with the chart:
 *
 * <ul>
 *   <li>{@code config:} holds the configuration; every key of the chart's default {@code config:}
 *       the file lacks is set to {@code null}, so Helm's merge with the chart defaults yields
 *       exactly the file (CLI-18);
 *   <li>secrets are never inlined: {@link HelmSecrets} points each at the chart's Secret mount and
 *       the header comments list the Secret keys to create and how (CLI-18);
 *   <li>the pod listens on the chart's container port: {@code service.health_addr} becomes {@code
 *       :8080} and its port the Service port; a file store or file lease outside the state volume
 *       moves into {@code /var/lib/sf2loki};
 *   <li>{@code coordinate.type: k8s_lease} with an object store gives the HA pair ({@code
 *       replicaCount: 2}, {@code ha.enabled}, no volume; in-cluster lease credentials); {@code
 *       k8s_lease} with the file store is refused (DEP-5, CLI-19).
 * </ul>
 */
public final class HelmValues {
  /** The chart's container port ({@code health}, DEP-6). */
  static final int CONTAINER_PORT = 8080;

  /** The chart's state volume (DEP-6). */
  static final String STATE_DIR = "/var/lib/sf2loki";

  private static final String REGION = "helm-config-region.yaml";
  private static final Pattern ENV_REF = Pattern.compile("\\$\\{([A-Za-z_][A-Za-z0-9_]*)\\}");
  private static final YAMLMapper YAML =
      YAMLMapper.builder()
          .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
          .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
          .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR)
          .build();

  /**
   * The values and what the operator must still do.
   *
   * @param yaml the Helm values document (header comments + YAML)
   * @param notes the header's notes, one per line, also meant for stderr
   * @param secrets the Secret keys to create
   */
  public record Result(String yaml, List<String> notes, List<SecretKey> secrets) {}

  /**
   * One Secret key to create.
   *
   * @param key the Secret key (file name under {@code /etc/sf2loki/secrets})
   * @param configPath the dotted configuration key it replaces
   * @param sourceFile the file the configuration read it from, or null for an inline value
   */
  public record SecretKey(String key, String configPath, String sourceFile) {}

  private HelmValues() {}

  /** The chart's generated {@code config:} region, markers included (CFG-26, CFG-27). */
  public static String region() {
    try (InputStream in = HelmValues.class.getResourceAsStream(REGION)) {
      return new String(Objects.requireNonNull(in, REGION).readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Reads, checks and maps a configuration file.
   *
   * @throws ConfigException when the file cannot be read or parsed, fails validation, or cannot run
   *     on the chart (CLI-19)
   */
  public static Result render(Path config) {
    ObjectNode tree = ConfigLoader.readYaml(config);
    List<String> notes = new ArrayList<>();
    check(tree, notes);
    return map(tree, notes);
  }

  /** Validates like {@code --check} but without reading secret files (they are not here). */
  private static void check(ObjectNode tree, List<String> notes) {
    try {
      new ConfigLoader(p -> "placeholder").loadTree(tree.deepCopy(), System.getenv());
    } catch (ConfigException e) {
      if (!String.valueOf(e.getMessage()).contains("undefined environment variable")) {
        throw e;
      }
      notes.add("not validated here: " + e.getMessage() + " (validated at start-up in the pod)");
    }
  }

  /** The mapping of {@link #render} over a parsed configuration (pure). */
  static Result map(ObjectNode source, List<String> notesSoFar) {
    ObjectNode cfg = source.deepCopy();
    List<String> notes = new ArrayList<>(notesSoFar);
    ObjectNode values = JsonNodeFactory.instance.objectNode();
    HelmSecrets secrets = new HelmSecrets();
    secrets.rewrite(cfg);
    for (String p : secrets.envReferences()) {
      notes.add(
          p
              + " stays an environment reference: give the pod that variable from a Secret"
              + " (extraEnv valueFrom.secretKeyRef or extraEnvFrom)");
    }
    topology(cfg, values, notes);
    healthPort(cfg, values, notes);
    envReferences(cfg, notes);
    nullAbsent(defaultConfig(), cfg);
    values.set("config", cfg);
    return new Result(document(values, notes, secrets.keys()), notes, secrets.keys());
  }

  /** Replicas, HA and the state volume from {@code state.store} and {@code coordinate.type}. */
  private static void topology(ObjectNode cfg, ObjectNode values, List<String> notes) {
    String store = text(cfg, "state", "store", "file");
    String coord = text(cfg, "coordinate", "type", "noop");
    boolean objectStore = store.equals("s3") || store.equals("gcs");
    if (coord.equals("k8s_lease") && !objectStore) {
      throw new ConfigException(
          "coordinate.type k8s_lease needs state.store s3 or gcs on the chart: with the file store"
              + " each replica keeps its own checkpoints (DEP-5, CLI-19)");
    }
    if (coord.equals("k8s_lease")) {
      values.put("replicaCount", 2);
      values.putObject("ha").put("enabled", true);
      ObjectNode lease = (ObjectNode) cfg.withObjectProperty("coordinate").get("k8s_lease");
      if (lease != null
          && (lease.remove("kubeconfig") != null | lease.remove("namespace") != null)) {
        notes.add(
            "coordinate.k8s_lease: kubeconfig and namespace removed: the pods use their"
                + " ServiceAccount and the lease lives in the release namespace (the chart's Role)");
      }
    } else {
      values.put("replicaCount", 1);
      if (coord.equals("s3_lease") || coord.equals("gcs_lease")) {
        notes.add("one replica: the chart's HA pair needs coordinate.type k8s_lease (DEP-5)");
      }
    }
    if (objectStore && !coord.equals("file_lease")) {
      values.putObject("persistence").put("enabled", false);
    }
    if (store.equals("s3")) {
      notes.add(
          "S3 credentials come from the AWS default provider chain: e.g. annotate the"
              + " ServiceAccount (serviceAccount.annotations) for IRSA, or use env/extraEnv");
    }
    if (store.equals("file")) {
      intoStateDir(cfg, "state", "file", notes);
    }
    if (coord.equals("file_lease")) {
      intoStateDir(cfg, "coordinate", "file_lease", notes);
    }
  }

  private static void intoStateDir(
      ObjectNode cfg, String section, String child, List<String> notes) {
    JsonNode p = cfg.path(section).path(child).path("path");
    if (!p.isTextual() || p.asText().startsWith(STATE_DIR + "/")) {
      return;
    }
    String moved = STATE_DIR + "/" + Path.of(p.asText()).getFileName();
    ((ObjectNode) cfg.get(section).get(child)).put("path", moved);
    notes.add(
        section
            + "."
            + child
            + ".path "
            + p.asText()
            + " -> "
            + moved
            + " (the chart's state volume)");
  }

  /** The pod listens on {@value #CONTAINER_PORT}; the configured port becomes the Service's. */
  private static void healthPort(ObjectNode cfg, ObjectNode values, List<String> notes) {
    String addr = text(cfg, "service", "health_addr", ":" + CONTAINER_PORT);
    int colon = addr.lastIndexOf(':');
    String host = colon < 0 ? "" : addr.substring(0, colon);
    int port = CONTAINER_PORT;
    try {
      port = Integer.parseInt(addr.substring(colon + 1).trim());
    } catch (NumberFormatException e) {
      notes.add("service.health_addr " + addr + " has no port; the Service uses " + CONTAINER_PORT);
    }
    boolean allInterfaces = host.isEmpty() || host.equals("0.0.0.0") || host.equals("[::]");
    if (!allInterfaces || port != CONTAINER_PORT) {
      cfg.withObjectProperty("service").put("health_addr", ":" + CONTAINER_PORT);
      notes.add(
          "service.health_addr "
              + addr
              + " -> :"
              + CONTAINER_PORT
              + " (the chart's container port, reachable by the kubelet's probes)");
    }
    if (port > 0 && port != CONTAINER_PORT) {
      values.putObject("service").put("port", port);
    }
  }

  private static void envReferences(JsonNode cfg, List<String> notes) {
    java.util.Set<String> names = new java.util.TreeSet<>();
    collectRefs(cfg, names);
    if (!names.isEmpty()) {
      notes.add(
          "the configuration reads the environment variables "
              + String.join(", ", names)
              + ": set them with env (plain values) or extraEnv/extraEnvFrom (from a Secret)");
    }
  }

  private static void collectRefs(JsonNode n, java.util.Set<String> out) {
    if (n.isTextual()) {
      Matcher m = ENV_REF.matcher(n.asText());
      while (m.find()) {
        out.add(m.group(1));
      }
    }
    for (JsonNode c : n) {
      collectRefs(c, out);
    }
  }

  /** Sets to null every key of {@code defaults} that {@code cfg} lacks, recursively. */
  static void nullAbsent(ObjectNode defaults, ObjectNode cfg) {
    for (Map.Entry<String, JsonNode> e : defaults.properties()) {
      JsonNode mine = cfg.get(e.getKey());
      if (mine == null) {
        cfg.putNull(e.getKey());
      } else if (mine instanceof ObjectNode m && e.getValue() instanceof ObjectNode d) {
        nullAbsent(d, m);
      }
    }
  }

  /** The chart's default {@code config:} map (the region, parsed). */
  static ObjectNode defaultConfig() {
    try {
      return (ObjectNode) YAML.readTree(region()).get("config");
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("the bundled Helm region does not parse", e);
    }
  }

  private static String document(ObjectNode values, List<String> notes, List<SecretKey> keys) {
    StringBuilder out = new StringBuilder();
    out.append(
        "# Helm values for deploy/helm/sf2loki, generated by `sf2loki config helm-values`"
            + " (CLI-6).\n");
    out.append("# A null under config: removes that key of the chart's default configuration.\n");
    if (!keys.isEmpty()) {
      out.append("#\n# Secret keys to create (mounted at ")
          .append(HelmSecrets.MOUNT)
          .append(
              "/<key>); either let the chart create them:\n#   helm install sf2loki "
                  + "deploy/helm/sf2loki -f values.yaml");
      for (SecretKey k : keys) {
        out.append(" \\\n#     --set-file secrets.")
            .append(k.key())
            .append('=')
            .append(
                k.sourceFile() == null ? "<file holding " + k.configPath() + ">" : k.sourceFile());
      }
      out.append("\n# or create a Secret yourself and set existingSecret: <its name>:\n")
          .append("#   kubectl create secret generic sf2loki-secrets");
      for (SecretKey k : keys) {
        out.append(" \\\n#     --from-file=")
            .append(k.key())
            .append('=')
            .append(
                k.sourceFile() == null ? "<file holding " + k.configPath() + ">" : k.sourceFile());
      }
      out.append('\n');
    }
    if (!notes.isEmpty()) {
      out.append("#\n# Notes:\n");
      for (String n : notes) {
        out.append("# - ").append(n).append('\n');
      }
    }
    try {
      return out.append(YAML.writeValueAsString(values)).toString();
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String text(ObjectNode cfg, String section, String key, String dflt) {
    JsonNode v = cfg.path(section).path(key);
    return v.isValueNode() && !v.asText().isBlank() ? v.asText().trim() : dflt;
  }
}
