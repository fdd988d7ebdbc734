package io.sf2loki.core.metrics;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.DoubleHistogram;
import io.opentelemetry.api.metrics.LongCounter;
import io.opentelemetry.api.metrics.Meter;
import io.opentelemetry.api.metrics.MeterProvider;
import io.opentelemetry.api.metrics.ObservableLongGauge;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.LongSupplier;

/**
 * The metric catalogue of SPEC OBS-5, created once per application instance from the instance's own
 * {@link MeterProvider} (OBS-1; the global OpenTelemetry instance is never used). Every instrument
 * has the exact SPEC name and an empty unit (OBS-2).
 *
 * <p>Observable instruments read process-lifetime holders; a term installs its suppliers at start
 * and clears them at its end (OBS-13), e.g. {@link #installQueueDepth(LongSupplier)}.
 */
public final class Sf2lokiMetrics implements AutoCloseable {
  public static final AttributeKey<String> SOURCE = AttributeKey.stringKey("source");
  public static final AttributeKey<String> EVENT_TYPE = AttributeKey.stringKey("event_type");
  public static final AttributeKey<String> OUTCOME = AttributeKey.stringKey("outcome");
  public static final AttributeKey<String> REASON = AttributeKey.stringKey("reason");
  public static final AttributeKey<String> OBJECT = AttributeKey.stringKey("object");
  public static final AttributeKey<String> API = AttributeKey.stringKey("api");
  public static final AttributeKey<String> LANE = AttributeKey.stringKey("lane");
  public static final AttributeKey<String> LIMIT_NAME = AttributeKey.stringKey("limit_name");
  public static final AttributeKey<String> VERSION = AttributeKey.stringKey("version");
  public static final AttributeKey<String> TOPIC = AttributeKey.stringKey("topic");
  public static final AttributeKey<String> STAGE = AttributeKey.stringKey("stage");
  public static final AttributeKey<String> MODE = AttributeKey.stringKey("mode");
  public static final AttributeKey<String> LAYER = AttributeKey.stringKey("layer");
  public static final AttributeKey<String> KIND = AttributeKey.stringKey("kind");
  public static final AttributeKey<String> RULE = AttributeKey.stringKey("rule");

  /** Multi-org: the org of a per-org series (OBS-4, PIPE-10). */
  public static final AttributeKey<String> ORG = AttributeKey.stringKey("org");

  private static final List<Double> LAG_BUCKETS =
      List.of(
          1.0, 5.0, 15.0, 60.0, 300.0, 900.0, 1800.0, 3600.0, 7200.0, 14400.0, 28800.0, 86400.0);

  // pipeline / sink
  public final LongCounter eventsIngested;
  public final DoubleHistogram ingestLagSeconds;
  public final LongCounter lokiPush;
  public final DoubleHistogram lokiPushDurationSeconds;
  public final LongCounter lokiBytesPushed;
  public final LongCounter lokiEntriesDropped;
  public final LongCounter linesTruncated;
  public final LongCounter pipelineEntriesAbandoned;
  public final LongCounter lokiEntriesRestamped;

  /** SINK-16: entries pushed again after a 400 with partial acceptance ({@code mode}). */
  public final LongCounter lokiEntriesResent;

  private final DropAttribution dropAttribution;

  /** SINK-16: partially accepted 400s whose rejected entries could not be identified. */
  public final LongCounter lokiPartialAcceptanceFallbacks;

  /** PIPE-27, SINK-17: waits that honoured a {@code Retry-After} ({@code layer}). */
  public final LongCounter lokiRetryAfterWaits;

  /** SINK-15: streams whose newest pushed timestamp the sink tracks. */
  public final GaugeValues lokiTrackedStreams;

  public final GaugeValues egressBudgetUsedBytes;
  public final GaugeValues egressPaused;
  public final GaugeValues lastPushSuccessTimestampSeconds;
  public final GaugeValues lokiStructuredMetadataEnabled;
  public final GaugeValues watermarkTimestampSeconds;

  /** {@code sf2loki_last_replay_commit_timestamp_seconds{topic}}: unix s of the last commit. */
  public final GaugeValues lastReplayCommitTimestampSeconds;

  public final GaugeValues leader;

