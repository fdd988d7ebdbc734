package io.sf2loki.app.config;

import static io.sf2loki.core.settings.Setting.bool;
import static io.sf2loki.core.settings.Setting.choice;
import static io.sf2loki.core.settings.Setting.duration;
import static io.sf2loki.core.settings.Setting.map;
import static io.sf2loki.core.settings.Setting.secret;
import static io.sf2loki.core.settings.Setting.string;

import io.sf2loki.app.telemetry.TelemetrySettings;
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
  static final Setting SHUTDOWN_GRACE =
      duration("shutdown_grace", Duration.ofSeconds(25), "Drain time at stop.", "PIPE-13");
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
  static final Setting T_ENABLED =
      bool("enabled", false, "Export metrics over OTLP/HTTP.", "OBS-1");
  static final Setting T_ENDPOINT = string("endpoint", "", "Full OTLP/HTTP metrics URL.", "CFG-9");
  static final Setting T_AUTH =
      choice("auth", "basic", List.of("basic", "none"), "Exporter authentication.", "CFG-9");
  static final Setting T_USER =
      string("basic_auth_user", "", "Basic user; empty = sink.loki.tenant_id.", "CFG-9")
          .defaultText("sink.loki.tenant_id");
  static final Setting T_TOKEN =
      secret("basic_auth_token", "Basic token; absent = sink.loki.auth_token.", "CFG-9");
  static final Setting T_HEADERS = map("headers", "Extra headers (override computed).", "CFG-9");
  static final Setting T_EXPORT_INTERVAL =
      duration(
              "export_interval",
              TelemetrySettings.DEFAULT_EXPORT_INTERVAL,
              "Time between exports.",
              "OBS-1")
          .greaterThan(0);
  static final Setting T_RESOURCE_ATTRIBUTES =
      map("resource_attributes", "Merged over service.name=sf2loki.", "OBS-1");
  static final Setting PROMETHEUS_ENABLED =
      bool("enabled", false, "Serve Prometheus text on /metrics.", "FEAT-15");

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
                  T_RESOURCE_ATTRIBUTES))
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
