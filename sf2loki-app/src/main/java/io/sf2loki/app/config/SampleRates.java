package io.sf2loki.app.config;

import io.sf2loki.core.transform.Glob;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import java.util.regex.Pattern;

/**
 * The compiled {@code sources.pubsub.sample} map (SPEC XF-9, XF-11): the rate of the first glob, in
 * configured order, that matches the topic; 1.0 when none matches. Equal when the maps are equal,
 * so a bound {@code PubSubReaderSettings} compares by value (CFG-11 default check).
 */
final class SampleRates implements ToDoubleFunction<String> {
  private final Map<String, Double> rates;
  private final List<Map.Entry<Pattern, Double>> rules;

  /**
   * @param rates glob → rate in (0, 1], in configured order
   */
  SampleRates(Map<String, Double> rates) {
    this.rates = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(rates));
    this.rules =
        this.rates.entrySet().stream()
            .map(e -> Map.entry(Glob.toPattern(e.getKey()), e.getValue()))
            .toList();
  }

  /** The configured map, in order. */
  Map<String, Double> rates() {
    return rates;
  }

  @Override
  public double applyAsDouble(String topic) {
    for (Map.Entry<Pattern, Double> r : rules) {
      if (r.getKey().matcher(topic).matches()) {
        return r.getValue();
      }
    }
    return 1.0;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof SampleRates s && s.rates.equals(rates);
  }

  @Override
  public int hashCode() {
    return rates.hashCode();
  }

  @Override
  public String toString() {
    return "SampleRates" + rates;
  }
}
