package io.sf2loki.salesforce.elf;

import io.sf2loki.salesforce.testing.EntryCollector;
import io.sf2loki.salesforce.testing.MetricsProbe;

/** Metrics reading and a collecting emitter for ELF tests. */
final class ElfTestSupport {
  private ElfTestSupport() {}

  /** An in-memory meter provider and the metrics built on it (snapshot reads). */
  static final class Metrics extends MetricsProbe {}

  /** Collects every emitted entry; thread-safe. */
  static final class Collector extends EntryCollector {}
}
