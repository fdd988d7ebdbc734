package io.sf2loki.app.config;

import java.util.List;

/**
 * The whole, validated configuration (SPEC §1). Single-org configurations are normalised to one org
 * with the empty name (CFG-12); {@link #multiOrg()} tells the two modes apart.
 *
 * @param orgs at least one org; in legacy mode exactly one, named {@code ""}
 * @param multiOrg true when the file used a non-empty {@code orgs} list (even with one element)
 * @param loki {@code sink.loki}: the Loki sink (the only sink)
 * @param pipeline {@code sink.loki.batch}, {@code service.shutdown_grace} and {@code
 *     state.min_write_interval} as the pipeline's bounds (PIPE-3, PIPE-5, PIPE-9, PIPE-13); no
 *     static labels (the daemon adds them per org, PIPE-4)
 * @param state deployment-wide checkpoint store settings
 * @param coordinate deployment-wide coordinator settings
 * @param service deployment-wide service settings
 * @param warnings startup WARN notes (CFG-23, CFG-24, {@code pubsub.tls}) the caller logs once each
 */
public record Sf2lokiConfig(
    List<OrgConfig> orgs,
    boolean multiOrg,
    LokiConfig loki,
    io.sf2loki.core.pipeline.PipelineSettings pipeline,
    StateConfig state,
    CoordinateConfig coordinate,
    ServiceConfig service,
    List<String> warnings) {
  public Sf2lokiConfig {
    orgs = List.copyOf(orgs);
    warnings = List.copyOf(warnings);
  }

  /** The org named {@code name}, or empty. */
  public java.util.Optional<OrgConfig> org(String name) {
    return orgs.stream().filter(o -> o.name().equals(name)).findFirst();
  }
}
