package io.sf2loki.salesforce.apexlog;

import io.sf2loki.core.spi.Source;
import io.sf2loki.salesforce.source.OrgTerm;
import io.sf2loki.salesforce.source.SourceFactory;
import java.util.List;
import java.util.Objects;

/**
 * The {@code apexlog} kind (SPEC §7, PIPE-20): one fresh {@link ApexLogSource} per term while
 * enabled, over the org's Tooling API ({@link ToolingApi#over}).
 */
public final class ApexLogFactory implements SourceFactory {
  private final boolean enabled;
  private final ApexLogSettings settings;
  private final MetadataTransform transform;

  /**
   * @param enabled {@code sources.apexlog.enabled}
   * @param settings the org's {@code sources.apexlog} ({@code finite} as the run asks)
   * @param transform compiled {@code sources.apexlog.transforms} (metadata only), or {@link
   *     MetadataTransform#NONE}
   */
  public ApexLogFactory(boolean enabled, ApexLogSettings settings, MetadataTransform transform) {
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
        new ApexLogSource(settings, ToolingApi.over(term.org().rest()), term.context(), transform));
  }
}
