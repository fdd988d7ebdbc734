package io.sf2loki.app.config;

import io.sf2loki.salesforce.apexlog.ApexLogSettings;
import io.sf2loki.salesforce.elf.EventLogFileSettings;
import io.sf2loki.salesforce.objects.EventLogObjectsSettings;
import java.util.Optional;

/**
 * {@code sources} / {@code orgs[].sources} (SPEC §1.3).
 *
 * @param allowOverlap disables the overlap guard (SRC-22…24); default false
 * @param transformSalt salt for {@code hash} rules (CFG-7 secret); absent = {@code ""} (CFG-24)
 * @param pubsub Pub/Sub source
 * @param eventlogObjects SOQL object source
 * @param eventlogfile EventLogFile source (CFG-17: a repeated type name is already dropped)
 * @param apexlog ApexLog source
 */
public record SourcesConfig(
    boolean allowOverlap,
    Optional<Secret> transformSalt,
    PubSubConfig pubsub,
    SourceConfig<EventLogObjectsSettings> eventlogObjects,
    SourceConfig<EventLogFileSettings> eventlogfile,
    SourceConfig<ApexLogSettings> apexlog) {}