  /** {@code sf2loki_leader_acquisitions}: leadership acquisitions (terms started, OBS-15). */
  public final LongCounter leaderAcquisitions;

  /** {@code sf2loki_lease_errors{operation}}: failed lease reads/writes (OBS-16). */
  public final LongCounter leaseErrors;

  /** {@code sf2loki_lease_surrenders{reason}}: won leases given up (OBS-17). */
  public final LongCounter leaseSurrenders;

  // sources
  public final LongCounter checkpointLoadErrors;
  public final LongCounter checkpointWriteErrors;
  public final LongCounter timestampFallbacks;
  public final LongCounter entriesSampledOut;
  public final LongCounter soqlPollErrors;
  public final LongCounter salesforceApiThrottled;

  /**
   * {@code sf2loki_salesforce_malformed_responses{api}}: 2xx JSON answers that were not (SRC-29).
   */
  public final LongCounter salesforceMalformedResponses;

  public final LongCounter authRefreshes;
  public final LongCounter authErrors;
  public final LongCounter eventlogfileFilesProcessed;
  public final LongCounter eventlogfileRowsIngested;
  public final LongCounter eventlogfileDownloadBytes;
  public final LongCounter eventlogfileDownloadErrors;
  public final LongCounter eventlogfileFilesAbandoned;
  public final GaugeValues eventlogfileCycleSeconds;
  public final GaugeValues salesforceLimitMax;
  public final GaugeValues salesforceLimitRemaining;

  /** {@code sf2loki_salesforce_limits_poll_errors}: failed org-limits polls (OBS-12). */
  public final LongCounter salesforceLimitsPollErrors;

  /** {@code sf2loki_salesforce_api_reserve_paused}: 1 while the API reserve pauses polls. */
  public final GaugeValues salesforceApiReservePaused;

  /** {@code sf2loki_rows_filtered{source,rule}}: records dropped by a drop_row rule (XF-6). */
  public final LongCounter rowsFiltered;

  public final GaugeValues sourceLastSuccessTimestampSeconds;
  public final GaugeValues buildInfo;
  public final LongCounter apexlogLogsIngested;
  public final LongCounter apexlogDownloadBytes;
  public final LongCounter apexlogBodiesSkipped;
  public final LongCounter apexlogDownloadErrors;
  public final LongCounter watermarkStalls;

  // late-visibility revisit (OBJ-13…OBJ-17, APX-10)
  public final LongCounter lateRowsRecovered;
  public final LongCounter revisitQueries;
  public final LongCounter revisitIncomplete;

  /** {@code sf2loki_pubsub_pending_credits{topic}}: the server's pending_num_requested (PS-3). */
  public final GaugeValues pubsubPendingCredits;

  /** {@code sf2loki_pubsub_stream_up{topic}}: 1 while a call is delivering (PS-14, PS-6). */
  public final GaugeValues pubsubStreamUp;

  /** {@code sf2loki_pubsub_reconnects{topic}}: subscribe attempts after the first (PS-14). */
  public final LongCounter pubsubReconnects;

  /** {@code sf2loki_pubsub_replay_fallbacks{topic}}: stored replay ids discarded (PS-15). */
  public final LongCounter pubsubReplayFallbacks;

  /** {@code sf2loki_pubsub_stream_stalls{topic}}: watchdog reconnects (PS-8). */
  public final LongCounter pubsubStreamStalls;

  /** {@code sf2loki_pubsub_decode_stalls{topic}}: stuck topics detected (PS-9). */
  public final LongCounter pubsubDecodeStalls;

  /** {@code sf2loki_decode_errors{reason,topic}}: payloads that failed to decode (PS-6). */
  public final LongCounter decodeErrors;

  /** {@code sf2loki_schema_cache_size}: parsed writer schemas cached (PS-4). */
  public final GaugeValues schemaCacheSize;

  private final AtomicReference<LongSupplier> queueDepth = new AtomicReference<>();
  private final ObservableLongGauge queueDepthGauge;
  private final AtomicReference<BooleanSupplier> wedged = new AtomicReference<>();
  private final ObservableLongGauge wedgedGauge;
  private final List<GaugeValues> gauges;
  private final boolean owner; // false for a forOrg view

