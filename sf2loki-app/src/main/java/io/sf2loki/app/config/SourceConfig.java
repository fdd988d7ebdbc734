package io.sf2loki.app.config;

import java.util.List;

/**
 * One source of an org as configured (SPEC §1.3 {@code sources.<source>}): the app-level switch and
 * transform rules around the source's own settings record, which the binder builds directly from
 * the YAML (no mirror record, no mapper).
 *
 * @param enabled {@code enabled}
 * @param settings the source's settings record ({@code EventLogFileSettings}, {@code
 *     EventLogObjectsSettings}, {@code ApexLogSettings}), built with {@code finite=false}; null
 *     only inside a load that has already reported a problem (CFG-4)
 * @param transforms {@code transforms} (XF)
 * @param <S> the settings record type
 */
public record SourceConfig<S>(boolean enabled, S settings, List<TransformRule> transforms) {
  public SourceConfig {
    transforms = List.copyOf(transforms);
  }
}
