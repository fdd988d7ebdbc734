package io.sf2loki.app.telemetry;

import java.time.Duration;
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

  /** SPEC default of {@code telemetry.export_interval}. */
  public static final Duration DEFAULT_EXPORT_INTERVAL = Duration.ofSeconds(60);

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
        false, "", Auth.NONE, "", null, Map.of(), DEFAULT_EXPORT_INTERVAL, Map.of(), false);
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
