package io.sf2loki.app.config;

import java.util.Optional;

/**
 * {@code sources} / {@code orgs[].sources} (SPEC §1.3).
 *
 * @param allowOverlap disables the overlap guard (SRC-22…24); default false
 * @param transformSalt salt for {@code hash} rules (CFG-7 secret); absent = {@code ""} (CFG-24)
 * @param pubsub Pub/Sub source
 * @param eventlogObjects SOQL object source
 * @param eventlogfile EventLogFile source
 * @param apexlog ApexLog source
 */
public record SourcesConfig(
    boolean allowOverlap,
    Optional<Secret> transformSalt,
    PubSubConfig pubsub,
    EventLogObjectsConfig eventlogObjects,
    EventLogFileConfig eventlogfile,
    ApexLogConfig apexlog) {}
