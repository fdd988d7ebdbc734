package io.sf2loki.app.config;

import static io.sf2loki.core.settings.Setting.choice;
import static io.sf2loki.core.settings.Setting.duration;
import static io.sf2loki.core.settings.Setting.integer;
import static io.sf2loki.core.settings.Setting.list;
import static io.sf2loki.core.settings.Setting.map;
import static io.sf2loki.core.settings.Setting.number;
import static io.sf2loki.core.settings.Setting.secret;
import static io.sf2loki.core.settings.Setting.string;

import io.sf2loki.core.settings.Setting;
import io.sf2loki.loki.LokiSinkSettings;
import java.time.Duration;
import java.util.List;

/** Definitions of {@code sink.loki}, SPEC §1.3. */
final class SinkKeys {
  static final Setting URL =
      string("url", null, "Full Loki push URL.", "SINK-1")
          .mandatory()
          .example("https://loki.example.com/loki/api/v1/push");
  static final Setting TENANT_ID = string("tenant_id", null, "X-Scope-OrgID tenant.", "SINK-2");
  static final Setting AUTH_TOKEN = secret("auth_token", "Bearer or basic token.", "SINK-2");
  static final Setting ENCODING =
      choice("encoding", "protobuf", List.of("protobuf", "json"), "Push body encoding.", "SINK-4");
  static final Setting COMPRESSION =
      choice(
          "compression",
          "snappy",
          List.of("snappy", "gzip", "none"),
          "Body compression (protobuf is always snappy).",
          "CFG-23");
  static final Setting LABELS =
      map("labels", "Static stream labels (job, service_name, …).", "CFG-15");
  static final Setting STRUCTURED_METADATA_FIELDS =
      list(
          "structured_metadata_fields",
          List.of(),
          "Fields sent as structured metadata by default.",
          "SRC-9");
  static final Setting STRUCTURED_METADATA =
      choice(
          "structured_metadata",
          "auto",
          List.of("auto", "on", "off"),
          "Whether entries carry structured metadata.",
          "SINK-12");
  static final Setting LATE_ENTRIES =
      choice(
          "late_entries",
          "restamp",
          List.of("restamp", "drop"),
          "Handling of entries Loki rejects as out of window.",
          "SINK-13, SINK-15");
  static final Setting OUT_OF_ORDER_WINDOW =
      duration(
          "out_of_order_window",
          LokiSinkSettings.DEFAULT_OUT_OF_ORDER_WINDOW,
          "Loki's per-stream out-of-order window; 0s disables pre-push routing.",
          "SINK-15");
  static final Setting MAX_TRACKED_STREAMS =
      integer(
              "max_tracked_streams",
              LokiSinkSettings.DEFAULT_MAX_TRACKED_STREAMS,
              "Streams whose high-water mark is kept.",
              "SINK-15")
          .atLeast(1);

  static final Setting REQUEST_TIMEOUT =
      duration(
              "request_timeout",
              LokiSinkSettings.DEFAULT_REQUEST_TIMEOUT,
              "Whole-request timeout of one push; a timed-out push is retried.",
              "SINK-3")
          .greaterThan(0);

  static final Setting SNAPPY_TEMPDIR =
      Setting.path(
          "snappy_tempdir",
          null,
          "Existing directory where snappy-java extracts its native library"
              + " (org.xerial.snappy.tempdir); absent = java.io.tmpdir. Without a loadable native"
              + " library the pure-Java codec is used.",
          "CFG-34, SINK-18");
  static final Setting MAX_ENTRIES =
      integer("max_entries", LokiSinkSettings.DEFAULT_MAX_ENTRIES, "Entries per push.", "PIPE-5")
          .atLeast(1);
  static final Setting MAX_BYTES =
      integer("max_bytes", LokiSinkSettings.DEFAULT_MAX_BYTES, "Bytes per push.", "PIPE-5")
          .atLeast(1024);
  static final Setting FLUSH_INTERVAL =
      duration("flush_interval", Duration.ofSeconds(1), "Longest wait to fill a batch.", "PIPE-5")
          .greaterThan(0);
  static final Setting MAX_LINE_BYTES =
      integer("max_line_bytes", 262_144, "Longer lines are truncated; ≤ 0 disables.", "PIPE-6");
  static final Setting QUEUE_MAXSIZE =
      integer("queue_maxsize", 10_000, "Entries per lane queue.", "PIPE-3").atLeast(100);
  static final Setting QUEUE_MAX_BYTES =
      integer("queue_max_bytes", 268_435_456, "Bytes per lane queue; 0 disables.", "PIPE-3")
          .atLeast(0);

  static final Setting MAX_LINES_PER_SECOND =
      number("max_lines_per_second", 0, "Egress line rate cap; 0 = off.", "EGR-1").atLeast(0);
  static final Setting MAX_BYTES_PER_SECOND =
      number("max_bytes_per_second", 0, "Egress byte rate cap; 0 = off.", "EGR-1").atLeast(0);
  static final Setting DAILY_BYTE_BUDGET =
      integer("daily_byte_budget", 0, "Bytes per UTC day; 0 = off.", "EGR-2").atLeast(0);
  static final Setting BUDGET_ACTION =
      choice(
          "budget_action",
          "pause",
          List.of("pause", "drop"),
          "What happens when the daily budget is spent.",
          "EGR-5");

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
