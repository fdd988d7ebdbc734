package io.sf2loki.core.metrics;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.metrics.ObservableDoubleGauge;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A gauge whose latest value per attribute set is reported at every collection for the life of the
 * series (SPEC OBS-3). Backed by one observable callback registered once per application instance
 * (OBS-13); values live in this process-lifetime holder, never in per-term objects.
 */
public final class GaugeValues {
  private final Map<Attributes, Double> values = new ConcurrentHashMap<>();
  private final ObservableDoubleGauge handle;

  GaugeValues(Meter meter, String name, String description) {
    this.handle =
        meter
            .gaugeBuilder(name)
            .setDescription(description)
            .setUnit("")
            .buildWithCallback(m -> values.forEach((attrs, v) -> m.record(v, attrs)));
  }

  /** Sets the value for an attribute set. */
  public void set(double value, Attributes attributes) {
    values.put(attributes, value);
  }

  /**
   * Sets the idle value of an attribute set that has none yet (OBS-20), leaving a value a component
   * already recorded untouched.
   */
  public void setIfAbsent(double value, Attributes attributes) {
    values.putIfAbsent(attributes, value);
  }

  /** Sets the value for the empty attribute set. */
  public void set(double value) {
    set(value, Attributes.empty());
  }

  /** The latest value for an attribute set, or NaN when never set (for tests and /statusz). */
  public double get(Attributes attributes) {
    return values.getOrDefault(attributes, Double.NaN);
  }

  /** Closes the underlying callback. */
  void close() {
    handle.close();
  }
}
