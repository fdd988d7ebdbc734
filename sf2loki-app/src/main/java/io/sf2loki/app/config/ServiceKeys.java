package io.sf2loki.app.config;

import static io.sf2loki.core.settings.Setting.choice;
import static io.sf2loki.core.settings.Setting.duration;
import static io.sf2loki.core.settings.Setting.string;

import io.sf2loki.app.telemetry.TelemetrySettings;
import io.sf2loki.core.pipeline.PipelineSettings;
import io.sf2loki.core.settings.Setting;
import java.time.Duration;
import java.util.List;

/** Definitions of {@code service}, SPEC §1.3. */
final class ServiceKeys {
  static final Setting LOG_LEVEL =
      choice(
          "log_level",
          "info",
          List.of("debug", "info", "warning", "warn", "error", "critical"),
          "Log level (case-insensitive).",
          "OBS-9");
  static final Setting LOG_FORMAT =
      choice("log_format", "json", List.of("json", "logfmt"), "Log line format.", "OBS-9");
  static final Setting HEALTH_ADDR =
      string("health_addr", ":8080", "host:port of /healthz, /readyz, /metrics.", "OBS-7");
  static final Setting SHUTDOWN_GRACE = PipelineSettings.SHUTDOWN_GRACE;
  static final Setting UNREADY_AFTER_SINK_FAILING =
      duration(
          "unready_after_sink_failing",
          Duration.ofMinutes(15),
          "Unready after the sink failed this long; 0 disables.",
          "PIPE-11");
  static final Setting LIVENESS_TIMEOUT =
      duration(
          "liveness_timeout",
          Duration.ZERO,
          "/healthz 503 after a lane, source or topic reader is stuck this long; 0 disables.",
          "FEAT-21");
  static final Setting T_ENABLED = TelemetrySettings.ENABLED;
  static final Setting T_ENDPOINT = TelemetrySettings.ENDPOINT;
  static final Setting T_AUTH = TelemetrySettings.AUTH;
  static final Setting T_USER = TelemetrySettings.BASIC_AUTH_USER;
  static final Setting T_TOKEN = TelemetrySettings.BASIC_AUTH_TOKEN;
  static final Setting T_HEADERS = TelemetrySettings.HEADERS;
  static final Setting T_EXPORT_INTERVAL = TelemetrySettings.EXPORT_INTERVAL;
  static final Setting T_RESOURCE_ATTRIBUTES = TelemetrySettings.RESOURCE_ATTRIBUTES;
  static final Setting PROMETHEUS_ENABLED = TelemetrySettings.PROMETHEUS_ENABLED;
  static final Setting T_DROP_ATTRIBUTION =
      io.sf2loki.core.metrics.DropAttribution.DROP_ATTRIBUTION;

  static final Group TELEMETRY =
      Group.object(
              "telemetry",
              "Metrics export.",
              "OBS-1",
              List.of(
                  T_ENABLED,
                  T_ENDPOINT,
                  T_AUTH,
                  T_USER,
                  T_TOKEN,
                  T_HEADERS,
                  T_EXPORT_INTERVAL,
                  T_RESOURCE_ATTRIBUTES,
                  T_DROP_ATTRIBUTION))
          .with(
              Group.object(
                  "prometheus",
                  "Prometheus scrape endpoint.",
                  "FEAT-15",
                  List.of(PROMETHEUS_ENABLED)));

  static final Group SERVICE =
      Group.object(
              "service",
              "Process settings.",
              "OBS-7",
              List.of(
                  LOG_LEVEL,
                  LOG_FORMAT,
                  HEALTH_ADDR,
                  SHUTDOWN_GRACE,
                  UNREADY_AFTER_SINK_FAILING,
                  LIVENESS_TIMEOUT))
          .with(TELEMETRY);

  private ServiceKeys() {}
}
