package io.sf2loki.app.config;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;

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
 * @param telemetry metrics export
 */
public record ServiceConfig(
    LogLevel logLevel,
    LogFormat logFormat,
    String healthAddr,
    Duration shutdownGrace,
    Duration unreadyAfterSinkFailing,
    Duration livenessTimeout,
    Telemetry telemetry) {

  /**
   * {@code service.telemetry}.
   *
   * @param enabled default false
   * @param endpoint full OTLP/HTTP metrics URL; non-empty when enabled (CFG-9)
   * @param auth default BASIC
   * @param basicAuthUser effective user: configured, else {@code sink.loki.tenant_id}, else {@code
   *     ""} (CFG-9)
   * @param basicAuthToken effective token: configured, else {@code sink.loki.auth_token} (CFG-9)
   * @param headers headers overriding the computed ones
   * @param exportInterval strictly positive, default 60 s
   * @param resourceAttributes merged over {@code service.name=sf2loki}
   * @param prometheus FEAT-15 scrape endpoint
   */
  public record Telemetry(
      boolean enabled,
      String endpoint,
      TelemetryAuth auth,
      String basicAuthUser,
      Optional<Secret> basicAuthToken,
      Map<String, String> headers,
      Duration exportInterval,
      Map<String, String> resourceAttributes,
      Prometheus prometheus) {}

  /**
   * {@code service.telemetry.prometheus} (FEAT-15).
   *
   * @param enabled default false; serves {@code GET /metrics} on the health server
   */
  public record Prometheus(boolean enabled) {}

  /** {@code telemetry.auth}. */
  public enum TelemetryAuth implements YamlEnum {
    BASIC,
    NONE;

    @Override
    public String yaml() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

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
