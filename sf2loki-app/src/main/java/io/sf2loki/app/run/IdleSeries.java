package io.sf2loki.app.run;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.LongCounter;
import io.sf2loki.app.config.OrgConfig;
import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.app.config.SourcesConfig;
import io.sf2loki.app.config.TransformRule;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.Lane;
import io.sf2loki.salesforce.apexlog.ApexLogSource;
import io.sf2loki.salesforce.elf.EventLogFileSettings.EventTypeSettings;
import io.sf2loki.salesforce.objects.EventLogObjectSource;
import io.sf2loki.salesforce.objects.ObjectSettings;
import io.sf2loki.salesforce.pubsub.PubSubTopics;
import io.sf2loki.salesforce.pubsub.TopicReader;
import java.util.ArrayList;
import java.util.List;

/**
 * SPEC OBS-20: every counter of the OBS-5 catalogue starts at 0 for each attribute set the
 * configuration makes known (each drop reason, each configured topic, object, event type, rule),
 * and every gauge with an idle value starts at it, so the first scrape (Prometheus) and the first
 * export (OTLP) already carry the series and {@code rate()}/{@code increase()} see the first event.
 * Timestamp gauges ({@code *_timestamp_seconds}), the org-limit gauges and histograms have no idle
 * value and appear with their first observation. Attribute sets are exactly the ones the recording
 * components use.
 */
final class IdleSeries {
  static final String ELF = "eventlogfile";
  static final List<String> DROP_REASONS =
      List.of(
          "bad_request",
          "oversized_413",
          "budget",
          "permanent",
          "too_far_behind",
          "too_old",
          "too_new",
          "line_too_long");
  static final List<String> RESTAMP_REASONS = List.of("too_far_behind", "too_old", "too_new");

  private final Sf2lokiMetrics m;

  private IdleSeries(Sf2lokiMetrics m) {
    this.m = m;
  }

  /**
   * Records the idle series of the deployment-wide components and of every org (multi-org: with
   * {@code org}, OBS-4).
   *
   * @param cfg the configuration
   * @param m the instance's metrics
   */
  static void install(Sf2lokiConfig cfg, Sf2lokiMetrics m) {
    new IdleSeries(m).sinkAndPipeline();
    for (OrgConfig org : cfg.orgs()) {
      new IdleSeries(cfg.multiOrg() ? m.forOrg(org.name()) : m).org(org); // OBS-4
    }
  }

  private void sinkAndPipeline() {
    zero(m.lokiPush, Attributes.of(Sf2lokiMetrics.OUTCOME, "success"));
    zero(m.lokiPush, Attributes.of(Sf2lokiMetrics.OUTCOME, "retried"));
    zero(m.lokiBytesPushed, Attributes.empty());
    DROP_REASONS.forEach(r -> zero(m.lokiEntriesDropped, Attributes.of(Sf2lokiMetrics.REASON, r)));
    for (String r : RESTAMP_REASONS) {
      for (String stage : List.of("routed", "rejected")) {
        zero(
            m.lokiEntriesRestamped,
            Attributes.of(Sf2lokiMetrics.REASON, r, Sf2lokiMetrics.STAGE, stage));
      }
    }
    for (String mode : List.of("targeted", "bisection")) {
      zero(m.lokiEntriesResent, Attributes.of(Sf2lokiMetrics.MODE, mode));
    }
    zero(m.lokiPartialAcceptanceFallbacks, Attributes.empty());
    for (String layer : List.of("in_sink", "tenant_gate", "batch_retry")) {
      zero(m.lokiRetryAfterWaits, Attributes.of(Sf2lokiMetrics.LAYER, layer));
    }
    for (Lane lane : Lane.values()) {
      for (String r : List.of("shutdown", "drain_timeout", "leadership_lost")) {
        zero(
            m.pipelineEntriesAbandoned,
            Attributes.of(Sf2lokiMetrics.LANE, lane.label(), Sf2lokiMetrics.REASON, r));
      }
    }
    zero(m.checkpointWriteErrors, Attributes.empty());
    zero(m.leaderAcquisitions, Attributes.empty());
    for (String op : List.of("read", "write", "store_read", "store_write")) {
      zero(m.leaseErrors, Attributes.of(Coordinators.OPERATION, op));
    }
    for (String r : List.of("foreign_holder", "renew_deadline", "conflict", "demoted", "lock")) {
      zero(m.leaseSurrenders, Attributes.of(Sf2lokiMetrics.REASON, r));
    }
    idle(m.egressPaused);
    idle(m.egressBudgetUsedBytes);
    idle(m.lokiTrackedStreams);
    idle(m.lokiStructuredMetadataEnabled);
    idle(m.leader);
  }

