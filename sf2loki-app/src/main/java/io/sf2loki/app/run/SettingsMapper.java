package io.sf2loki.app.run;

import io.sf2loki.app.config.ApexLogConfig;
import io.sf2loki.app.config.EventLogFileConfig;
import io.sf2loki.app.config.EventLogObjectsConfig;
import io.sf2loki.app.config.EventTypeConfig;
import io.sf2loki.app.config.LokiConfig;
import io.sf2loki.app.config.OrgConfig;
import io.sf2loki.app.config.RevisitConfig;
import io.sf2loki.app.config.SalesforceConfig;
import io.sf2loki.app.config.Secret;
import io.sf2loki.app.config.ServiceConfig;
import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.app.telemetry.TelemetrySettings;
import io.sf2loki.core.egress.BudgetAction;
import io.sf2loki.core.egress.EgressSettings;
import io.sf2loki.core.pipeline.PipelineSettings;
import io.sf2loki.loki.Compression;
import io.sf2loki.loki.Encoding;
import io.sf2loki.loki.LokiSinkSettings;
import io.sf2loki.loki.MetadataMode;
import io.sf2loki.salesforce.apexlog.ApexLogSettings;
import io.sf2loki.salesforce.auth.AuthMode;
import io.sf2loki.salesforce.auth.SalesforceAuthSettings;
import io.sf2loki.salesforce.elf.EventLogFileSettings;
import io.sf2loki.salesforce.objects.EventLogObjectsSettings;
import io.sf2loki.salesforce.objects.ObjectSettings;
import io.sf2loki.salesforce.revisit.RevisitSettings;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Maps the validated configuration (SPEC §1.3) onto the settings records of the components. Pure
 * functions; secrets are revealed only into the settings that need them.
 */
final class SettingsMapper {
  private SettingsMapper() {}

  /**
   * {@code sink.loki} → the HTTP sink's settings (SINK-2…SINK-5, SINK-12, SINK-13, SINK-15,
   * CFG-23).
   */
  static LokiSinkSettings sink(LokiConfig loki, String version) {
    return new LokiSinkSettings(
            URI.create(loki.url()),
            loki.tenantId().orElse(null),
            loki.authToken().map(Secret::reveal).orElse(null),
            loki.encoding() == LokiConfig.Encoding.JSON ? Encoding.JSON : Encoding.PROTOBUF,
            switch (loki.compression()) {
              case SNAPPY -> Compression.SNAPPY;
              case GZIP -> Compression.GZIP;
              case NONE -> Compression.NONE;
            },
            switch (loki.structuredMetadata()) {
              case AUTO -> MetadataMode.AUTO;
              case ON -> MetadataMode.ON;
              case OFF -> MetadataMode.OFF;
            },
            version,
            LokiSinkSettings.DEFAULT_CONNECT_TIMEOUT,
            loki.requestTimeout())
        .withLateEntries(
            loki.lateEntries() == LokiConfig.LateEntries.DROP
                ? LokiSinkSettings.LateEntries.DROP
                : LokiSinkSettings.LateEntries.RESTAMP)
        .withBatchLimits(loki.batch().maxEntries(), loki.batch().maxBytes())
        .withLateRouting(loki.outOfOrderWindow(), loki.maxTrackedStreams());
  }

  /** {@code salesforce} → the token provider's settings (AUTH-3, AUTH-4). */
  static SalesforceAuthSettings auth(SalesforceConfig sf) {
    return new SalesforceAuthSettings(
        URI.create(sf.loginUrl()),
        sf.environment().yaml(),
        sf.authMode() == SalesforceConfig.AuthMode.CLIENT_CREDENTIALS
            ? AuthMode.CLIENT_CREDENTIALS
            : AuthMode.JWT_BEARER,
        sf.clientId(),
        sf.clientSecret().map(Secret::reveal).orElse(null),
        sf.username(),
        sf.privateKey().map(Secret::reveal).orElse(null),
        sf.jwtAudience(),
        sf.tokenTtl());
  }

  /** {@code sink.loki.egress} → the governor's settings (EGR-1). */
  static EgressSettings egress(LokiConfig loki) {
    LokiConfig.Egress e = loki.egress();
    return new EgressSettings(
        e.maxLinesPerSecond(),
        e.maxBytesPerSecond(),
        e.dailyByteBudget(),
        e.budgetAction() == LokiConfig.BudgetAction.DROP ? BudgetAction.DROP : BudgetAction.PAUSE);
  }

