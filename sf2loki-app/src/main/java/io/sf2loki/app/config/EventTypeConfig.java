package io.sf2loki.app.config;

import java.util.List;
import java.util.Optional;

/**
 * {@code sources.eventlogfile.event_types[]} (SPEC §1.3, CFG-16, CFG-17). A bare string item {@code
 * X} binds as {@code {name: X}}.
 *
 * @param name SOQL identifier or {@code "*"}
 * @param structuredMetadataFields empty = use the global list ({@code null} in YAML); present and
 *     empty = none
 * @param labels promoted columns (CFG-16)
 * @param sample rate in (0, 1], default 1.0
 */
public record EventTypeConfig(
    String name,
    Optional<List<String>> structuredMetadataFields,
    List<String> labels,
    double sample) {}
