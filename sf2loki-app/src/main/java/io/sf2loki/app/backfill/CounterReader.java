package io.sf2loki.app.backfill;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.metrics.InstrumentType;
import io.opentelemetry.sdk.metrics.data.AggregationTemporality;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.metrics.export.CollectionRegistration;
import io.opentelemetry.sdk.metrics.export.MetricReader;

/**
 * A pull-only metric reader for the run's own meter provider, so the summary can report what the
 * sink counted (SINK-13 restamps, drops by reason; BF-11). Cumulative; read on demand.
 */
final class CounterReader implements MetricReader {
  private volatile CollectionRegistration registration = CollectionRegistration.noop();

  @Override
  public void register(CollectionRegistration registration) {
    this.registration = registration;
  }

  @Override
  public AggregationTemporality getAggregationTemporality(InstrumentType instrumentType) {
    return AggregationTemporality.CUMULATIVE;
  }

  /** The sum of all points of the long counter {@code name} (0 when it recorded nothing). */
  long total(String name) {
    long sum = 0;
    for (MetricData m : registration.collectAllMetrics()) {
      if (m.getName().equals(name)) {
        for (LongPointData p : m.getLongSumData().getPoints()) {
          sum += p.getValue();
        }
      }
    }
    return sum;
  }

  @Override
  public CompletableResultCode forceFlush() {
    return CompletableResultCode.ofSuccess();
  }

  @Override
  public CompletableResultCode shutdown() {
    return CompletableResultCode.ofSuccess();
  }
}
