package io.sf2loki.app.telemetry;

import io.sf2loki.core.settings.Setting;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What {@link Telemetry} builds (SPEC OBS-1, FEAT-15), mapped from {@code service.telemetry.*} by
 * the application. {@link #toString()} never shows the token.
 *
 * @param otlpEnabled {@code telemetry.enabled}: push over OTLP/HTTP (protobuf)
 * @param endpoint {@code telemetry.endpoint}: the full OTLP/HTTP metrics URL (required when {@code
 *     otlpEnabled})
 * @param auth {@code telemetry.auth}
 * @param basicAuthUser the effective basic-auth user (CFG-9 defaulting already applied)
 * @param basicAuthToken the effective basic-auth token (a secret), or null
 * @param headers {@code telemetry.headers}: override the computed headers
 * @param exportInterval {@code telemetry.export_interval} (Duration, &gt; 0; SPEC default 60s)
 * @param resourceAttributes {@code telemetry.resource_attributes}: merged over {@code
 *     service.name=sf2loki}
 * @param prometheusEnabled {@code telemetry.prometheus.enabled}: serve {@code /metrics} (FEAT-15)
 */
public record TelemetrySettings(
    boolean otlpEnabled,
    String endpoint,
    Auth auth,
    String basicAuthUser,
    String basicAuthToken,
    Map<String, String> headers,
    Duration exportInterval,
    Map<String, String> resourceAttributes,
    boolean prometheusEnabled) {
  /** Definition of the {@code enabled} key (SPEC §1.3). */
  public static final Setting ENABLED =
      Setting.bool("enabled", false, "Export metrics over OTLP/HTTP.", "OBS-1");

  /** Definition of the {@code endpoint} key (SPEC §1.3). */
  public static final Setting ENDPOINT =
      Setting.string("endpoint", "", "Full OTLP/HTTP metrics URL.", "CFG-9");

  /** Definition of the {@code auth} key (SPEC §1.3). */
  public static final Setting AUTH =
      Setting.choice(
          "auth", "basic", List.of("basic", "none"), "Exporter authentication.", "CFG-9");

  /** Definition of the {@code basic_auth_user} key (SPEC §1.3). */
  public static final Setting BASIC_AUTH_USER =
      Setting.string("basic_auth_user", "", "Basic user; empty = sink.loki.tenant_id.", "CFG-9")
          .defaultText("sink.loki.tenant_id");

  /** Definition of the {@code basic_auth_token} key (SPEC §1.3). */
  public static final Setting BASIC_AUTH_TOKEN =
      Setting.secret("basic_auth_token", "Basic token; absent = sink.loki.auth_token.", "CFG-9");

  /** Definition of the {@code headers} key (SPEC §1.3). */
  public static final Setting HEADERS =
      Setting.map("headers", "Extra headers (override computed).", "CFG-9");

  /** Definition of the {@code export_interval} key (SPEC §1.3). */
  public static final Setting EXPORT_INTERVAL =
      Setting.duration("export_interval", Duration.ofSeconds(60), "Time between exports.", "OBS-1")
          .greaterThan(0);

  /** Definition of the {@code resource_attributes} key (SPEC §1.3). */
  public static final Setting RESOURCE_ATTRIBUTES =
      Setting.map("resource_attributes", "Merged over service.name=sf2loki.", "OBS-1");

  /** Definition of the {@code enabled} key (SPEC §1.3). */
  public static final Setting PROMETHEUS_ENABLED =
      Setting.bool("enabled", false, "Serve Prometheus text on /metrics.", "FEAT-15");

  /** {@code telemetry.auth}. */
  public enum Auth {
    /** {@code Authorization: Basic base64(user:token)}. */
    BASIC,
    /** No authorization header. */
    NONE
  }

  public TelemetrySettings {
    Objects.requireNonNull(auth, "auth");
    headers = Map.copyOf(Objects.requireNonNull(headers, "headers"));
    resourceAttributes =
        Map.copyOf(Objects.requireNonNull(resourceAttributes, "resourceAttributes"));
    Objects.requireNonNull(exportInterval, "exportInterval");
    if (exportInterval.isZero() || exportInterval.isNegative()) {
      throw new IllegalArgumentException("telemetry export_interval must be > 0");
    }
    if (otlpEnabled && (endpoint == null || endpoint.isBlank())) {
      throw new IllegalArgumentException("telemetry is enabled but telemetry.endpoint is empty");
    }
    if (otlpEnabled && auth == Auth.BASIC && (basicAuthUser == null || basicAuthUser.isEmpty())) {
      throw new IllegalArgumentException("telemetry auth=basic needs a basic_auth_user");
    }
    if (otlpEnabled && auth == Auth.BASIC && (basicAuthToken == null || basicAuthToken.isEmpty())) {
      throw new IllegalArgumentException("telemetry auth=basic needs a basic_auth_token");
    }
  }

  /** Metrics recorded in-process only: no OTLP push, no {@code /metrics}. */
  public static TelemetrySettings disabled() {
    return new TelemetrySettings(
        false,
        "",
        Auth.NONE,
        "",
        null,
        Map.of(),
        EXPORT_INTERVAL.durationDefault(),
        Map.of(),
        false);
  }

  /** A copy with the Prometheus endpoint switched on or off. */
  public TelemetrySettings withPrometheus(boolean enabled) {
    return new TelemetrySettings(
        otlpEnabled,
        endpoint,
        auth,
        basicAuthUser,
        basicAuthToken,
        headers,
        exportInterval,
        resourceAttributes,
        enabled);
  }

  @Override
  public String toString() {
    return "TelemetrySettings[otlpEnabled="
        + otlpEnabled
        + ", endpoint="
        + endpoint
        + ", auth="
        + auth
        + ", basicAuthUser="
        + basicAuthUser
        + ", basicAuthToken="
        + (basicAuthToken == null ? "absent" : "***")
        + ", headers="
        + headers.keySet()
        + ", exportInterval="
        + exportInterval
        + ", resourceAttributes="
        + resourceAttributes
        + ", prometheusEnabled="
        + prometheusEnabled
        + "]";
  }
}
