package io.sf2loki.salesforce.source;

import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.transform.TransformChain;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One source's compiled {@code transforms} (SPEC XF-1…XF-7) with the accounting of what they drop:
 * a record a {@code drop_row} rule matches increments {@code sf2loki_rows_filtered{source, rule}}
 * (XF-6, XF-7, OBS-5), and the first drop per rule and instance logs one INFO naming the source and
 * the rule (later ones log at DEBUG), so a drop is deliberate and visible (XF-14). The caller still
 * moves its checkpoint past a dropped record.
 *
 * <p>Runs on the caller's thread: the sources call {@link #apply} where they shape a record, on the
 * CPU pool (PIPE-26). Immutable apart from the logged-rule set; thread-safe.
 */
public final class SourceTransforms {
  private static final Logger log = LoggerFactory.getLogger(SourceTransforms.class);

  /** No rules: {@link #apply} keeps every record unchanged and counts nothing. */
  public static final SourceTransforms NONE = new SourceTransforms();

  private final TransformChain chain;
  private final String source;
  private final Sf2lokiMetrics metrics;
  private final Map<String, Attributes> ruleAttrs;
  private final Set<String> logged = ConcurrentHashMap.newKeySet();

  private SourceTransforms() {
    this.chain = TransformChain.EMPTY;
    this.source = "";
    this.metrics = null;
    this.ruleAttrs = Map.of();
  }

  /**
   * @param chain the source's compiled rules ({@link TransformChain#compile})
   * @param source the {@code source} label ({@code pubsub}, {@code eventlog_objects}, {@code
   *     eventlogfile}, {@code apexlog})
   * @param metrics where drops are counted
   */
  public SourceTransforms(TransformChain chain, String source, Sf2lokiMetrics metrics) {
    this.chain = Objects.requireNonNull(chain, "chain");
    this.source = Objects.requireNonNull(source, "source");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    Map<String, Attributes> attrs = new HashMap<>();
    for (String rule : chain.dropRowRuleNames()) {
      attrs.put(rule, Attributes.of(Sf2lokiMetrics.SOURCE, source, Sf2lokiMetrics.RULE, rule));
    }
    this.ruleAttrs = Map.copyOf(attrs);
  }

  /** True when there are no rules (callers skip copying the record). */
  public boolean isEmpty() {
    return chain.isEmpty();
  }

  /** The XF-7 names of the {@code drop_row} rules (the {@code rule} values this source counts). */
  public List<String> dropRowRuleNames() {
    return chain.dropRowRuleNames();
  }

  /**
   * Applies the rules in list order, in place (XF-1).
   *
   * @param record a mutable decoded record (field → value)
   * @return true to keep the record; false when a {@code drop_row} rule matched (counted and logged
   *     here; the record must produce no entry, and its position still advances)
   */
  public boolean apply(Map<String, Object> record) {
    if (chain.isEmpty()) {
      return true;
    }
    TransformChain.Verdict v = chain.apply(record);
    if (v.kept()) {
      return true;
    }
    metrics.rowsFiltered.add(1, ruleAttrs.get(v.rule()));
    if (logged.add(v.rule())) {
      log.atInfo()
          .addKeyValue("source", source)
          .addKeyValue("rule", v.rule())
          .log(
              "records dropped by a drop_row rule; counted in sf2loki_rows_filtered, checkpoints"
                  + " move past them (further drops of this rule log at DEBUG)");
    } else {
      log.atDebug()
          .addKeyValue("source", source)
          .addKeyValue("rule", v.rule())
          .log("record dropped by a drop_row rule");
    }
    return false;
  }
}
