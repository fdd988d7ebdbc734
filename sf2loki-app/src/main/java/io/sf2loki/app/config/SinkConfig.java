package io.sf2loki.app.config;

/**
 * {@code sink} (SPEC §1.3): required, with the only child {@code loki}.
 *
 * @param loki the Loki sink
 */
public record SinkConfig(LokiConfig loki) {}
