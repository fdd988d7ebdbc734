package io.sf2loki.app.run;

import io.sf2loki.app.config.ConfigException;
import io.sf2loki.app.config.ConfigException.Problem;
import io.sf2loki.app.config.OrgConfig;
import io.sf2loki.app.config.Sf2lokiConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * Rejects, at build time and with exit 2, configurations that ask for a capability this build does
 * not have yet. Silently ignoring such a setting would lose data (an unread source) or leak it (an
 * unapplied PII transform), so each is named with its dotted path.
 */
final class BuildSupport {
  private BuildSupport() {}

  /**
   * @throws ConfigException listing every unsupported setting
   */
  static void check(Sf2lokiConfig cfg) {
    List<Problem> problems = new ArrayList<>();
    if (cfg.multiOrg()) {
      problems.add(new Problem("orgs", "multi-org mode is not available in this build yet"));
    }
    for (int i = 0; i < cfg.orgs().size(); i++) {
      OrgConfig org = cfg.orgs().get(i);
      String p = cfg.multiOrg() ? "orgs." + i + ".sources." : "sources.";
      var s = org.sources();
      if (s.pubsub().enabled() && !s.pubsub().transforms().isEmpty()) {
        problems.add(
            new Problem(
                p + "pubsub.transforms",
                "transforms are not available in this build yet; refusing to ship events unmasked"));
      }
      if (s.eventlogObjects().enabled() && !s.eventlogObjects().transforms().isEmpty()) {
        problems.add(
            new Problem(
                p + "eventlog_objects.transforms",
                "transforms are not available in this build yet; refusing to ship rows unmasked"));
      }
      if (!s.apexlog().transforms().isEmpty()) {
        problems.add(
            new Problem(
                p + "apexlog.transforms",
                "transforms are not available in this build yet; refusing to ship logs unmasked"));
      }
      if (!s.eventlogfile().transforms().isEmpty()) {
        problems.add(
            new Problem(
                p + "eventlogfile.transforms",
                "transforms are not available in this build yet; refusing to ship rows unmasked"));
      }
    }
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
  }
}
