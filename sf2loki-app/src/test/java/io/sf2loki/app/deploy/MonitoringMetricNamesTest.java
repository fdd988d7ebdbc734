package io.sf2loki.app.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.metrics.DoubleCounter;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.DoubleUpDownCounter;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.LongHistogram;
import io.opentelemetry.api.metrics.LongUpDownCounter;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.sf2loki.app.testing.RepoRoot;
import io.sf2loki.core.metrics.GaugeValues;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Every {@code sf2loki_…} metric a shipped dashboard or rule queries is one the daemon registers,
 * used the way its type allows once translated to Prometheus names (SPEC OBS-2): a counter only as
 * {@code <name>_total} inside {@code rate()}/{@code increase()} (or as a series-existence test), a
 * histogram only as {@code _bucket}/{@code _sum}/{@code _count}, a gauge by its own name and never
 * inside {@code rate()}. The registered names and types are read from {@link Sf2lokiMetrics}
 * itself, so new instruments need no edit here.
 */
class MonitoringMetricNamesTest {
  enum Kind {
    COUNTER,
    GAUGE,
    HISTOGRAM
  }

  private static final Pattern METRIC = Pattern.compile("\\bsf2loki_[A-Za-z0-9_:]*[A-Za-z0-9_]");
  private static final Set<String> RATE_FUNCTIONS = Set.of("rate", "increase", "irate");
  private final MonitoringPack pack = new MonitoringPack();

  /**
   * The instruments {@link Sf2lokiMetrics} creates: every public instrument field is written once
   * (counters add, histograms record, gauges set) and the collected data gives name and type (an
   * up-down counter exports as a Prometheus gauge). Observable instruments report on their own.
   */
  static Map<String, Kind> registered() throws IllegalAccessException {
    InMemoryMetricReader reader = InMemoryMetricReader.create();
    try (SdkMeterProvider provider =
            SdkMeterProvider.builder().registerMetricReader(reader).build();
        Sf2lokiMetrics metrics = new Sf2lokiMetrics(provider, "test")) {
      for (Field f : Sf2lokiMetrics.class.getFields()) {
        if (Modifier.isStatic(f.getModifiers())) {
          continue;
        }
        Object v = f.get(metrics);
        switch (v) {
          case LongCounter c -> c.add(1);
          case DoubleCounter c -> c.add(1);
          case LongUpDownCounter c -> c.add(1);
          case DoubleUpDownCounter c -> c.add(1);
          case DoubleHistogram h -> h.record(1);
          case LongHistogram h -> h.record(1);
          case GaugeValues g -> g.set(1);
          case null, default -> {}
        }
      }
      Map<String, Kind> out = new TreeMap<>();
      for (MetricData m : reader.collectAllMetrics()) {
        Kind k =
            switch (m.getType()) {
              case LONG_SUM -> m.getLongSumData().isMonotonic() ? Kind.COUNTER : Kind.GAUGE;
              case DOUBLE_SUM -> m.getDoubleSumData().isMonotonic() ? Kind.COUNTER : Kind.GAUGE;
              case LONG_GAUGE, DOUBLE_GAUGE -> Kind.GAUGE;
              case HISTOGRAM, EXPONENTIAL_HISTOGRAM -> Kind.HISTOGRAM;
              default -> throw new AssertionError("unexpected type " + m.getType());
            };
        out.put(m.getName(), k);
      }
      return out;
    }
  }

  /** The OBS-5 catalogue rows of docs/SPEC.md: name → type column. */
  static Map<String, Kind> catalogue() throws Exception {
    String spec = Files.readString(RepoRoot.find().resolve("docs/SPEC.md"));
    Matcher row =
        Pattern.compile("(?m)^\\| `(sf2loki_[a-z0-9_]+)`[^|]*\\| (counter|gauge|histogram)")
            .matcher(spec);
    Map<String, Kind> out = new TreeMap<>();
    while (row.find()) {
      out.put(row.group(1), Kind.valueOf(row.group(2).toUpperCase(java.util.Locale.ROOT)));
    }
    return out;
  }

  @Test
  @DisplayName(
      "OBS-5, OBS-2: every instrument the daemon registers is in the SPEC metric catalogue with"
          + " the same type")
  void obs5_registeredInstrumentsAreCatalogued() throws Exception {
    Map<String, Kind> registered = registered();
    Map<String, Kind> catalogue = catalogue();
    assertThat(registered).hasSizeGreaterThanOrEqualTo(40);
    registered.forEach(
        (name, kind) ->
            assertThat(catalogue.get(name))
                .as("OBS-5 catalogue row for registered %s %s", kind, name)
                .isEqualTo(kind));
  }

