package io.sf2loki.core.transform;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A source's {@code transforms} compiled once (SPEC XF-1): the rules applied in list order, in
 * place, to one decoded record. Immutable and thread-safe; one chain may serve every worker thread
 * of a source.
 *
 * <p>Values written by {@code hash}, {@code mask} and {@code regex_replace} are always strings (the
 * result of the rule on the value's SRC-8 text form), even when a pattern does not match; null and
 * absent fields are left alone by those three rules. The chain stops at the first {@code drop_row}
 * rule that matches; the caller counts {@code sf2loki_rows_filtered{source, rule}} += 1 with {@link
 * Verdict#rule()} (XF-6, XF-7).
 */
public final class TransformChain {
  /** The chain of a source without transforms: keeps every record unchanged. */
  public static final TransformChain EMPTY = new TransformChain(List.of(), List.of(), List.of());

  private final Rule[] rules;
  private final Verdict[] drops;
  private final List<String> metricNames;
  private final List<TransformSpec> specs;

  private TransformChain(List<Rule> rules, List<String> names, List<TransformSpec> specs) {
    this.rules = rules.toArray(Rule[]::new);
    this.drops = names.stream().map(n -> new Verdict(false, n)).toArray(Verdict[]::new);
    this.metricNames = List.copyOf(names);
    this.specs = List.copyOf(specs);
  }

  /**
   * Compiles a source's rules.
   *
   * @param specs the rules in configured order
   * @param salt the org's {@code sources.transform_salt}, {@code ""} when none (XF-2)
   * @return the chain
   * @throws InvalidTransformException naming the rule's index when a rule cannot run (a {@code
   *     regex_replace} pattern or replacement outside XF-5, a rule without the keys its action
   *     needs); the binder has normally refused these already (CFG-19)
   */
  public static TransformChain compile(List<TransformSpec> specs, String salt) {
    if (specs.isEmpty()) {
      return EMPTY;
    }
    List<Rule> rules = new ArrayList<>(specs.size());
    List<String> names = new ArrayList<>(specs.size());
    for (int i = 0; i < specs.size(); i++) {
      TransformSpec s = specs.get(i);
      rules.add(rule(i, s, salt == null ? "" : salt));
      names.add(s.metricName(i));
    }
    return new TransformChain(rules, names, specs);
  }

  private static Rule rule(int index, TransformSpec s, String salt) {
    if (s.action() == TransformAction.DROP_ROW) {
      if (s.match().isEmpty()) {
        throw new InvalidTransformException(index, "drop_row needs a non-empty match");
      }
      return new Rule.DropRow(s.match());
    }
    if (s.fields().isEmpty()) {
      throw new InvalidTransformException(index, s.action().yaml() + " needs non-empty fields");
    }
    return switch (s.action()) {
      case HASH -> new Rule.Hash(s.fields(), salt);
      case MASK -> new Rule.Mask(s.fields());
      case DROP_FIELD -> new Rule.DropField(s.fields());
      case REGEX_REPLACE -> regexReplace(index, s);
      case DROP_ROW -> throw new AssertionError("handled above");
    };
  }

  private static Rule regexReplace(int index, TransformSpec s) {
    if (s.pattern() == null) {
      throw new InvalidTransformException(index, "regex_replace needs a pattern");
    }
    try {
      PortableRegex regex = PortableRegex.compile(s.pattern());
      return new Rule.RegexReplace(s.fields(), regex, Replacement.parse(s.replacement(), regex));
    } catch (PortableRegexException e) {
      throw new InvalidTransformException(index, "regex_replace outside XF-5: " + e.getMessage());
    }
  }

  /**
   * Applies the rules in order, in place.
   *
   * @param record a mutable decoded record (field → value; values of any SRC-8 type)
   * @return {@link Verdict#KEEP}, or the verdict of the {@code drop_row} rule that matched (the
   *     record is then partly transformed and must not be shipped)
   */
  public Verdict apply(Map<String, Object> record) {
    for (int i = 0; i < rules.length; i++) {
      if (rules[i].apply(record)) {
        return drops[i];
      }
    }
    return Verdict.KEEP;
  }

  /** True when the chain has no rules. */
  public boolean isEmpty() {
    return rules.length == 0;
  }

  /** The XF-7 metric name of each rule, in order. */
  public List<String> metricNames() {
    return metricNames;
  }

  /** The XF-7 metric names of the {@code drop_row} rules (the series a source can count). */
  public List<String> dropRowRuleNames() {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < specs.size(); i++) {
      if (specs.get(i).action() == TransformAction.DROP_ROW) {
        out.add(metricNames.get(i));
      }
    }
    return out;
  }

  /**
   * The XF-7 names of the {@code hash} rules (CFG-24: without a salt their hashes of low-entropy
   * values can be reversed by guessing).
   */
  public List<String> hashRuleNames() {
    List<String> out = new ArrayList<>();
    for (int i = 0; i < specs.size(); i++) {
      if (specs.get(i).action() == TransformAction.HASH) {
        out.add(metricNames.get(i));
      }
    }
    return out;
  }

  /**
   * What {@link #apply} decided.
   *
   * @param kept true when the record goes on
   * @param rule the XF-7 name of the {@code drop_row} rule that dropped it, {@code ""} when kept
   */
  public record Verdict(boolean kept, String rule) {
    /** The record goes on. */
    public static final Verdict KEEP = new Verdict(true, "");
  }
}
