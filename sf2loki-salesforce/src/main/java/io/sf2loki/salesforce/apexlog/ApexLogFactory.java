package io.sf2loki.salesforce.apexlog;

import io.sf2loki.salesforce.source.SourceFactory;

/**
 * The {@code apexlog} kind (SPEC §7, PIPE-20): one fresh {@link ApexLogSource} per term while
 * enabled, over the org's Tooling API ({@link ToolingApi#over}).
 */
public final class ApexLogFactory {
  private ApexLogFactory() {}

  /**
   * @param enabled {@code sources.apexlog.enabled}
   * @param settings the org's {@code sources.apexlog} ({@code finite} as the run asks)
   * @param transform compiled {@code sources.apexlog.transforms} (metadata only), or {@link
   *     MetadataTransform#NONE}
   */
  public static SourceFactory of(
      boolean enabled, ApexLogSettings settings, MetadataTransform transform) {
    return SourceFactory.single(
        enabled,
        term ->
            new ApexLogSource(
                settings, ToolingApi.over(term.org().rest()), term.context(), transform));
  }
}
