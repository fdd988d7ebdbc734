package io.sf2loki.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.marcnuri.helm.Helm;
import com.marcnuri.helm.InstallCommand;
import com.marcnuri.helm.LintResult;
import com.marcnuri.helm.TemplateCommand;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The chart {@code deploy/helm/sf2loki} run through the real Helm engine (helm-java's bundled
 * native Helm library): {@code lint} and {@code template}, the rendered stream parsed into fabric8
 * model objects (custom resources such as PodMonitor become {@code GenericKubernetesResource}).
 */
final class HelmChart {
  static final String RELEASE = "sf2loki";
  static final String NAMESPACE = "observability";

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final KubernetesSerialization K8S = new KubernetesSerialization();

  private HelmChart() {}

  static Path dir() {
    return Repo.root().resolve("deploy/helm/sf2loki");
  }

  /** A value set of the chart's {@code ci/} folder, or null for the defaults. */
  static Path valueSet(String name) {
    return name == null ? null : dir().resolve("ci").resolve(name);
  }

  /**
   * {@code helm template} with an optional values file and {@code --set} pairs; throws on failure.
   */
  static String template(Path values, Map<String, Object> sets) {
    TemplateCommand t = new Helm(dir()).template().withName(RELEASE).withNamespace(NAMESPACE);
    if (values != null) {
      t = t.withValuesFile(values);
    }
    for (Map.Entry<String, Object> e : sets.entrySet()) {
      t = t.set(e.getKey(), e.getValue());
    }
    return t.call();
  }

  /**
   * The release notes (NOTES.txt) of a client-only dry-run install: {@code helm template} does not
   * render them.
   */
  static String notes(String valueSet, Map<String, Object> sets) {
    InstallCommand i =
        new Helm(dir()).install().withName(RELEASE).withNamespace(NAMESPACE).dryRun().clientOnly();
    if (valueSet != null) {
      i = i.withValuesFile(valueSet(valueSet));
    }
    for (Map.Entry<String, Object> e : sets.entrySet()) {
      i = i.set(e.getKey(), e.getValue());
    }
    return i.call().getOutput();
  }

  /** The rendered manifests of a value set, parsed. */
  static Rendered render(String valueSet, Map<String, Object> sets) {
    return Rendered.parse(template(valueSet(valueSet), sets));
  }

  /**
   * {@code helm lint --strict} of the chart with {@code values} merged over its values.yaml
   * (helm-java 0.0.15's lint takes no values file, so the merge happens in a copy of the chart).
   */
  static LintResult lint(Path values, Path workDir) throws IOException {
    Path copy = workDir.resolve("sf2loki");
    try (Stream<Path> files = Files.walk(dir())) {
      for (Path f : (Iterable<Path>) files::iterator) {
        Path target = copy.resolve(dir().relativize(f).toString());
        if (Files.isDirectory(f)) {
          Files.createDirectories(target);
        } else {
          Files.copy(f, target);
        }
      }
    }
    if (values != null) {
      ObjectNode base = (ObjectNode) YAML.readTree(copy.resolve("values.yaml").toFile());
      merge(base, YAML.readTree(values.toFile()));
      YAML.writeValue(copy.resolve("values.yaml").toFile(), base);
    }
    return new Helm(copy).lint().strict().call();
  }

  /** Helm's coalescing: maps merge, everything else (and null, which deletes) replaces. */
  private static void merge(ObjectNode base, JsonNode over) {
    for (Map.Entry<String, JsonNode> e : over.properties()) {
      JsonNode old = base.get(e.getKey());
      if (e.getValue().isNull()) {
        base.remove(e.getKey());
      } else if (old instanceof ObjectNode o && e.getValue().isObject()) {
        merge(o, e.getValue());
      } else {
        base.set(e.getKey(), e.getValue());
      }
    }
  }

  /** A rendered release: every document of the {@code helm template} stream. */
  record Rendered(String text, List<HasMetadata> objects) {
    static Rendered parse(String text) {
      List<HasMetadata> objects = new ArrayList<>();
      for (String doc : text.split("(?m)^---\\s*$")) {
        if (doc.lines().allMatch(l -> l.isBlank() || l.strip().startsWith("#"))) {
          continue;
        }
        objects.add(K8S.unmarshal(doc, HasMetadata.class));
      }
      return new Rendered(text, List.copyOf(objects));
    }

    <T extends HasMetadata> List<T> all(Class<T> type) {
      return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    <T extends HasMetadata> T one(Class<T> type) {
      List<T> found = all(type);
      if (found.size() != 1) {
        throw new AssertionError("expected one " + type.getSimpleName() + ", got " + found.size());
      }
      return found.get(0);
    }

    Optional<HasMetadata> kind(String kind) {
      return objects.stream().filter(o -> kind.equals(o.getKind())).findFirst();
    }

    List<String> kinds() {
      return objects.stream().map(HasMetadata::getKind).toList();
    }
  }

  static JsonNode yaml(String text) {
    try {
      return YAML.readTree(text);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
