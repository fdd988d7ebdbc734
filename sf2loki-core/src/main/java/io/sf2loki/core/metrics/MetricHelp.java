package io.sf2loki.core.metrics;

import java.util.Map;

/**
 * The description (Prometheus {@code # HELP}) of each counter and histogram of the OBS-5 catalogue,
 * so a scrape passes {@code promtool check metrics} (SPEC OBS-20).
 */
final class MetricHelp {
  private static final Map<String, String> HELP =
      Map.ofEntries(
          Map.entry("sf2loki_events_ingested", "Real entries that entered a lane"),
          Map.entry("sf2loki_ingest_lag_seconds", "Now minus the entry timestamp at enqueue"),
          Map.entry("sf2loki_loki_push", "Loki pushes by outcome (PIPE-7)"),
          Map.entry("sf2loki_loki_push_duration_seconds", "Duration of successful Loki pushes"),
          Map.entry("sf2loki_loki_bytes_pushed", "Request body bytes of accepted Loki requests"),
          Map.entry("sf2loki_loki_entries_dropped", "Entries deliberately dropped, by reason"),
          Map.entry("sf2loki_lines_truncated", "Entries whose line was truncated"),
          Map.entry("sf2loki_pipeline_entries_abandoned", "Entries abandoned at term end"),
          Map.entry("sf2loki_loki_entries_restamped", "Entries restamped, by reason and stage"),
          Map.entry("sf2loki_loki_entries_resent", "Entries pushed again after a partial 400"),
          Map.entry(
              "sf2loki_loki_partial_acceptance_fallbacks",
              "Partially accepted 400s that did not name every refused entry"),
          Map.entry("sf2loki_loki_retry_after_waits", "Waits a Retry-After imposed, by layer"),
          Map.entry("sf2loki_leader_acquisitions", "Leadership acquisitions"),
          Map.entry("sf2loki_checkpoint_load_errors", "Stored checkpoints that could not be read"),
          Map.entry("sf2loki_checkpoint_write_errors", "Failed checkpoint store writes"),
          Map.entry("sf2loki_timestamp_fallbacks", "Entries stamped with the fallback time"),
          Map.entry("sf2loki_entries_sampled_out", "Entries dropped by sampling"),
          Map.entry("sf2loki_soql_poll_errors", "Failed polls per source and object"),
          Map.entry("sf2loki_salesforce_api_throttled", "403 REQUEST_LIMIT_EXCEEDED answers"),
          Map.entry(
              "sf2loki_salesforce_malformed_responses",
              "2xx Salesforce answers that were not JSON"),
          Map.entry("sf2loki_auth_refreshes", "Access tokens minted"),
          Map.entry("sf2loki_auth_errors", "Failed token mints"),
          Map.entry("sf2loki_eventlogfile_files_processed", "EventLogFiles fully processed"),
          Map.entry("sf2loki_eventlogfile_rows_ingested", "EventLogFile rows ingested"),
          Map.entry("sf2loki_eventlogfile_download_bytes", "EventLogFile bytes downloaded"),
          Map.entry("sf2loki_eventlogfile_download_errors", "EventLogFile download errors"),
          Map.entry("sf2loki_eventlogfile_files_abandoned", "EventLogFiles abandoned, by reason"),
          Map.entry("sf2loki_salesforce_limits_poll_errors", "Failed org-limits polls"),
          Map.entry("sf2loki_rows_filtered", "Records dropped by a drop_row rule"),
          Map.entry("sf2loki_apexlog_logs_ingested", "ApexLogs ingested"),
          Map.entry("sf2loki_apexlog_download_bytes", "ApexLog body bytes downloaded"),
          Map.entry("sf2loki_apexlog_bodies_skipped", "ApexLog bodies skipped, by reason"),
          Map.entry("sf2loki_apexlog_download_errors", "ApexLog body download errors"),
          Map.entry("sf2loki_watermark_stalls", "Watermark stalls detected"),
          Map.entry("sf2loki_late_rows_recovered", "Late-visible rows recovered by the revisit"),
          Map.entry("sf2loki_revisit_queries", "Revisit queries, by kind"),
          Map.entry("sf2loki_revisit_incomplete", "Revisits that could not cover their window"),
          Map.entry("sf2loki_pubsub_reconnects", "Pub/Sub subscribe attempts after the first"),
          Map.entry("sf2loki_pubsub_replay_fallbacks", "Stored replay ids discarded"),
          Map.entry("sf2loki_pubsub_stream_stalls", "Pub/Sub watchdog reconnects"),
          Map.entry("sf2loki_pubsub_decode_stalls", "Pub/Sub topics stuck on an undecodable event"),
          Map.entry("sf2loki_decode_errors", "Pub/Sub payloads that failed to decode"),
          Map.entry("sf2loki_queue_depth", "Entries queued over all lanes"),
          Map.entry("sf2loki_wedged", "1 while /healthz reports a wedged component"));

  private MetricHelp() {}

  /** The help text of {@code name}, or the name itself for an instrument not listed. */
  static String of(String name) {
    return HELP.getOrDefault(name, name);
  }
}
