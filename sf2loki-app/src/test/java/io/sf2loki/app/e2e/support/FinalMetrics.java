package io.sf2loki.app.e2e.support;

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
 * An {@link InMemoryMetricReader} for {@code DaemonOptions.extraReader} that keeps the last
 * collection: the daemon shuts its meter provider down when {@code run} returns, after which an
 * in-memory reader reports nothing, so this reader collects once more just before its shutdown.
 */
public final class FinalMetrics implements MetricReader {
  private final InMemoryMetricReader delegate = InMemoryMetricReader.create();
  private volatile Collection<MetricData> atShutdown = List.of();

  @Override
  public void register(CollectionRegistration registration) {
    delegate.register(registration);
  }

  @Override
  public AggregationTemporality getAggregationTemporality(InstrumentType instrumentType) {
    return delegate.getAggregationTemporality(instrumentType);
  }

  @Override
  public Aggregation getDefaultAggregation(InstrumentType instrumentType) {
    return delegate.getDefaultAggregation(instrumentType);
  }

  @Override
  public MemoryMode getMemoryMode() {
    return delegate.getMemoryMode();
  }

  @Override
  public CompletableResultCode forceFlush() {
    return delegate.forceFlush();
  }

  @Override
  public CompletableResultCode shutdown() {
    atShutdown = List.copyOf(delegate.collectAllMetrics());
    return delegate.shutdown();
  }

  /** The metrics collected at shutdown (empty before the daemon returned). */
  public Collection<MetricData> collected() {
    return atShutdown;
  }

  /**
   * Points of the long counter {@code name} by attributes, as collected at shutdown (empty when the
   * counter recorded nothing).
   */
  public Map<Attributes, Long> counter(String name) {
    return atShutdown.stream()
        .filter(m -> m.getName().equals(name))
        .flatMap(m -> m.getLongSumData().getPoints().stream())
        .collect(Collectors.toMap(LongPointData::getAttributes, LongPointData::getValue));
  }

  /** The sum of all points of the long counter {@code name} (0 when it recorded nothing). */
  public long counterTotal(String name) {
    return counter(name).values().stream().mapToLong(Long::longValue).sum();
  }
}