  /**
   * Creates every instrument on {@code provider}.
   *
   * @param provider the application instance's meter provider
   * @param version the real build version, reported by {@code sf2loki_build_info{version}}
   */
  public Sf2lokiMetrics(MeterProvider provider, String version) {
    this(provider, version, DropAttribution.OFF);
  }

  /**
   * Creates every instrument on {@code provider}.
   *
   * @param provider the application instance's meter provider
   * @param version the real build version, reported by {@code sf2loki_build_info{version}}
   * @param dropAttribution {@code service.telemetry.drop_attribution} (FEAT-10)
   */
  public Sf2lokiMetrics(MeterProvider provider, String version, DropAttribution dropAttribution) {
    owner = true;
    this.dropAttribution = java.util.Objects.requireNonNull(dropAttribution, "dropAttribution");
    Meter m = provider.get("io.sf2loki");
    eventsIngested = counter(m, "sf2loki_events_ingested");
    ingestLagSeconds =
        m.histogramBuilder("sf2loki_ingest_lag_seconds")
            .setDescription(MetricHelp.of("sf2loki_ingest_lag_seconds"))
            .setUnit("")
            .setExplicitBucketBoundariesAdvice(LAG_BUCKETS)
            .build();
    lokiPush = counter(m, "sf2loki_loki_push");
    lokiPushDurationSeconds =
        m.histogramBuilder("sf2loki_loki_push_duration_seconds")
            .setDescription(MetricHelp.of("sf2loki_loki_push_duration_seconds"))
            .setUnit("")
            .build();
    lokiBytesPushed = counter(m, "sf2loki_loki_bytes_pushed");
    lokiEntriesDropped = counter(m, "sf2loki_loki_entries_dropped");
    linesTruncated = counter(m, "sf2loki_lines_truncated");
    pipelineEntriesAbandoned = counter(m, "sf2loki_pipeline_entries_abandoned");
    lokiEntriesRestamped = counter(m, "sf2loki_loki_entries_restamped");
    lokiEntriesResent = counter(m, "sf2loki_loki_entries_resent");
    lokiPartialAcceptanceFallbacks = counter(m, "sf2loki_loki_partial_acceptance_fallbacks");
    lokiRetryAfterWaits = counter(m, "sf2loki_loki_retry_after_waits");
    lokiTrackedStreams =
        new GaugeValues(m, "sf2loki_loki_tracked_streams", "streams with a known newest timestamp");
    egressBudgetUsedBytes =
        new GaugeValues(m, "sf2loki_egress_budget_used_bytes", "bytes pushed this UTC day");
    egressPaused = new GaugeValues(m, "sf2loki_egress_paused", "1 while a batch waits for budget");
    lastPushSuccessTimestampSeconds =
        new GaugeValues(m, "sf2loki_last_push_success_timestamp_seconds", "last successful push");
    lokiStructuredMetadataEnabled =
        new GaugeValues(m, "sf2loki_loki_structured_metadata_enabled", "1 while metadata is sent");
    watermarkTimestampSeconds =
        new GaugeValues(m, "sf2loki_watermark_timestamp_seconds", "committed watermark");
    lastReplayCommitTimestampSeconds =
        new GaugeValues(
            m, "sf2loki_last_replay_commit_timestamp_seconds", "last replay id commit per topic");
    leader = new GaugeValues(m, "sf2loki_leader", "1 when leader or standalone");
    leaderAcquisitions = counter(m, "sf2loki_leader_acquisitions");
    leaseErrors = counter(m, "sf2loki_lease_errors");
    leaseSurrenders = counter(m, "sf2loki_lease_surrenders");
    checkpointLoadErrors = counter(m, "sf2loki_checkpoint_load_errors");
    checkpointWriteErrors = counter(m, "sf2loki_checkpoint_write_errors");
    timestampFallbacks = counter(m, "sf2loki_timestamp_fallbacks");
    entriesSampledOut = counter(m, "sf2loki_entries_sampled_out");
    soqlPollErrors = counter(m, "sf2loki_soql_poll_errors");
    salesforceApiThrottled = counter(m, "sf2loki_salesforce_api_throttled");
    salesforceMalformedResponses = counter(m, "sf2loki_salesforce_malformed_responses");
    authRefreshes = counter(m, "sf2loki_auth_refreshes");
    authErrors = counter(m, "sf2loki_auth_errors");
    eventlogfileFilesProcessed = counter(m, "sf2loki_eventlogfile_files_processed");
    eventlogfileRowsIngested = counter(m, "sf2loki_eventlogfile_rows_ingested");
    eventlogfileDownloadBytes = counter(m, "sf2loki_eventlogfile_download_bytes");
    eventlogfileDownloadErrors = counter(m, "sf2loki_eventlogfile_download_errors");
    eventlogfileFilesAbandoned = counter(m, "sf2loki_eventlogfile_files_abandoned");
    eventlogfileCycleSeconds =
        new GaugeValues(m, "sf2loki_eventlogfile_cycle_seconds", "wall time of the last cycle");
    salesforceLimitMax = new GaugeValues(m, "sf2loki_salesforce_limit_max", "org limit maximum");
    salesforceLimitRemaining =
        new GaugeValues(m, "sf2loki_salesforce_limit_remaining", "org limit remaining");
    salesforceLimitsPollErrors = counter(m, "sf2loki_salesforce_limits_poll_errors");
    salesforceApiReservePaused =
        new GaugeValues(m, "sf2loki_salesforce_api_reserve_paused", "1 while polls are paused");
    rowsFiltered = counter(m, "sf2loki_rows_filtered");
    sourceLastSuccessTimestampSeconds =
        new GaugeValues(
            m, "sf2loki_source_last_success_timestamp_seconds", "last clean poll per object");
    buildInfo = new GaugeValues(m, "sf2loki_build_info", "always 1");
    buildInfo.set(1, Attributes.of(VERSION, version));
    apexlogLogsIngested = counter(m, "sf2loki_apexlog_logs_ingested");
    apexlogDownloadBytes = counter(m, "sf2loki_apexlog_download_bytes");
    apexlogBodiesSkipped = counter(m, "sf2loki_apexlog_bodies_skipped");
    apexlogDownloadErrors = counter(m, "sf2loki_apexlog_download_errors");
    watermarkStalls = counter(m, "sf2loki_watermark_stalls");
    lateRowsRecovered = counter(m, "sf2loki_late_rows_recovered");
    revisitQueries = counter(m, "sf2loki_revisit_queries");
    revisitIncomplete = counter(m, "sf2loki_revisit_incomplete");
    pubsubPendingCredits =
        new GaugeValues(m, "sf2loki_pubsub_pending_credits", "events still owed by the server");
    pubsubStreamUp = new GaugeValues(m, "sf2loki_pubsub_stream_up", "1 while the call delivers");
    pubsubReconnects = counter(m, "sf2loki_pubsub_reconnects");
    pubsubReplayFallbacks = counter(m, "sf2loki_pubsub_replay_fallbacks");
    pubsubStreamStalls = counter(m, "sf2loki_pubsub_stream_stalls");
    pubsubDecodeStalls = counter(m, "sf2loki_pubsub_decode_stalls");
    decodeErrors = counter(m, "sf2loki_decode_errors");
    schemaCacheSize = new GaugeValues(m, "sf2loki_schema_cache_size", "parsed schemas cached");
    queueDepthGauge =
        m.gaugeBuilder("sf2loki_queue_depth")
            .setDescription(MetricHelp.of("sf2loki_queue_depth"))
            .ofLongs()
            .setUnit("")
            .buildWithCallback(
                obs -> {
                  LongSupplier s = queueDepth.get();
                  obs.record(s == null ? 0 : s.getAsLong());
                });
    wedgedGauge =
        m.gaugeBuilder("sf2loki_wedged")
            .setDescription(MetricHelp.of("sf2loki_wedged"))
            .ofLongs()
            .setUnit("")
            .buildWithCallback(
                obs -> {
                  BooleanSupplier s = wedged.get();
                  obs.record(s != null && s.getAsBoolean() ? 1 : 0);
                });
    gauges =
        List.of(
            lastPushSuccessTimestampSeconds,
            lokiStructuredMetadataEnabled,
            lokiTrackedStreams,
            egressBudgetUsedBytes,
            egressPaused,
            watermarkTimestampSeconds,
            lastReplayCommitTimestampSeconds,
            leader,
            eventlogfileCycleSeconds,
            salesforceLimitMax,
            salesforceLimitRemaining,
            salesforceApiReservePaused,
            sourceLastSuccessTimestampSeconds,
            buildInfo,
            pubsubPendingCredits,
            pubsubStreamUp,
            schemaCacheSize);
  }

