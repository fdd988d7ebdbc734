package io.sf2loki.core.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.DoublePointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.data.MetricDataType;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class Sf2lokiMetricsTest {
  private final InMemoryMetricReader reader = InMemoryMetricReader.create();
  private final SdkMeterProvider provider =
      SdkMeterProvider.builder().registerMetricReader(reader).build();
  private final Sf2lokiMetrics metrics = new Sf2lokiMetrics(provider, "9.8.7");

  @AfterEach
  void close() {
    metrics.close();
    provider.close();
  }

  /** One row of the SPEC OBS-5 catalogue: the metric name and its type column. */
  private record CatalogueRow(String name, String type) {}

  private static final Pattern ROW =
      Pattern.compile("^\\| `(sf2loki_[a-z0-9_]+)`(?: \\+)? \\| ([^|]+?) \\|", Pattern.MULTILINE);

  /** The OBS-5 table parsed from docs/SPEC.md (the normative source, never a copy). */
  private static Map<String, CatalogueRow> catalogue() throws IOException {
    Path p = Path.of("").toAbsolutePath();
    while (p != null && !Files.exists(p.resolve("docs/SPEC.md"))) {
      p = p.getParent();
    }
    assertThat(p).as("docs/SPEC.md above the working directory").isNotNull();
    String spec = Files.readString(p.resolve("docs/SPEC.md"));
    int start = spec.indexOf("**OBS-5**");
    int end = spec.indexOf("**OBS-6**", start);
    Matcher m = ROW.matcher(spec.substring(start, end));
    Map<String, CatalogueRow> rows = new HashMap<>();
    while (m.find()) {
      rows.put(m.group(1), new CatalogueRow(m.group(1), m.group(2).strip()));
    }
    assertThat(rows).containsKeys("sf2loki_events_ingested", "sf2loki_build_info");
    return rows;
  }

  /** Records one value into every public instrument field, so each one is exported. */
  private List<String> touchEveryInstrument() throws IllegalAccessException {
    List<String> fields = new ArrayList<>();
    for (Field f : Sf2lokiMetrics.class.getFields()) {
      if (Modifier.isStatic(f.getModifiers())) {
        continue;
      }
      Object v = f.get(metrics);
      switch (v) {
        case LongCounter c -> c.add(1);
        case DoubleHistogram h -> h.record(1.5);
        case GaugeValues g -> g.set(1);
        default -> throw new AssertionError("unexpected instrument field " + f.getName());
      }
      fields.add(f.getName());
    }
    metrics.installQueueDepth(() -> 3);
    return fields;
  }

  @Test
  @DisplayName(
      "OBS-2, OBS-5: every instrument has a catalogue name, the catalogue type and an empty unit,"
          + " every catalogue name is an instrument; the lag histogram has the catalogue buckets")
  void obs5_namesTypesAndEmptyUnits() throws Exception {
    Map<String, CatalogueRow> catalogue = catalogue();
    List<String> fields = touchEveryInstrument();

    Collection<MetricData> collected = reader.collectAllMetrics();
    Set<String> names = new HashSet<>();
    for (MetricData md : collected) {
      names.add(md.getName());
      CatalogueRow row = catalogue.get(md.getName());
      assertThat(row).as("%s is an OBS-5 metric", md.getName()).isNotNull();
      assertThat(md.getUnit()).as("unit of %s (OBS-2)", md.getName()).isEmpty();
      String type = row.type();
      if (type.startsWith("counter")) {
        assertThat(md.getType()).as(md.getName()).isEqualTo(MetricDataType.LONG_SUM);
        assertThat(md.getLongSumData().isMonotonic()).as(md.getName()).isTrue();
      } else if (type.startsWith("histogram")) {
        assertThat(md.getType()).as(md.getName()).isEqualTo(MetricDataType.HISTOGRAM);
      } else if (type.startsWith("gauge")) {
        assertThat(md.getType())
            .as(md.getName())
            .isIn(MetricDataType.DOUBLE_GAUGE, MetricDataType.LONG_GAUGE);
      } else {
        throw new AssertionError("unknown catalogue type " + type);
      }
    }
    // both directions: every registered name is in the catalogue (above) and every catalogue
    // name is registered
    assertThat(names).containsExactlyInAnyOrderElementsOf(catalogue.keySet());
    // every instrument field was exported (one metric each) plus the queue-depth and the
    // wedged (OBS-32) gauges, which are observed callbacks
    assertThat(names).hasSize(fields.size() + 2).contains("sf2loki_queue_depth", "sf2loki_wedged");
    assertThat(names)
        .contains(
            "sf2loki_events_ingested",
            "sf2loki_ingest_lag_seconds",
            "sf2loki_loki_push",
            "sf2loki_loki_push_duration_seconds",
            "sf2loki_loki_bytes_pushed",
            "sf2loki_loki_entries_dropped",
            "sf2loki_pipeline_entries_abandoned",
            "sf2loki_last_push_success_timestamp_seconds",
            "sf2loki_lines_truncated",
            "sf2loki_watermark_timestamp_seconds",
            "sf2loki_eventlogfile_files_processed",
            "sf2loki_eventlogfile_rows_ingested",
            "sf2loki_source_last_success_timestamp_seconds",
            "sf2loki_build_info");

    // the lag histogram's bucket boundaries are the catalogue's
    String lagType = catalogue.get("sf2loki_ingest_lag_seconds").type();
    List<Double> specBuckets =
        Arrays.stream(lagType.substring(lagType.indexOf("buckets") + 7).split(","))
            .map(s -> Double.parseDouble(s.strip()))
            .toList();
    MetricData lag =
        collected.stream()
            .filter(md -> md.getName().equals("sf2loki_ingest_lag_seconds"))
            .findFirst()
            .orElseThrow();
    assertThat(lag.getHistogramData().getPoints().iterator().next().getBoundaries())
        .isEqualTo(specBuckets);
  }

  private static Double gaugeValue(Collection<MetricData> data, String name, Attributes attrs) {
    for (MetricData md : data) {
      if (md.getName().equals(name)) {
        for (DoublePointData p : md.getDoubleGaugeData().getPoints()) {
          if (p.getAttributes().equals(attrs)) {
            return p.getValue();
          }
        }
      }
    }
    return null;
  }

  @Test
  @DisplayName(
      "OBS-3: a gauge reports its latest value at every collection, however long ago it was set")
  void obs3_gaugeKeepsReportingLastValue() {
    Attributes login =
        Attributes.of(Sf2lokiMetrics.SOURCE, "eventlogfile", Sf2lokiMetrics.OBJECT, "Login");
    Attributes api =
        Attributes.of(Sf2lokiMetrics.SOURCE, "eventlogfile", Sf2lokiMetrics.OBJECT, "API");
    metrics.watermarkTimestampSeconds.set(1_717_000_000.5, login);
    metrics.watermarkTimestampSeconds.set(1_600_000_000, api);

    String name = "sf2loki_watermark_timestamp_seconds";
    for (int i = 0; i < 5; i++) {
      Collection<MetricData> data = reader.collectAllMetrics();
      assertThat(gaugeValue(data, name, login)).as("collection %d", i).isEqualTo(1_717_000_000.5);
      assertThat(gaugeValue(data, name, api)).as("collection %d", i).isEqualTo(1_600_000_000.0);
    }
    // a new value replaces the old one; the other series keeps reporting
    metrics.watermarkTimestampSeconds.set(1_717_000_100, login);
    for (int i = 0; i < 3; i++) {
      Collection<MetricData> data = reader.collectAllMetrics();
      assertThat(gaugeValue(data, name, login)).isEqualTo(1_717_000_100.0);
      assertThat(gaugeValue(data, name, api)).isEqualTo(1_600_000_000.0);
    }
    // build_info is a gauge set once at construction: still exported, always 1
    Collection<MetricData> data = reader.collectAllMetrics();
    assertThat(
            gaugeValue(data, "sf2loki_build_info", Attributes.of(Sf2lokiMetrics.VERSION, "9.8.7")))
        .isEqualTo(1.0);
  }
}
