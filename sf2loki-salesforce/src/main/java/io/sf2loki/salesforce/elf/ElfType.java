package io.sf2loki.salesforce.elf;

import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.salesforce.source.FailureStreak;

/**
 * One EventLogFile type's state for the term (SPEC ELF-4, SRC-19): its checkpoint key, shaper,
 * cursor (loaded at its first cycle) and listing failure streak. Touched by at most one worker at a
 * time.
 */
final class ElfType {
  /** Checkpoint key prefix: {@code eventlogfile:<EventType>} (SRC-15). */
  static final String KEY_PREFIX = "eventlogfile:";

  final String name;
  final String key;
  final RowShaper shaper;
  final Attributes eventTypeAttrs;
  final Attributes objectAttrs;
  final FailureStreak failures = new FailureStreak();
  ElfCursor cursor;

  ElfType(String name, RowShaper shaper) {
    this.name = name;
    this.key = KEY_PREFIX + name;
    this.shaper = shaper;
    this.eventTypeAttrs = Attributes.of(Sf2lokiMetrics.EVENT_TYPE, name);
    this.objectAttrs =
        Attributes.of(Sf2lokiMetrics.SOURCE, RowShaper.SOURCE, Sf2lokiMetrics.OBJECT, name);
  }
}