  /**
   * The per-org view of {@code base} (SPEC OBS-4): every instrument of the catalogue's "org" column
   * adds {@code org=<org>} to what it records; the deployment-wide ones are {@code base}'s own.
   * Shares {@code base}'s instruments; closing the view closes nothing.
   */
  private Sf2lokiMetrics(Sf2lokiMetrics base, String org, boolean shard) {
    owner = false;
    dropAttribution = base.dropAttribution;
    eventsIngested = base.eventsIngested;
    ingestLagSeconds = base.ingestLagSeconds;
    lokiPush = base.lokiPush;
    lokiPushDurationSeconds = base.lokiPushDurationSeconds;
    lokiBytesPushed = base.lokiBytesPushed;
    lokiEntriesDropped = base.lokiEntriesDropped;
    linesTruncated = base.linesTruncated;
    pipelineEntriesAbandoned = base.pipelineEntriesAbandoned;
    lokiEntriesRestamped = base.lokiEntriesRestamped;
    lokiEntriesResent = base.lokiEntriesResent;
    lokiPartialAcceptanceFallbacks = base.lokiPartialAcceptanceFallbacks;
    lokiRetryAfterWaits = base.lokiRetryAfterWaits;
    lokiTrackedStreams = base.lokiTrackedStreams;
    // OBS-38: only a coordinate.per_org term's own governor and term manager label these
    egressBudgetUsedBytes =
        shard ? base.egressBudgetUsedBytes.with(ORG, org) : base.egressBudgetUsedBytes;
    egressPaused = shard ? base.egressPaused.with(ORG, org) : base.egressPaused;
    lastPushSuccessTimestampSeconds = base.lastPushSuccessTimestampSeconds;
    lokiStructuredMetadataEnabled = base.lokiStructuredMetadataEnabled;
    watermarkTimestampSeconds = base.watermarkTimestampSeconds.with(ORG, org);
    lastReplayCommitTimestampSeconds = base.lastReplayCommitTimestampSeconds.with(ORG, org);
    leader = shard ? base.leader.with(ORG, org) : base.leader;
    leaderAcquisitions = base.leaderAcquisitions;
    leaseErrors = base.leaseErrors;
    leaseSurrenders = base.leaseSurrenders;
    checkpointLoadErrors = new OrgCounter(base.checkpointLoadErrors, org);
    checkpointWriteErrors = base.checkpointWriteErrors;
    timestampFallbacks = new OrgCounter(base.timestampFallbacks, org);
    entriesSampledOut = new OrgCounter(base.entriesSampledOut, org);
    soqlPollErrors = new OrgCounter(base.soqlPollErrors, org);
    salesforceApiThrottled = new OrgCounter(base.salesforceApiThrottled, org);
    salesforceMalformedResponses = new OrgCounter(base.salesforceMalformedResponses, org);
    authRefreshes = new OrgCounter(base.authRefreshes, org);
    authErrors = new OrgCounter(base.authErrors, org);
    eventlogfileFilesProcessed = new OrgCounter(base.eventlogfileFilesProcessed, org);
    eventlogfileRowsIngested = new OrgCounter(base.eventlogfileRowsIngested, org);
    eventlogfileDownloadBytes = new OrgCounter(base.eventlogfileDownloadBytes, org);
    eventlogfileDownloadErrors = new OrgCounter(base.eventlogfileDownloadErrors, org);
    eventlogfileFilesAbandoned = new OrgCounter(base.eventlogfileFilesAbandoned, org);
    eventlogfileCycleSeconds = base.eventlogfileCycleSeconds.with(ORG, org);
    salesforceLimitMax = base.salesforceLimitMax.with(ORG, org);
    salesforceLimitRemaining = base.salesforceLimitRemaining.with(ORG, org);
    salesforceLimitsPollErrors = new OrgCounter(base.salesforceLimitsPollErrors, org);
    salesforceApiReservePaused = base.salesforceApiReservePaused.with(ORG, org);
    rowsFiltered = new OrgCounter(base.rowsFiltered, org);
    sourceLastSuccessTimestampSeconds = base.sourceLastSuccessTimestampSeconds.with(ORG, org);
    buildInfo = base.buildInfo;
    apexlogLogsIngested = new OrgCounter(base.apexlogLogsIngested, org);
    apexlogDownloadBytes = new OrgCounter(base.apexlogDownloadBytes, org);
    apexlogBodiesSkipped = new OrgCounter(base.apexlogBodiesSkipped, org);
    apexlogDownloadErrors = new OrgCounter(base.apexlogDownloadErrors, org);
    watermarkStalls = new OrgCounter(base.watermarkStalls, org);
    lateRowsRecovered = new OrgCounter(base.lateRowsRecovered, org);
    revisitQueries = new OrgCounter(base.revisitQueries, org);
    revisitIncomplete = new OrgCounter(base.revisitIncomplete, org);
    pubsubPendingCredits = base.pubsubPendingCredits.with(ORG, org);
    pubsubStreamUp = base.pubsubStreamUp.with(ORG, org);
    pubsubReconnects = new OrgCounter(base.pubsubReconnects, org);
    pubsubReplayFallbacks = new OrgCounter(base.pubsubReplayFallbacks, org);
    pubsubStreamStalls = new OrgCounter(base.pubsubStreamStalls, org);
    pubsubDecodeStalls = new OrgCounter(base.pubsubDecodeStalls, org);
    decodeErrors = new OrgCounter(base.decodeErrors, org);
    schemaCacheSize = base.schemaCacheSize.with(ORG, org);
    queueDepthGauge = base.queueDepthGauge;
    wedgedGauge = base.wedgedGauge;
    gauges = List.of();
  }

