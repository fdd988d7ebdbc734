package io.sf2loki.salesforce.objects;

import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * One org's {@code sources.eventlog_objects} (SPEC §1.3, OBJ).
 *
 * @param objects the polled objects in configuration order (names unique, case-insensitively)
 * @param structuredMetadataFields global {@code sink.loki.structured_metadata_fields} (SRC-9)
 * @param finite when true, {@link EventLogObjectSource#run} returns after the first round in which
 *     no object's cursor advanced (demos, finite runs); false = poll forever
 */
public record EventLogObjectsSettings(
    List<ObjectSettings> objects, List<String> structuredMetadataFields, boolean finite) {
  /**
   * @throws IllegalArgumentException on duplicate object names
   */
  public EventLogObjectsSettings {
    objects = List.copyOf(objects);
    structuredMetadataFields =
        structuredMetadataFields == null ? List.of() : List.copyOf(structuredMetadataFields);
    Set<String> seen = new HashSet<>();
    for (ObjectSettings o : objects) {
      if (!seen.add(o.name().toLowerCase(Locale.ROOT))) {
        throw new IllegalArgumentException("duplicate object " + o.name());
      }
    }
  }

  /** Returns a copy with another {@code finite} flag. */
  public EventLogObjectsSettings withFinite(boolean newFinite) {
    return new EventLogObjectsSettings(objects, structuredMetadataFields, newFinite);
  }
}
