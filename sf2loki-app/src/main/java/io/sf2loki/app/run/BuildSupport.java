package io.sf2loki.app.run;

import io.sf2loki.app.config.ConfigException;
import io.sf2loki.app.config.ConfigException.Problem;
import io.sf2loki.app.config.OrgConfig;
import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.app.config.TransformRule;
import io.sf2loki.core.transform.InvalidTransformException;
import io.sf2loki.core.transform.TransformChain;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Rejects, at build time and with exit 2, configurations that ask for a capability this build does
 * not have yet (silently ignoring such a setting would lose data or mix orgs), and transform rules
 * that cannot compile (the binder refuses those already, CFG-19; this keeps a rule the binder let
 * through from failing a running term). Each problem is named with its dotted path. Transforms (XF)
 * and multi-org mode (ORG, with FEAT-6's per-org Loki tenants) are supported.
 */
final class BuildSupport {
  private BuildSupport() {}

  /**
   * @throws ConfigException listing every unsupported setting or uncompilable rule
   */
  static void check(Sf2lokiConfig cfg) {
    List<Problem> problems = new ArrayList<>();
    for (int i = 0; i < cfg.orgs().size(); i++) {
      OrgConfig org = cfg.orgs().get(i);
      String p = cfg.multiOrg() ? "orgs." + i + ".sources." : "sources.";
      var s = org.sources();
      List<Map.Entry<String, List<TransformRule>>> rules =
          List.of(
              Map.entry("pubsub", s.pubsub().transforms()),
              Map.entry("eventlog_objects", s.eventlogObjects().transforms()),
              Map.entry("eventlogfile", s.eventlogfile().transforms()),
              Map.entry("apexlog", s.apexlog().transforms()));
      for (Map.Entry<String, List<TransformRule>> r : rules) {
        try {
          TransformChain.compile(r.getValue().stream().map(TransformRule::toSpec).toList(), "");
        } catch (InvalidTransformException e) {
          problems.add(
              new Problem(p + r.getKey() + ".transforms." + e.index(), e.detail())); // CFG-4
        }
      }
    }
    if (!problems.isEmpty()) {
      throw new ConfigException(problems);
    }
  }
}