  /** {@code sink.loki.batch} + {@code service.shutdown_grace} → pipeline bounds (PIPE-3…5). */
  static PipelineSettings pipeline(Sf2lokiConfig cfg, Map<String, String> staticLabels) {
    LokiConfig.Batch b = cfg.sink().loki().batch();
    return new PipelineSettings(
        b.maxEntries(),
        b.maxBytes(),
        b.flushInterval(),
        b.queueMaxsize(),
        b.queueMaxBytes(),
        cfg.service().shutdownGrace(),
        Duration.ofSeconds(1),
        Duration.ofSeconds(30),
        staticLabels,
        cfg.state().minWriteInterval());
  }

  /**
   * Static labels of a single-org deployment (PIPE-4): {@code job}, {@code service_name}, {@code
   * environment}, {@code sf_org_id}, then {@code sink.loki.labels} (operator wins).
   */
  static Map<String, String> staticLabels(Sf2lokiConfig cfg, OrgConfig org, String orgId) {
    Map<String, String> labels = new LinkedHashMap<>();
    labels.put("job", "sf2loki");
    labels.put("service_name", "sf2loki");
    labels.put("environment", org.salesforce().environment().yaml());
    labels.put("sf_org_id", orgId);
    labels.putAll(cfg.sink().loki().labels());
    return labels;
  }

  /** {@code sources.eventlogfile} → the source's settings (ELF, CFG-17, CFG-18). */
  static EventLogFileSettings eventLogFile(
      EventLogFileConfig elf, List<String> globalMetadataFields, boolean finite) {
    // a repeated name (case-insensitive) is ignored, as the loader warned (CFG-17)
    java.util.Set<String> seen = new java.util.HashSet<>();
    List<EventLogFileSettings.EventTypeSettings> types =
        elf.eventTypes().stream()
            .filter(t -> seen.add(t.name().toLowerCase(java.util.Locale.ROOT)))
            .map(SettingsMapper::eventType)
            .toList();
    return new EventLogFileSettings(
        elf.interval() == EventLogFileConfig.Interval.DAILY
            ? EventLogFileSettings.Interval.Daily
            : EventLogFileSettings.Interval.Hourly,
        types,
        elf.exclude(),
        elf.pollInterval(),
        elf.lookback(),
        elf.timestampColumn(),
        elf.pageSize(),
        elf.settleWindow(),
        elf.downloadMaxAge(),
        elf.concurrency(),
        globalMetadataFields,
        finite);
  }

  /** {@code sources.apexlog} → the ApexLog source's settings (APX, §1.3). */
  static ApexLogSettings apexLog(
      ApexLogConfig apex, List<String> globalMetadataFields, boolean finite) {
    return new ApexLogSettings(
        apex.pollInterval(),
        apex.lookback(),
        apex.users(),
        apex.maxBodyBytes(),
        apex.sample(),
        globalMetadataFields,
        finite,
        revisit(apex.revisit()));
  }

  /** The revisit keys → the source's revisit settings (OBJ-13…OBJ-17, APX-10). */
  static RevisitSettings revisit(RevisitConfig r) {
    return new RevisitSettings(r.window(), r.interval(), r.maxKeys());
  }

  private static EventLogFileSettings.EventTypeSettings eventType(EventTypeConfig t) {
    return new EventLogFileSettings.EventTypeSettings(
        t.name(), t.structuredMetadataFields().orElse(null), t.labels(), t.sample());
  }

  /** {@code sources.eventlog_objects} → the object source's settings (OBJ, §1.3). */
  static EventLogObjectsSettings eventLogObjects(
      EventLogObjectsConfig cfg, List<String> globalMetadataFields, boolean finite) {
    return new EventLogObjectsSettings(
        cfg.objects().stream()
            .map(
                o ->
                    new ObjectSettings(
                        o.name(),
                        o.timestampField(),
                        o.pollInterval(),
                        o.lookback(),
                        o.settleWindow(),
                        o.sample(),
                        o.bigObject(),
                        o.maxCatchupRecords(),
                        o.maxCatchupBytes(),
                        o.tiebreakField(),
                        revisit(o.revisit())))
            .toList(),
        globalMetadataFields,
        finite);
  }

  /**
   * {@code service.telemetry} → the telemetry settings (OBS-1, FEAT-15); the CFG-9 fallbacks to the
   * Loki tenant and token were applied by the loader.
   */
  static TelemetrySettings telemetry(Sf2lokiConfig cfg) {
    ServiceConfig.Telemetry t = cfg.service().telemetry();
    return new TelemetrySettings(
        t.enabled(),
        t.endpoint(),
        t.auth() == ServiceConfig.TelemetryAuth.NONE
            ? TelemetrySettings.Auth.NONE
            : TelemetrySettings.Auth.BASIC,
        t.basicAuthUser(),
        t.basicAuthToken().map(Secret::reveal).orElse(""),
        t.headers(),
        t.exportInterval(),
        t.resourceAttributes(),
        t.prometheus().enabled());
  }
}
