package io.sf2loki.app.statecmd;

import io.sf2loki.app.config.OrgConfig;
import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.app.config.SourcesConfig;
import io.sf2loki.core.org.OrgScope;
import java.util.Optional;

/**
 * Whether a checkpoint key is one the configuration's sources read (SPEC §3.3 key layout, ORG-4,
 * ORG-5): {@code state set} warns when no configured source would ever read the key it writes
 * (CLI-8), e.g. a typo in the topic or an org name that is not configured.
 */
final class KeyOwners {
  private KeyOwners() {}

  /**
   * @return why no configured source reads {@code key}, or empty when one does (or may, through
   *     discovery)
   */
  static Optional<String> problem(Sf2lokiConfig cfg, String key) {
    if (key.equals("egress:budget")) {
      return Optional.empty();
    }
    OrgScope.Split split = OrgScope.split(key);
    OrgConfig org;
    if (split.org().isPresent()) {
      if (!cfg.multiOrg()) {
        return Optional.of("org-prefixed keys are read only in multi-org mode (orgs:)");
      }
      org =
          cfg.orgs().stream()
              .filter(o -> o.name().equals(split.org().get()))
              .findFirst()
              .orElse(null);
      if (org == null) {
        return Optional.of("no org named '" + split.org().get() + "' is configured");
      }
    } else {
      org = cfg.orgs().isEmpty() ? null : cfg.orgs().getFirst(); // ORG-5: the first org's fallback
      if (org == null) {
        return Optional.of("no org is configured");
      }
    }
    return sourceProblem(org.sources(), split.key());
  }

  private static Optional<String> sourceProblem(SourcesConfig s, String k) {
    if (k.startsWith("pubsub:")) {
      var p = s.pubsub();
      boolean read =
          p.enabled() && (p.topics().contains("*") || p.explicitTopics().contains(k.substring(7)));
      return read ? Optional.empty() : Optional.of(notRead("pubsub", "topic", k.substring(7)));
    }
    if (k.startsWith("eventlogfile:")) {
      var e = s.eventlogfile();
      String type = k.substring("eventlogfile:".length());
      boolean read =
          e.enabled()
              && e.settings().eventTypes().stream()
                  .anyMatch(t -> t.name().equals("*") || t.name().equalsIgnoreCase(type));
      return read ? Optional.empty() : Optional.of(notRead("eventlogfile", "event type", type));
    }
    if (k.startsWith("eventlog_objects:")) {
      var o = s.eventlogObjects();
      String name = k.substring("eventlog_objects:".length());
      boolean read =
          o.enabled() && o.settings().objects().stream().anyMatch(x -> x.name().equals(name));
      return read ? Optional.empty() : Optional.of(notRead("eventlog_objects", "object", name));
    }
    if (k.equals("apexlog")) {
      return s.apexlog().enabled()
          ? Optional.empty()
          : Optional.of("sources.apexlog is not enabled");
    }
    return Optional.of("no sf2loki source reads keys like '" + k + "'");
  }

  private static String notRead(String source, String what, String name) {
    return "sources." + source + " is not enabled or has no " + what + " '" + name + "'";
  }
}