  @Test
  @DisplayName(
      "DEP-8, DEP-9, OBS-2: every sf2loki_ metric in a dashboard or rule is registered by the"
          + " daemon and queried as its type allows (counters as _total through rate/increase,"
          + " histograms through _bucket/_sum/_count); every recorded name is defined")
  void dep9_packMetricsAreRegisteredWithTheirType() throws Exception {
    Map<String, Kind> registered = registered();
    Set<String> recorded = new HashSet<>();
    pack.rules().stream().filter(r -> !r.alert()).forEach(r -> recorded.add(r.name()));
    pack.lokiRules().stream().filter(r -> !r.alert()).forEach(r -> recorded.add(r.name()));

    List<String[]> exprs = new ArrayList<>(); // {where, expr}
    pack.rules()
        .forEach(r -> exprs.add(new String[] {r.file().getFileName() + " " + r.name(), r.expr()}));
    pack.panelQueries().stream()
        .filter(q -> q.datasourceUid().equals("${ds_prom}"))
        .forEach(q -> exprs.add(new String[] {q.dashboard() + " / " + q.panel(), q.expr()}));
    assertThat(exprs).hasSizeGreaterThanOrEqualTo(60);

    Set<String> used = new HashSet<>();
    for (String[] e : exprs) {
      Matcher m = METRIC.matcher(e[1]);
      while (m.find()) {
        String problem = problem(registered, recorded, e[1], m.group(), m.start(), m.end());
        assertThat(problem).as("%s uses %s in: %s", e[0], m.group(), e[1]).isNull();
        used.add(m.group());
      }
    }
    assertThat(used).contains("sf2loki_loki_push_total", "sf2loki_ingest_lag_seconds_bucket");
  }

  /** Null when the occurrence of {@code token} at {@code [start, end)} of {@code expr} is valid. */
  static String problem(
      Map<String, Kind> registered,
      Set<String> recorded,
      String expr,
      String token,
      int start,
      int end) {
    if (token.contains(":")) {
      return recorded.contains(token) ? null : "not a recording rule of the pack";
    }
    String fn = enclosingFunction(expr, start);
    boolean inRate = RATE_FUNCTIONS.contains(fn);
    if (registered.get(token) == Kind.GAUGE) {
      return inRate ? "a gauge inside " + fn + "()" : null;
    }
    if (token.endsWith("_total")
        && registered.get(token.substring(0, token.length() - 6)) == Kind.COUNTER) {
      String rest = expr.substring(end);
      boolean existence =
          rest.matches("(?s)\\s+unless\\s+" + Pattern.quote(token) + "\\s+offset\\b.*")
              || rest.matches("(?s)\\s+offset\\b.*");
      return inRate || existence ? null : "a counter outside rate()/increase()";
    }
    for (String suffix : List.of("_bucket", "_sum", "_count")) {
      if (token.endsWith(suffix)
          && registered.get(token.substring(0, token.length() - suffix.length()))
              == Kind.HISTOGRAM) {
        return inRate || !suffix.equals("_bucket") ? null : "a histogram bucket outside rate()";
      }
    }
    Kind k = registered.get(token);
    return k == null
        ? "not registered by the daemon (Sf2lokiMetrics)"
        : "a " + k + " queried without its Prometheus suffix";
  }

  /** The name of the innermost function call around {@code pos}, or "" (aggregations, groups). */
  static String enclosingFunction(String expr, int pos) {
    int depth = 0;
    for (int i = pos - 1; i >= 0; i--) {
      char c = expr.charAt(i);
      if (c == ')') {
        depth++;
      } else if (c == '(') {
        if (depth-- == 0) {
          int j = i - 1;
          while (j >= 0 && Character.isWhitespace(expr.charAt(j))) {
            j--;
          }
          int k = j;
          while (k >= 0 && (Character.isLetterOrDigit(expr.charAt(k)) || expr.charAt(k) == '_')) {
            k--;
          }
          return expr.substring(k + 1, j + 1);
        }
      }
    }
    return "";
  }

  @Test
  @DisplayName(
      "DEP-9: the usage checker rejects a bare counter, a gauge in rate() and unknown names")
  void dep9_checkerRejectsMisuse() throws Exception {
    Map<String, Kind> reg = registered();
    Set<String> rec = Set.of("sf2loki_events:count5m");
    assertThat(check(reg, rec, "sf2loki_loki_push_total > 0")).isNotNull();
    assertThat(check(reg, rec, "rate(sf2loki_loki_push[5m])")).isNotNull();
    assertThat(check(reg, rec, "rate(sf2loki_queue_depth[5m])")).isNotNull();
    assertThat(check(reg, rec, "sf2loki_no_such_metric")).isNotNull();
    assertThat(check(reg, rec, "sf2loki_ingest_lag_seconds_bucket")).isNotNull();
    assertThat(check(reg, rec, "sf2loki_other:count5m")).isNotNull();
    assertThat(check(reg, rec, "sum by (job) (rate(sf2loki_loki_push_total[5m]))")).isNull();
    assertThat(check(reg, rec, "sum(increase(sf2loki_ingest_lag_seconds_count[5m]))")).isNull();
    assertThat(check(reg, rec, "sf2loki_queue_depth > 0")).isNull();
    assertThat(check(reg, rec, "sf2loki_events:count5m")).isNull();
  }

  private static String check(Map<String, Kind> reg, Set<String> rec, String expr) {
    Matcher m = METRIC.matcher(expr);
    while (m.find()) {
      String p = problem(reg, rec, expr, m.group(), m.start(), m.end());
      if (p != null) {
        return p;
      }
    }
    return null;
  }
}
