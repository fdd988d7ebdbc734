package io.sf2loki.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.PointData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** OBS-4: the per-org view of the metrics follows the "org" column of the OBS-5 catalogue. */
class OrgMetricsTest {
  private static final AttributeKey<String> PROBE = AttributeKey.stringKey("probe");
  private final InMemoryMetricReader reader = InMemoryMetricReader.create();
  private final SdkMeterProvider provider =
      SdkMeterProvider.builder().registerMetricReader(reader).build();
  private final Sf2lokiMetrics metrics = new Sf2lokiMetrics(provider, "9.8.7");

  @AfterEach
  void close() {
    metrics.close();
    provider.close();
  }

  /** Metric name → whether its "org" column says yes (OBS-5 table in docs/SPEC.md). */
  private static Map<String, Boolean> orgColumn() throws IOException {
    Path p = Path.of("").toAbsolutePath();
    while (p != null && !Files.exists(p.resolve("docs/SPEC.md"))) {
      p = p.getParent();
    }
    String spec = Files.readString(p.resolve("docs/SPEC.md"));
    int start = spec.indexOf("**OBS-5**");
    String table = spec.substring(start, spec.indexOf("**OBS-6**", start));
    Map<String, Boolean> out = new HashMap<>();
    for (String line : table.lines().toList()) {
      if (!line.startsWith("| `sf2loki_")) {
        continue;
      }
      String[] cells = line.split("(?<!\\\\)\\|");
      String name = cells[1].trim().replaceAll("`([a-z0-9_]+)`.*", "$1");
      out.put(name, cells[5].trim().startsWith("yes"));
    }
    return out;
  }

  @Test
  @DisplayName(
      "OBS-4, ORG-8: through forOrg, exactly the catalogue's per-org instruments carry org=<name>;"
          + " deployment-wide ones carry none")
  void obs4_forOrgFollowsTheCatalogue() throws Exception {
    Sf2lokiMetrics view = metrics.forOrg("eu");
    for (Field f : Sf2lokiMetrics.class.getFields()) {
      if (Modifier.isStatic(f.getModifiers())) {
        continue;
      }
      Attributes probe = Attributes.of(PROBE, f.getName());
      if (f.get(view) instanceof LongCounter c) {
        c.add(1, probe);
      } else if (f.get(view) instanceof GaugeValues g) {
        g.set(1, probe);
      }
    }
    Map<String, Boolean> column = orgColumn();
    int checked = 0;
    java.util.Set<String> seen = new java.util.TreeSet<>();
    for (MetricData m : reader.collectAllMetrics()) {
      Collection<? extends PointData> points = m.getData().getPoints();
      for (PointData point : points) {
        if (point.getAttributes().get(PROBE) == null) {
          continue;
        }
        assertThat(column).as("catalogue row of %s", m.getName()).containsKey(m.getName());
        String org = point.getAttributes().get(Sf2lokiMetrics.ORG);
        if (column.get(m.getName())) {
          assertThat(org).as(m.getName()).isEqualTo("eu");
        } else {
          assertThat(org).as(m.getName()).isNull();
        }
        checked++;
        seen.add(m.getName());
      }
    }
    assertThat(checked).isGreaterThan(50); // every counter and gauge field
    // OBS-4: no per-org row of the catalogue escapes the check (e.g. an instrument of another type)
    assertThat(seen)
        .as("catalogue rows with org=yes recorded through forOrg")
        .containsAll(
            column.entrySet().stream().filter(Map.Entry::getValue).map(Map.Entry::getKey).toList());
    assertThat(view.eventsIngested).isSameAs(metrics.eventsIngested);
    view.close(); // a view closes nothing
    metrics.authErrors.add(1);
    metrics.salesforceLimitMax.set(5, Attributes.of(Sf2lokiMetrics.LIMIT_NAME, "DailyApiRequests"));
    assertThat(view.salesforceLimitMax.get(Attributes.of(Sf2lokiMetrics.LIMIT_NAME, "x"))).isNaN();
    assertThat(reader.collectAllMetrics())
        .anyMatch(m -> m.getName().equals("sf2loki_salesforce_limit_max"));
  }
}
