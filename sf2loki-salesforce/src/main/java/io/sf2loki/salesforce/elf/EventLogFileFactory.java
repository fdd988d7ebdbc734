package io.sf2loki.salesforce.elf;

import io.sf2loki.salesforce.source.SourceFactory;

/**
 * The {@code eventlogfile} kind (SPEC §6, PIPE-20): one fresh {@link EventLogFileSource} per term
 * while enabled, reading the org's files through its REST client and skipping discovered types the
 * term's SRC-24 registry says are owned elsewhere.
 */
public final class EventLogFileFactory {
  private EventLogFileFactory() {}

  /**
   * @param enabled {@code sources.eventlogfile.enabled}
   * @param settings the org's {@code sources.eventlogfile} ({@code finite} as the run asks)
   * @param transform compiled {@code sources.eventlogfile.transforms} (XF), or {@link
   *     RowTransform#NONE}
   */
  public static SourceFactory of(
      boolean enabled, EventLogFileSettings settings, RowTransform transform) {
    return SourceFactory.single(
        enabled,
        term ->
            new EventLogFileSource(
                settings,
                term.org().rest(),
                term.context(),
                transform,
                term.ownership()::elfTypeOwnedElsewhere)); // SRC-24
  }
}
