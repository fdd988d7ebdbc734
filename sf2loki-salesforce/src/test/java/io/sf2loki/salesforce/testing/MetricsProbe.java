package io.sf2loki.salesforce.testing;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * An in-memory meter provider, the {@link Sf2lokiMetrics} built on it, and readers over the last
 * collected snapshot ({@link #collect()}), shared by the source tests.
 */
public class MetricsProbe implements AutoCloseable {
  public final InMemoryMetricReader reader = InMemoryMetricReader.create();
  public final SdkMeterProvider provider =
      SdkMeterProvider.builder().registerMetricReader(reader).build();
  public final Sf2lokiMetrics metrics = new Sf2lokiMetrics(provider, "test");
  private Collection<MetricData> last = List.of();

  /** Collects once; later reads use that snapshot until the next collect. */
  public MetricsProbe collect() {
    last = reader.collectAllMetrics();
    return this;
  }

  /** Sum of a counter's points (in the snapshot) whose attributes contain every given pair. */
  public long counter(String name, Map<String, String> attrs) {
    long sum = 0;
    for (MetricData m : last) {
      if (m.getName().equals(name)) {
        for (var p : m.getLongSumData().getPoints()) {
          if (matches(p.getAttributes(), attrs)) {
            sum += p.getValue();
          }
        }
      }
    }
    return sum;
  }

  /** A gauge's value (in the snapshot) for exactly these attributes, or null when absent. */
  public Double gauge(String name, Map<String, String> attrs) {
    for (MetricData m : last) {
      if (m.getName().equals(name)) {
        for (var p : m.getDoubleGaugeData().getPoints()) {
          if (matches(p.getAttributes(), attrs) && p.getAttributes().size() == attrs.size()) {
            return p.getValue();
          }
        }
      }
    }
    return null;
  }

  private static boolean matches(Attributes a, Map<String, String> want) {
    for (var e : want.entrySet()) {
      if (!e.getValue().equals(a.get(AttributeKey.stringKey(e.getKey())))) {
        return false;
      }
    }
    return true;
  }

  @Override
  public void close() {
    metrics.close();
    provider.close();
  }
}
