package io.sf2loki.app.config;

import static io.sf2loki.core.settings.Setting.integer;
import static io.sf2loki.core.settings.Setting.list;
import static io.sf2loki.core.settings.Setting.map;

import io.sf2loki.core.egress.EgressSettings;
import io.sf2loki.core.pipeline.PipelineSettings;
import io.sf2loki.core.settings.Setting;
import io.sf2loki.loki.LokiSinkSettings;
import java.util.List;

/** Definitions of {@code sink.loki}, SPEC §1.3. */
final class SinkKeys {
  static final Setting URL = LokiSinkSettings.URL;
  static final Setting TENANT_ID = LokiSinkSettings.TENANT_ID;
  static final Setting AUTH_TOKEN = LokiSinkSettings.AUTH_TOKEN;
  static final Setting ENCODING = LokiSinkSettings.ENCODING;
  static final Setting COMPRESSION = LokiSinkSettings.COMPRESSION;
  static final Setting LABELS =
      map("labels", "Static stream labels (job, service_name, …).", "CFG-15");
  static final Setting STRUCTURED_METADATA_FIELDS =
      list(
          "structured_metadata_fields",
          List.of(),
          "Fields sent as structured metadata by default.",
          "SRC-9");
  static final Setting STRUCTURED_METADATA = LokiSinkSettings.STRUCTURED_METADATA;
  static final Setting LATE_ENTRIES = LokiSinkSettings.LATE_ENTRIES;
  static final Setting OUT_OF_ORDER_WINDOW = LokiSinkSettings.OUT_OF_ORDER_WINDOW;
  static final Setting MAX_TRACKED_STREAMS = LokiSinkSettings.MAX_TRACKED_STREAMS;

  static final Setting REQUEST_TIMEOUT = LokiSinkSettings.REQUEST_TIMEOUT;

  static final Setting SNAPPY_TEMPDIR =
      Setting.path(
          "snappy_tempdir",
          null,
          "Existing directory where snappy-java extracts its native library"
              + " (org.xerial.snappy.tempdir); absent = java.io.tmpdir. Without a loadable native"
              + " library the pure-Java codec is used.",
          "CFG-34, SINK-18");
  static final Setting MAX_ENTRIES = PipelineSettings.MAX_ENTRIES;
  static final Setting MAX_BYTES = PipelineSettings.MAX_BYTES;
  static final Setting FLUSH_INTERVAL = PipelineSettings.FLUSH_INTERVAL;
  static final Setting MAX_LINE_BYTES =
      integer("max_line_bytes", 262_144, "Longer lines are truncated; ≤ 0 disables.", "PIPE-6");
  static final Setting QUEUE_MAXSIZE = PipelineSettings.QUEUE_MAXSIZE;
  static final Setting QUEUE_MAX_BYTES = PipelineSettings.QUEUE_MAX_BYTES;

  static final Setting MAX_LINES_PER_SECOND = EgressSettings.MAX_LINES_PER_SECOND;
  static final Setting MAX_BYTES_PER_SECOND = EgressSettings.MAX_BYTES_PER_SECOND;
  static final Setting DAILY_BYTE_BUDGET = EgressSettings.DAILY_BYTE_BUDGET;
  static final Setting BUDGET_ACTION = EgressSettings.BUDGET_ACTION;

  static final Group BATCH =
      Group.object(
          "batch",
          "Batching and lane queues.",
          "PIPE-3, PIPE-5",
          List.of(
              MAX_ENTRIES,
              MAX_BYTES,
              FLUSH_INTERVAL,
              MAX_LINE_BYTES,
              QUEUE_MAXSIZE,
              QUEUE_MAX_BYTES));
  static final Group EGRESS =
      Group.object(
          "egress",
          "Egress rate caps and daily budget.",
          "EGR-1, EGR-2",
          List.of(MAX_LINES_PER_SECOND, MAX_BYTES_PER_SECOND, DAILY_BYTE_BUDGET, BUDGET_ACTION));
  static final Group LOKI =
      Group.object(
              "loki",
              "The Loki push endpoint.",
              "SINK-1",
              List.of(
                  URL,
                  TENANT_ID,
                  AUTH_TOKEN,
                  ENCODING,
                  COMPRESSION,
                  LABELS,
                  STRUCTURED_METADATA_FIELDS,
                  STRUCTURED_METADATA,
                  LATE_ENTRIES,
                  OUT_OF_ORDER_WINDOW,
                  MAX_TRACKED_STREAMS,
                  REQUEST_TIMEOUT,
                  SNAPPY_TEMPDIR))
          .with(BATCH, EGRESS)
          .mandatory();

  /** The {@code sink} object. */
  static final Group SINK =
      Group.object("sink", "Where entries go.", "", List.of()).with(LOKI).mandatory();

  private SinkKeys() {}
}
