package io.sf2loki.app.run;

import io.sf2loki.app.config.ConfigException;
import io.sf2loki.app.config.OrgConfig;
import io.sf2loki.app.config.SourcesConfig;
import io.sf2loki.core.overlap.OverlapGuard;
import io.sf2loki.salesforce.objects.ObjectSettings;
import java.util.List;

/** Applies the overlap guard (SPEC SRC-22…SRC-24) to one org's configured sources. */
final class SourceOverlap {
  private SourceOverlap() {}

  private static List<String> topics(SourcesConfig s) {
    return s.pubsub().enabled()
        ? s.pubsub().explicitTopics() // SRC-23: explicit *filtered* topics (PS-19)
        : List.of();
  }

  private static List<String> objects(SourcesConfig s) {
    return s.eventlogObjects().enabled()
        ? s.eventlogObjects().settings().objects().stream().map(ObjectSettings::name).toList()
        : List.of();
  }

  private static List<String> elfTypes(SourcesConfig s) {
    return s.eventlogfile().enabled()
        ? s.eventlogfile().settings().eventTypes().stream()
            .map(t -> t.name())
            .filter(n -> !n.equals("*"))
            .toList()
        : List.of();
  }

  /**
   * SRC-23: fails when a category is fed by more than one source type, unless {@code
   * sources.allow_overlap}.
   *
   * @throws ConfigException {@code overlapping sources:} then one line per category
   */
  static void check(OrgConfig org) {
    SourcesConfig s = org.sources();
    if (s.allowOverlap()) {
      return;
    }
    List<String> lines = OverlapGuard.violations(topics(s), objects(s), elfTypes(s));
    if (!lines.isEmpty()) {
      String prefix = org.name().isEmpty() ? "" : "org '" + org.name() + "': ";
      throw new ConfigException(
          prefix
              + "overlapping sources (set sources.allow_overlap: true to allow):\n  "
              + String.join("\n  ", lines));
    }
  }
}
