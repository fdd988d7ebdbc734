package io.sf2loki.core.metrics;

import io.opentelemetry.api.common.AttributeKey;
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
  private final Map<Attributes, Double> values;
  private final ObservableDoubleGauge handle; // null for a view
  private final Attributes extra; // added to every attribute set (a per-org view, OBS-4)

  private GaugeValues(Map<Attributes, Double> values, Attributes extra) {
    this.values = values;
    this.handle = null;
    this.extra = extra;
  }

  GaugeValues(Meter meter, String name, String description) {
    this.values = new ConcurrentHashMap<>();
    this.extra = Attributes.empty();
    this.handle =
        meter
            .gaugeBuilder(name)
            .setDescription(description)
            .setUnit("")
            .buildWithCallback(m -> values.forEach((attrs, v) -> m.record(v, attrs)));
  }

  /**
   * A view of this gauge that adds {@code key=value} to every attribute set it writes or reads
   * (SPEC OBS-4: a per-org component's series carry {@code org}); closing it closes nothing.
   */
  GaugeValues with(AttributeKey<String> key, String value) {
    return new GaugeValues(values, extra.toBuilder().put(key, value).build());
  }

  private Attributes full(Attributes attributes) {
    if (extra.isEmpty()) {
      return attributes;
    }
    return attributes.toBuilder().putAll(extra).build();
  }

  /** Sets the value for an attribute set. */
  public void set(double value, Attributes attributes) {
    values.put(full(attributes), value);
  }

  /**
   * Sets the idle value of an attribute set that has none yet (OBS-20), leaving a value a component
   * already recorded untouched.
   */
  public void setIfAbsent(double value, Attributes attributes) {
    values.putIfAbsent(full(attributes), value);
  }

  /** Sets the value for the empty attribute set. */
  public void set(double value) {
    set(value, Attributes.empty());
  }

  /** The latest value for an attribute set, or NaN when never set (for tests and /statusz). */
  public double get(Attributes attributes) {
    return values.getOrDefault(full(attributes), Double.NaN);
  }

  /** Closes the underlying callback. */
  void close() {
    if (handle != null) {
      handle.close();
    }
  }
}
