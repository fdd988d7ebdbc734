package io.sf2loki.app.testing;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.common.export.MemoryMode;
import io.opentelemetry.sdk.metrics.InstrumentType;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.export.CollectionRegistration;
import io.opentelemetry.sdk.metrics.export.MetricReader;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import java.util.Collection;
import java.util.List;

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
    last = delegate.collectAllMetrics();
    shut = true;
    return delegate.shutdown();
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
