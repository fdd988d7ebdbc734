package io.sf2loki.app.config;

import static io.sf2loki.app.config.ConfigTestSupport.MINIMAL;
import static io.sf2loki.app.config.ConfigTestSupport.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Operations settings: {@code sink.loki.snappy_tempdir} (CFG-34), the OTEL_* environment defaults
 * (OBS-29, CFG-35) and the cross-host credential WARN (OBS-30). The environment is an injected map;
 * the real one is never read or changed.
 */
class OperationsConfigTest {
  @TempDir Path dir;

  private static String withLoki(String lokiExtra, String service) {
    return MINIMAL.replace(
            "    url: http://loki:3100/loki/api/v1/push\n",
            "    url: http://loki:3100/loki/api/v1/push\n" + lokiExtra)
        + service;
  }

  @Test
  @DisplayName("CFG-34: snappy_tempdir must be an existing directory; absent by default")
  void cfg34SnappyTempdir() throws Exception {
    assertThat(load(dir, MINIMAL).loki().snappyTempdir()).isEmpty();
    Path sub = Files.createDirectory(dir.resolve("snappy"));
    assertThat(load(dir, withLoki("    snappy_tempdir: " + sub + "\n", "")).loki().snappyTempdir())
        .contains(sub);
    Path file = Files.writeString(dir.resolve("file"), "x");
    assertThatThrownBy(() -> load(dir, withLoki("    snappy_tempdir: " + file + "\n", "")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("sink.loki.snappy_tempdir")
        .hasMessageContaining("not a directory");
  }

  private static final String TELEMETRY_ON =
      """
      service:
        telemetry:
          enabled: true
          auth: none
      """;

  @Test
  @DisplayName(
      "OBS-29, CFG-35: OTEL_EXPORTER_OTLP_ENDPOINT fills telemetry.endpoint (+ /v1/metrics), the"
          + " METRICS variant is used as is and wins, and a configured endpoint wins over both")
  void obs29Endpoint() {
    var base = Map.of("OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318/");
    assertThat(load(dir, withLoki("", TELEMETRY_ON), base).service().telemetry().endpoint())
        .isEqualTo("http://collector:4318/v1/metrics");
    var both =
        Map.of(
            "OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318",
            "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT", "http://metrics:9999/custom");
    assertThat(load(dir, withLoki("", TELEMETRY_ON), both).service().telemetry().endpoint())
        .isEqualTo("http://metrics:9999/custom");
    String configured = TELEMETRY_ON + "    endpoint: http://mine:4318/v1/metrics\n";
    assertThat(load(dir, withLoki("", configured), both).service().telemetry().endpoint())
        .isEqualTo("http://mine:4318/v1/metrics");
    // SF2LOKI_* is configuration too: it wins over OTEL_*
    var sf2loki =
        Map.of(
            "OTEL_EXPORTER_OTLP_ENDPOINT", "http://collector:4318",
            "SF2LOKI_SERVICE__TELEMETRY__ENDPOINT", "http://env:1/v1/metrics");
    assertThat(load(dir, withLoki("", TELEMETRY_ON), sf2loki).service().telemetry().endpoint())
        .isEqualTo("http://env:1/v1/metrics");
  }

  @Test
  @DisplayName(
      "OBS-29, CFG-35: OTLP headers, OTEL_RESOURCE_ATTRIBUTES and OTEL_SERVICE_NAME fill the"
          + " unset names; configured names win")
  void obs29HeadersAndResource() {
    String cfg =
        TELEMETRY_ON
            + "    endpoint: http://mine:4318/v1/metrics\n"
            + "    headers: {x-team: mine}\n"
            + "    resource_attributes: {deployment.environment: staging}\n";
    var env =
        Map.of(
            "OTEL_EXPORTER_OTLP_HEADERS", "X-Team=theirs,x-scope=a",
            "OTEL_EXPORTER_OTLP_METRICS_HEADERS", "x-scope=b",
            "OTEL_RESOURCE_ATTRIBUTES",
                "deployment.environment=prod,k8s.namespace.name=obs,service.name=ignored",
            "OTEL_SERVICE_NAME", "sf2loki-eu");
    var t = load(dir, withLoki("", cfg), env).service().telemetry();
    assertThat(t.headers()).containsEntry("x-team", "mine").containsEntry("x-scope", "b");
    assertThat(t.headers()).doesNotContainKey("X-Team");
    assertThat(t.resourceAttributes())
        .containsEntry("deployment.environment", "staging")
        .containsEntry("k8s.namespace.name", "obs")
        .containsEntry("service.name", "sf2loki-eu");
    // nothing set: nothing added, telemetry stays off
    var off = load(dir, MINIMAL, Map.of()).service().telemetry();
    assertThat(off.resourceAttributes()).isEmpty();
    assertThat(off.endpoint()).isEmpty();
  }

  @Test
  @DisplayName(
      "OBS-30: auth=basic with the Loki token and an OTLP endpoint on another host WARNs once;"
          + " same host or an own telemetry token does not")
  void obs30CrossHostWarning() {
    String loki = "    tenant_id: t1\n    auth_token: lokitoken\n";
    String other =
        "service:\n  telemetry:\n    enabled: true\n"
            + "    endpoint: https://otlp.example.net/v1/metrics\n";
    var warnings = load(dir, withLoki(loki, other)).warnings();
    assertThat(warnings.stream().filter(w -> w.contains("OBS-30")))
        .singleElement()
        .satisfies(
            w -> assertThat(w).contains("otlp.example.net", "loki").doesNotContain("lokitoken"));
    String same =
        "service:\n  telemetry:\n    enabled: true\n"
            + "    endpoint: http://LOKI:4318/otlp/v1/metrics\n";
    assertThat(load(dir, withLoki(loki, same)).warnings()).noneMatch(w -> w.contains("OBS-30"));
    String own = other + "    basic_auth_token: own\n";
    assertThat(load(dir, withLoki(loki, own)).warnings()).noneMatch(w -> w.contains("OBS-30"));
  }
}
