package io.sf2loki.salesforce.objects;

import io.sf2loki.salesforce.elf.RowTransform;
import io.sf2loki.salesforce.source.SourceFactory;
import java.util.random.RandomGenerator;

/**
 * The {@code eventlog_objects} kind (SPEC §5, PIPE-20): one fresh {@link EventLogObjectSource} per
 * term for all configured objects (their shared OBJ-1 schedule and the OBJ-12 throttle push need
 * one instance), none when disabled or without objects.
 */
public final class EventLogObjectsFactory {
  private EventLogObjectsFactory() {}

  /**
   * @param enabled {@code sources.eventlog_objects.enabled}
   * @param settings the org's {@code sources.eventlog_objects} ({@code finite} as the run asks)
   * @param transform compiled {@code sources.eventlog_objects.transforms} (XF), or {@link
   *     RowTransform#NONE}
   */
  public static SourceFactory of(
      boolean enabled, EventLogObjectsSettings settings, RowTransform transform) {
    return SourceFactory.single(
        enabled && !settings.objects().isEmpty(),
        term ->
            new EventLogObjectSource(
                settings,
                term.org().rest(),
                term.context(),
                transform,
                RandomGenerator.of("L64X128MixRandom"))); // SRC-21 jitter, one per term
  }
}
