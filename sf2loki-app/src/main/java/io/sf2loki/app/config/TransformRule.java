package io.sf2loki.app.config;

import io.sf2loki.core.transform.TransformAction;
import io.sf2loki.core.transform.TransformSpec;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One {@code …transforms[]} rule (SPEC §1.3, CFG-19, XF).
 *
 * @param action the action
 * @param fields target fields (empty only for {@code drop_row})
 * @param match field → glob, {@code drop_row} only, in configured order
 * @param pattern regex in the 1.x dialect (XF-5), {@code regex_replace} only
 * @param replacement replacement text, default {@code ""}
 * @param name configured metric name, {@code ""} = {@code <action>-<index>} (XF-7)
 */
public record TransformRule(
    TransformAction action,
    List<String> fields,
    Map<String, String> match,
    Optional<String> pattern,
    String replacement,
    String name) {

  /** The rule's metric name (XF-7) given its 0-based index in its source's list. */
  public String metricName(int index) {
    return name.isEmpty() ? action.yaml() + "-" + index : name;
  }

  /**
   * The core rule this binds to (SPEC XF-1): what {@link
   * io.sf2loki.core.transform.TransformChain#compile} takes.
   */
  public TransformSpec toSpec() {
    return new TransformSpec(action, fields, match, pattern.orElse(null), replacement, name);
  }
}
