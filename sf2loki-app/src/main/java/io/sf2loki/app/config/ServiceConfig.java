package io.sf2loki.app.config;

import io.sf2loki.app.telemetry.TelemetrySettings;
import java.time.Duration;

/**
 * {@code service} (SPEC §1.3, OBS, CFG-9, FEAT-15).
 *
 * @param logLevel default INFO (case-insensitive; {@code warning} = WARN, {@code critical} = ERROR
 *     kept as its own constant)
 * @param logFormat default JSON
 * @param healthAddr {@code host:port}, default {@code :8080}; empty host = all interfaces
 * @param shutdownGrace default 25 s (PIPE-13)
 * @param unreadyAfterSinkFailing default 15 min; 0 disables (PIPE-11)
 * @param livenessTimeout default 0 (off): {@code /healthz} 503 after a component is stuck this long
 *     (FEAT-21)
 * @param telemetry {@code service.telemetry}: the metrics export settings (CFG-9 fallbacks to the
 *     Loki tenant and token applied; an absent token is {@code ""})
 * @param dropAttribution {@code service.telemetry.drop_attribution}, default false (FEAT-10,
 *     OBS-37)
 */
public record ServiceConfig(
    LogLevel logLevel,
    LogFormat logFormat,
    String healthAddr,
    Duration shutdownGrace,
    Duration unreadyAfterSinkFailing,
    Duration livenessTimeout,
    TelemetrySettings telemetry,
    boolean dropAttribution) {

  /** {@code log_level}; matched case-insensitively. */
  public enum LogLevel implements YamlEnum {
    DEBUG("debug"),
    INFO("info"),
    WARNING("warning"),
    WARN("warn"),
    ERROR("error"),
    CRITICAL("critical");

    private final String yaml;

    LogLevel(String yaml) {
      this.yaml = yaml;
    }

    @Override
    public String yaml() {
      return yaml;
    }
  }

  /** {@code log_format}. */
  public enum LogFormat implements YamlEnum {
    JSON,
    LOGFMT;

    @Override
    public String yaml() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }
}
