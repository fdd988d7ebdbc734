package io.sf2loki.app.testing;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.common.export.MemoryMode;
import io.opentelemetry.sdk.metrics.Aggregation;
import io.opentelemetry.sdk.metrics.InstrumentType;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.export.CollectionRegistration;
import io.opentelemetry.sdk.metrics.export.MetricReader;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * An in-memory metric reader for tests of a whole daemon: it keeps a last snapshot when the
 * daemon's meter provider shuts it down, so assertions can run after the daemon returned.
 */
public final class RetainingMetricReader implements MetricReader {
  private final InMemoryMetricReader delegate = InMemoryMetricReader.create();
  private volatile Collection<MetricData> last = List.of();
  private volatile boolean shut;

  /** Current metrics while the provider lives, else the snapshot taken at shutdown. */
  public Collection<MetricData> collectAllMetrics() {
    return shut ? last : delegate.collectAllMetrics();
  }

  @Override
  public void register(CollectionRegistration registration) {
    delegate.register(registration);
  }

  @Override
  public CompletableResultCode forceFlush() {
    return delegate.forceFlush();
  }

  @Override
  public CompletableResultCode shutdown() {
    last = List.copyOf(delegate.collectAllMetrics());
    shut = true;
    return delegate.shutdown();
  }

  /** Points of the long counter {@code name} by attributes (empty when it recorded nothing). */
  public Map<Attributes, Long> counter(String name) {
    return collectAllMetrics().stream()
        .filter(m -> m.getName().equals(name))
        .flatMap(m -> m.getLongSumData().getPoints().stream())
        .collect(Collectors.toMap(LongPointData::getAttributes, LongPointData::getValue));
  }

  /** The sum of all points of the long counter {@code name} (0 when it recorded nothing). */
  public long counterTotal(String name) {
    return counter(name).values().stream().mapToLong(Long::longValue).sum();
  }

  /** The sum of the points of counter {@code name} whose attribute {@code key} is {@code value}. */
  public long counterTotal(String name, String key, String value) {
    return counter(name).entrySet().stream()
        .filter(
            e ->
                value.equals(
                    e.getKey().get(io.opentelemetry.api.common.AttributeKey.stringKey(key))))
        .mapToLong(Map.Entry::getValue)
        .sum();
  }

  @Override
  public Aggregation getDefaultAggregation(InstrumentType instrumentType) {
    return delegate.getDefaultAggregation(instrumentType);
  }

  @Override
  public AggregationTemporality getAggregationTemporality(InstrumentType instrumentType) {
    return delegate.getAggregationTemporality(instrumentType);
  }

  @Override
  public MemoryMode getMemoryMode() {
    return delegate.getMemoryMode();
  }
}
