package io.sf2loki.salesforce.elf;

import io.sf2loki.core.spi.Source;
import io.sf2loki.salesforce.source.OrgTerm;
import io.sf2loki.salesforce.source.SourceFactory;
import java.util.List;
import java.util.Objects;

/**
 * The {@code eventlogfile} kind (SPEC §6, PIPE-20): one fresh {@link EventLogFileSource} per term
 * while enabled, reading the org's files through its REST client and skipping discovered types the
 * term's SRC-24 registry says are owned elsewhere.
 */
public final class EventLogFileFactory implements SourceFactory {
  private final boolean enabled;
  private final EventLogFileSettings settings;
  private final RowTransform transform;

  /**
   * @param enabled {@code sources.eventlogfile.enabled}
   * @param settings the org's {@code sources.eventlogfile} ({@code finite} as the run asks)
   * @param transform compiled {@code sources.eventlogfile.transforms} (XF), or {@link
   *     RowTransform#NONE}
   */
  public EventLogFileFactory(
      boolean enabled, EventLogFileSettings settings, RowTransform transform) {
    this.enabled = enabled;
    this.settings = Objects.requireNonNull(settings, "settings");
    this.transform = Objects.requireNonNull(transform, "transform");
  }

  @Override
  public List<Source> create(OrgTerm term) {
    if (!enabled) {
      return List.of();
    }
    return List.of(
        new EventLogFileSource(
            settings,
            term.org().rest(),
            term.context(),
            transform,
            term.ownership()::elfTypeOwnedElsewhere)); // SRC-24
  }
}
