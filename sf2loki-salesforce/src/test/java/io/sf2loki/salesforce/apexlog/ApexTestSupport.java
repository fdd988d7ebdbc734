package io.sf2loki.salesforce.apexlog;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.spi.EntryEmitter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/** Metrics probe and a collecting emitter for the ApexLog tests. */
final class ApexTestSupport {
  private ApexTestSupport() {}

  /** In-memory metrics. */
  static final class Metrics implements AutoCloseable {
    final InMemoryMetricReader reader = InMemoryMetricReader.create();
    final SdkMeterProvider provider =
        SdkMeterProvider.builder().registerMetricReader(reader).build();
    final Sf2lokiMetrics metrics = new Sf2lokiMetrics(provider, "test");
    private Collection<MetricData> last = List.of();

    Metrics collect() {
      last = reader.collectAllMetrics();
      return this;
    }

    /** Sum of a counter's points whose attributes contain every given pair (collects first). */
    long counter(String name, Map<String, String> attrs) {
      collect();
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

    /** A gauge's value for exactly these attributes, or null (collects first). */
    Double gauge(String name, Map<String, String> attrs) {
      collect();
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

  /** Collects every emitted entry. */
  static final class Collector implements EntryEmitter {
    private final List<LogEntry> entries = new ArrayList<>();

    @Override
    public synchronized boolean emit(LogEntry entry) {
      entries.add(entry);
      return true;
    }

    synchronized List<LogEntry> entries() {
      return List.copyOf(entries);
    }

    synchronized List<LogEntry> real() {
      return entries.stream().filter(e -> !e.checkpointOnly()).toList();
    }

    synchronized void clear() {
      entries.clear();
    }

    /** The last token value emitted, or null. */
    synchronized String lastValue() {
      return entries.isEmpty() ? null : entries.getLast().checkpoint().value();
    }
  }
}
