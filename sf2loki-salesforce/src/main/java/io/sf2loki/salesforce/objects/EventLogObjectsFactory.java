package io.sf2loki.salesforce.objects;

import io.sf2loki.core.spi.Source;
import io.sf2loki.salesforce.elf.RowTransform;
import io.sf2loki.salesforce.source.OrgTerm;
import io.sf2loki.salesforce.source.SourceFactory;
import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * The {@code eventlog_objects} kind (SPEC §5, PIPE-20): one fresh {@link EventLogObjectSource} per
 * term for all configured objects (their shared OBJ-1 schedule and the OBJ-12 throttle push need
 * one instance), none when disabled or without objects.
 */
public final class EventLogObjectsFactory implements SourceFactory {
  private final boolean enabled;
  private final EventLogObjectsSettings settings;
  private final RowTransform transform;

  /**
   * @param enabled {@code sources.eventlog_objects.enabled}
   * @param settings the org's {@code sources.eventlog_objects} ({@code finite} as the run asks)
   * @param transform compiled {@code sources.eventlog_objects.transforms} (XF), or {@link
   *     RowTransform#NONE}
   */
  public EventLogObjectsFactory(
      boolean enabled, EventLogObjectsSettings settings, RowTransform transform) {
    this.enabled = enabled;
    this.settings = Objects.requireNonNull(settings, "settings");
    this.transform = Objects.requireNonNull(transform, "transform");
  }

  @Override
  public List<Source> create(OrgTerm term) {
    if (!enabled || settings.objects().isEmpty()) {
      return List.of();
    }
    return List.of(
        new EventLogObjectSource(
            settings,
            term.org().rest(),
            term.context(),
            transform,
            RandomGenerator.of("L64X128MixRandom"))); // SRC-21 jitter, one per term
  }
}
