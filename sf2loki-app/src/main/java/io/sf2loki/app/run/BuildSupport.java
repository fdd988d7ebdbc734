package io.sf2loki.app.run;

import io.sf2loki.app.config.ConfigException;
import io.sf2loki.app.config.ConfigException.Problem;
import io.sf2loki.app.config.Sf2lokiConfig;
import java.util.ArrayList;
import java.util.List;

/**
 * Rejects, at build time and with exit 2, configurations that ask for a capability this build does
 * not have yet. Silently ignoring such a setting would lose data (an unread source) or mix orgs, so
 * each is named with its dotted path. Transforms (XF) are applied on every source and no longer
 * refused.
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
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
  }
}