  /**
   * The metrics an org's components record with in multi-org mode (SPEC OBS-4, ORG-2): per-org
   * instruments carry {@code org=<name>}, deployment-wide ones (ORG-8) none.
   *
   * @param org the org name
   * @return a view sharing this instance's instruments
   */
  public Sf2lokiMetrics forOrg(String org) {
    return new Sf2lokiMetrics(this, java.util.Objects.requireNonNull(org, "org"), false);
  }

  /**
   * The metrics of one org's terms under {@code coordinate.per_org} (SPEC OBS-38): the {@link
   * #forOrg} view whose {@code sf2loki_leader}, {@code sf2loki_egress_budget_used_bytes} and {@code
   * sf2loki_egress_paused} also carry {@code org=<name>} (each org term has its own governor and
   * leadership).
   *
   * @param org the org name
   * @return a view sharing this instance's instruments
   */
  public Sf2lokiMetrics forShard(String org) {
    return new Sf2lokiMetrics(this, java.util.Objects.requireNonNull(org, "org"), true);
  }

  /**
   * FEAT-10, OBS-37: how {@link #lokiEntriesDropped} and {@link #pipelineEntriesAbandoned} count
   * (shared by the {@link #forOrg} views).
   */
  public DropAttribution dropAttribution() {
    return dropAttribution;
  }

  /** Metrics on a no-op provider, for components built without metrics (tests, tools). */
  public static Sf2lokiMetrics noop() {
    return new Sf2lokiMetrics(MeterProvider.noop(), "0.0.0");
  }

  private static LongCounter counter(Meter m, String name) {
    return m.counterBuilder(name).setDescription(MetricHelp.of(name)).setUnit("").build();
  }

  /**
   * Installs the current term's queue-depth supplier (OBS-13); pass null at term end.
   *
   * @param supplier entries queued over all lanes, or null to report 0
   */
  public void installQueueDepth(LongSupplier supplier) {
    queueDepth.set(supplier);
  }

  /**
   * Installs the FEAT-21 wedge check read by {@code sf2loki_wedged} (OBS-32; 0 until installed).
   *
   * @param check true while {@code /healthz} reports a wedged component
   */
  public void installWedged(BooleanSupplier check) {
    wedged.set(check);
  }

  @Override
  public void close() {
    if (!owner) {
      return; // a forOrg view: the instance that owns the instruments closes them
    }
    wedgedGauge.close();
    queueDepthGauge.close();
    gauges.forEach(GaugeValues::close);
  }
}