  private void org(OrgConfig org) {
    SourcesConfig src = org.sources();
    zero(m.authRefreshes, Attributes.empty());
    zero(m.authErrors, Attributes.empty());
    zero(m.salesforceMalformedResponses, Attributes.of(Sf2lokiMetrics.API, "soql"));
    zero(m.salesforceApiThrottled, Attributes.of(Sf2lokiMetrics.API, "soql"));
    if (org.salesforce().limits().enabled()) {
      zero(m.salesforceLimitsPollErrors, Attributes.empty());
      idle(m.salesforceApiReservePaused);
    }
    if (src.pubsub().enabled() && !src.pubsub().topics().isEmpty()) {
      pubsub(src.pubsub().explicitTopics(), src.pubsub().transforms());
    }
    if (src.eventlogObjects().enabled() && !src.eventlogObjects().settings().objects().isEmpty()) {
      List<String> names = new ArrayList<>();
      src.eventlogObjects().settings().objects().stream()
          .map(ObjectSettings::name)
          .forEach(names::add);
      objects(names, src.eventlogObjects().transforms());
    }
    if (src.eventlogfile().enabled()) {
      eventLogFile(
          src.eventlogfile().settings().eventTypes().stream()
              .map(EventTypeSettings::name)
              .filter(n -> !n.contains("*"))
              .toList(),
          src.eventlogfile().transforms());
    }
    if (src.apexlog().enabled()) {
      apexLog(src.apexlog().transforms());
    }
  }

  private void pubsub(List<String> topics, List<TransformRule> transforms) {
    source(TopicReader.SOURCE, transforms);
    idle(m.schemaCacheSize);
    for (String t : topics) {
      Attributes a = Attributes.of(Sf2lokiMetrics.TOPIC, t);
      zero(m.pubsubReconnects, a);
      zero(m.pubsubReplayFallbacks, a);
      zero(m.pubsubStreamStalls, a);
      zero(m.pubsubDecodeStalls, a);
      zero(
          m.decodeErrors,
          Attributes.of(
              Sf2lokiMetrics.REASON,
              io.sf2loki.salesforce.pubsub.AvroDecodeException.class.getSimpleName(),
              Sf2lokiMetrics.TOPIC,
              t));
      m.pubsubStreamUp.setIfAbsent(0, a);
      m.pubsubPendingCredits.setIfAbsent(0, a);
      typed(TopicReader.SOURCE, PubSubTopics.eventType(t));
    }
  }

  private void objects(List<String> names, List<TransformRule> transforms) {
    String source = EventLogObjectSource.SOURCE;
    source(source, transforms);
    for (String name : names) {
      polled(source, name);
      revisit(source, name);
      typed(source, name);
    }
  }

