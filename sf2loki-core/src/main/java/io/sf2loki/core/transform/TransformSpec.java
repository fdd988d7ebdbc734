package io.sf2loki.core.transform;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One configured transform rule, as bound from {@code …transforms[i]} (SPEC §1.3, CFG-19). The
 * shape rules of CFG-19 (which keys each action takes) are the binder's; {@link TransformChain}
 * checks only what it needs to run.
 *
 * @param action the action
 * @param fields target fields ({@code hash}, {@code mask}, {@code drop_field}, {@code
 *     regex_replace})
 * @param match field → glob ({@code drop_row}); iteration order is kept
 * @param pattern the 1.x-dialect pattern ({@code regex_replace}), else null
 * @param replacement the 1.x-dialect replacement ({@code regex_replace}; {@code ""} by default)
 * @param name the configured metric name, {@code ""} for the XF-7 default
 */
public record TransformSpec(
    TransformAction action,
    List<String> fields,
    Map<String, String> match,
    String pattern,
    String replacement,
    String name) {

  /** Copies the lists and requires the non-null parts. */
  public TransformSpec {
    Objects.requireNonNull(action, "action");
    fields = List.copyOf(fields);
    match = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(match));
    replacement = replacement == null ? "" : replacement;
    name = name == null ? "" : name;
  }

  /** A rule on {@code fields} ({@code hash}, {@code mask}, {@code drop_field}). */
  public static TransformSpec of(TransformAction action, String... fields) {
    return new TransformSpec(action, List.of(fields), Map.of(), null, "", "");
  }

  /** A {@code regex_replace} rule. */
  public static TransformSpec regexReplace(String pattern, String replacement, String... fields) {
    return new TransformSpec(
        TransformAction.REGEX_REPLACE, List.of(fields), Map.of(), pattern, replacement, "");
  }

  /** A {@code drop_row} rule. */
  public static TransformSpec dropRow(Map<String, String> match) {
    return new TransformSpec(TransformAction.DROP_ROW, List.of(), match, null, "", "");
  }

  /** The same rule with a metric name. */
  public TransformSpec named(String metricName) {
    return new TransformSpec(action, fields, match, pattern, replacement, metricName);
  }

  /** The rule's metric name (XF-7): {@code name}, or {@code <action>-<index>}. */
  public String metricName(int index) {
    return name.isEmpty() ? action.yaml() + "-" + index : name;
  }
}
