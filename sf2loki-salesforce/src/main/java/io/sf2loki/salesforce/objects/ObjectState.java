package io.sf2loki.salesforce.objects;

import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.salesforce.source.FailureStreak;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The per-term state of one polled object (SPEC OBJ-1…OBJ-13): its schedule, cursor, failure and
 * stall memory and its late-visibility revisit. Touched only by the source's run thread.
 */
final class ObjectState {
  final ObjectSettings settings;
  final String key;
  final List<String> entryTimestampFields;
  final Map<String, String> labels;
  final Attributes objectAttrs;
  final Attributes typeAttrs;
  final ObjectRevisit revisit;
  long dueNanos;
  ObjectCursor cursor;
  final FailureStreak failures = new FailureStreak();
  String lastStallBoundary;
  String warnedWindowAt;

  ObjectState(ObjectSettings settings, long due, ObjectRevisit revisit) {
    this.settings = settings;
    this.key = EventLogObjectSource.KEY_PREFIX + settings.name();
    List<String> f = new ArrayList<>();
    for (String n : List.of(settings.timestampField(), "EventDate", "CreatedDate")) {
      if (!f.contains(n)) {
        f.add(n);
      }
    }
    this.entryTimestampFields = List.copyOf(f);
    Map<String, String> l = new LinkedHashMap<>();
    l.put("source", EventLogObjectSource.SOURCE);
    l.put("event_type", settings.name());
    this.labels = Map.copyOf(l);
    this.objectAttrs =
        Attributes.of(
            Sf2lokiMetrics.SOURCE,
            EventLogObjectSource.SOURCE,
            Sf2lokiMetrics.OBJECT,
            settings.name());
    this.typeAttrs =
        Attributes.of(
            Sf2lokiMetrics.SOURCE,
            EventLogObjectSource.SOURCE,
            Sf2lokiMetrics.EVENT_TYPE,
            settings.name());
    this.dueNanos = due;
    this.revisit = revisit;
  }
}