  private void eventLogFile(List<String> types, List<TransformRule> transforms) {
    source(ELF, transforms);
    zero(m.salesforceApiThrottled, Attributes.of(Sf2lokiMetrics.API, "eventlogfile"));
    zero(
        m.soqlPollErrors,
        Attributes.of(Sf2lokiMetrics.SOURCE, ELF, Sf2lokiMetrics.OBJECT, "discovery"));
    for (String reason : List.of("listing", "transport", "parse", "invalid_body")) {
      zero(m.eventlogfileDownloadErrors, Attributes.of(Sf2lokiMetrics.REASON, reason));
    }
    idle(m.eventlogfileCycleSeconds);
    for (String t : types) {
      zero(m.soqlPollErrors, Attributes.of(Sf2lokiMetrics.SOURCE, ELF, Sf2lokiMetrics.OBJECT, t));
      Attributes type = Attributes.of(Sf2lokiMetrics.EVENT_TYPE, t);
      zero(m.eventlogfileFilesProcessed, type);
      zero(m.eventlogfileRowsIngested, type);
      zero(m.eventlogfileDownloadBytes, type);
      for (String r : List.of("parse", "HTTP 404", "HTTP 410", "max_age")) {
        zero(
            m.eventlogfileFilesAbandoned,
            Attributes.of(Sf2lokiMetrics.EVENT_TYPE, t, Sf2lokiMetrics.REASON, r));
      }
      typed(ELF, t);
    }
  }

  private void apexLog(List<TransformRule> transforms) {
    String source = ApexLogSource.SOURCE;
    source(source, transforms);
    zero(m.salesforceApiThrottled, Attributes.of(Sf2lokiMetrics.API, "apexlog_body"));
    polled(source, source);
    revisit(source, source);
    typed(source, source);
    zero(m.apexlogLogsIngested, Attributes.empty());
    zero(m.apexlogDownloadBytes, Attributes.empty());
    for (String r : List.of("size", "download_error")) {
      zero(m.apexlogBodiesSkipped, Attributes.of(Sf2lokiMetrics.REASON, r));
    }
    for (String r : List.of("transport", "invalid_body")) {
      zero(m.apexlogDownloadErrors, Attributes.of(Sf2lokiMetrics.REASON, r));
    }
  }

  /** Per-source counters and the XF-6 rules of the source's transforms. */
  private void source(String source, List<TransformRule> transforms) {
    Attributes a = Attributes.of(Sf2lokiMetrics.SOURCE, source);
    zero(m.linesTruncated, a);
    zero(m.timestampFallbacks, a);
    zero(m.checkpointLoadErrors, a);
    for (int i = 0; i < transforms.size(); i++) {
      TransformRule r = transforms.get(i);
      if (r.action() == io.sf2loki.core.transform.TransformAction.DROP_ROW) {
        zero(
            m.rowsFiltered,
            Attributes.of(Sf2lokiMetrics.SOURCE, source, Sf2lokiMetrics.RULE, r.metricName(i)));
      }
    }
  }

  private void typed(String source, String eventType) {
    Attributes a =
        Attributes.of(Sf2lokiMetrics.SOURCE, source, Sf2lokiMetrics.EVENT_TYPE, eventType);
    zero(m.eventsIngested, a);
    zero(m.entriesSampledOut, a);
  }

  private void polled(String source, String object) {
    Attributes a = Attributes.of(Sf2lokiMetrics.SOURCE, source, Sf2lokiMetrics.OBJECT, object);
    zero(m.soqlPollErrors, a);
    zero(m.watermarkStalls, a);
  }

  private void revisit(String source, String object) {
    Attributes a = Attributes.of(Sf2lokiMetrics.SOURCE, source, Sf2lokiMetrics.OBJECT, object);
    zero(m.lateRowsRecovered, a);
    for (String kind : List.of("listing", "fetch")) {
      zero(
          m.revisitQueries,
          Attributes.of(
              Sf2lokiMetrics.SOURCE,
              source,
              Sf2lokiMetrics.OBJECT,
              object,
              Sf2lokiMetrics.KIND,
              kind));
    }
    for (String r : List.of("max_keys", "listing_limit", "unkeyed")) {
      zero(
          m.revisitIncomplete,
          Attributes.of(
              Sf2lokiMetrics.SOURCE,
              source,
              Sf2lokiMetrics.OBJECT,
              object,
              Sf2lokiMetrics.REASON,
              r));
    }
  }

  private static void zero(LongCounter c, Attributes a) {
    c.add(0, a);
  }

  private static void idle(io.sf2loki.core.metrics.GaugeValues g) {
    g.setIfAbsent(0, Attributes.empty());
  }
}
