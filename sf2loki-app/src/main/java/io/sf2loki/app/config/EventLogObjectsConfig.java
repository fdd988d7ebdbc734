package io.sf2loki.app.config;

import java.util.List;

/**
 * {@code sources.eventlog_objects} (SPEC §1.3, OBJ).
 *
 * @param enabled default false
 * @param objects the polled objects
 * @param transforms rules applied to every object
 */
public record EventLogObjectsConfig(
    boolean enabled, List<ObjectConfig> objects, List<TransformRule> transforms) {}
