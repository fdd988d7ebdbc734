package io.sf2loki.salesforce.apexlog;

import io.sf2loki.salesforce.testing.EntryCollector;
import io.sf2loki.salesforce.testing.MetricsProbe;
import java.util.Map;

/** Metrics probe and a collecting emitter for the ApexLog tests. */
final class ApexTestSupport {
  private ApexTestSupport() {}

  /** In-memory metrics whose readers collect first. */
  static final class Metrics extends MetricsProbe {
    @Override
    public long counter(String name, Map<String, String> attrs) {
      collect();
      return super.counter(name, attrs);
    }

    @Override
    public Double gauge(String name, Map<String, String> attrs) {
      collect();
      return super.gauge(name, attrs);
    }
  }

  /** Collects every emitted entry. */
  static final class Collector extends EntryCollector {}
}
