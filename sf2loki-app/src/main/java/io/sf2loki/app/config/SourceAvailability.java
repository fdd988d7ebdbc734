package io.sf2loki.app.config;

import java.util.ArrayList;
import java.util.List;

/** SPEC CFG-28: a daemon configuration must have at least one source that can produce data. */
final class SourceAvailability {
  private SourceAvailability() {}

  static void check(Sf2lokiConfig config) {
    List<String> reasons = new ArrayList<>();
    for (OrgConfig org : config.orgs()) {
      String reason = reasonNothing(org.sources());
      if (reason == null) {
        return; // this org can produce data
      }
      reasons.add(config.multiOrg() ? "org '" + org.name() + "': " + reason : reason);
    }
    throw new ConfigException("no source enabled: " + String.join("; ", reasons));
  }

  /** Why no source of {@code s} can produce data, or {@code null} when one can. */
  static String reasonNothing(SourcesConfig s) {
    List<String> enabledButEmpty = new ArrayList<>();
    int disabled = 0;
    PubSubConfig ps = s.pubsub();
    if (!ps.enabled()) {
      disabled++;
    } else if (ps.topics().contains("*") || !survivingTopics(ps).isEmpty()) {
      return null;
    } else if (ps.topics().isEmpty()) {
      enabledButEmpty.add("pubsub has no topics");
    } else {
      enabledButEmpty.add("pubsub has no topic that passes its include/exclude filters");
    }
    if (!s.eventlogObjects().enabled()) {
      disabled++;
    } else if (!s.eventlogObjects().settings().objects().isEmpty()) {
      return null;
    } else {
      enabledButEmpty.add("eventlog_objects has no objects");
    }
    if (!s.eventlogfile().enabled()) {
      disabled++;
    } else if (!s.eventlogfile().settings().eventTypes().isEmpty()) {
      return null;
    } else {
      enabledButEmpty.add("eventlogfile has no event_types");
    }
    if (s.apexlog().enabled()) {
      return null;
    }
    disabled++;
    if (enabledButEmpty.isEmpty()) {
      return "every source is disabled";
    }
    String head = String.join(", ", enabledButEmpty);
    return disabled > 0 ? head + " and every other source is disabled" : head;
  }

  /** PS-19: explicit topics minus {@code *}, de-duplicated, kept iff included and not excluded. */
  static List<String> survivingTopics(PubSubConfig ps) {
    return ps.explicitTopics();
  }
}
