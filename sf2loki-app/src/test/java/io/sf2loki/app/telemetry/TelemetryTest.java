package io.sf2loki.app.telemetry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.sf2loki.app.cli.Version;
import io.sf2loki.app.health.HealthServer;
import io.sf2loki.app.health.Readiness;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class TelemetryTest {
  static TelemetrySettings otlp(String endpoint, Map<String, String> headers) {
    return new TelemetrySettings(
        true,
        endpoint,
        TelemetrySettings.Auth.BASIC,
        "12345",
        "s3cr3t",
        headers,
        Duration.ofSeconds(60),
        Map.of("deployment.environment", "test"),
        false);
  }

  @Test
  @DisplayName("FEAT-15/OBS-2: /metrics on the health server serves Prometheus names")
  void prometheusScrape() throws Exception {
    try (Telemetry t = Telemetry.create(TelemetrySettings.disabled().withPrometheus(true));
        HealthServer server =
            HealthServer.builder(new Readiness())
                .address("127.0.0.1:0")
                .metrics(t.prometheus().orElseThrow())
                .start();
        HttpClient client = HttpClient.newHttpClient()) {
      Sf2lokiMetrics m = new Sf2lokiMetrics(t.meterProvider(), Version.get());
      m.lokiPush.add(1, Attributes.of(Sf2lokiMetrics.OUTCOME, "success"));
      m.lokiPushDurationSeconds.record(0.25);
      m.eventsIngested.add(
          3,
          Attributes.of(Sf2lokiMetrics.SOURCE, "pubsub", Sf2lokiMetrics.EVENT_TYPE, "LoginEvent"));
      HttpResponse<String> r =
          client.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/metrics"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(200);
      assertThat(r.headers().firstValue("content-type").orElseThrow()).startsWith("text/plain");
      String body = r.body();
      assertThat(body)
          .contains("sf2loki_build_info{version=\"" + Version.get() + "\"} 1")
          .contains("sf2loki_loki_push_total{outcome=\"success\"} 1")
          .contains("sf2loki_events_ingested_total{event_type=\"LoginEvent\",source=\"pubsub\"} 3")
          .contains("sf2loki_loki_push_duration_seconds_bucket{le=")
          .contains("sf2loki_loki_push_duration_seconds_count 1")
          .contains("sf2loki_loki_push_duration_seconds_sum 0.25")
          .contains("sf2loki_queue_depth 0")
          .doesNotContain("otel_scope_name");
    }
  }

  @Test
  @DisplayName("OBS-1: OTLP/HTTP protobuf push with Basic auth, header overrides and resource")
  void otlpPush() throws Exception {
    List<Map<String, List<String>>> requests = new CopyOnWriteArrayList<>();
    List<byte[]> bodies = new CopyOnWriteArrayList<>();
    HttpServer collector =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    collector.createContext(
        "/v1/metrics",
        ex -> {
          requests.add(Map.copyOf(ex.getRequestHeaders()));
          bodies.add(ex.getRequestBody().readAllBytes());
          ex.sendResponseHeaders(200, -1);
          ex.close();
        });
    collector.start();
    try (Telemetry t =
        Telemetry.create(
            otlp(
                "http://127.0.0.1:" + collector.getAddress().getPort() + "/v1/metrics",
                Map.of("X-Scope-OrgID", "tenant-a")),
            null,
            Duration.ofSeconds(5))) {
      Sf2lokiMetrics m = new Sf2lokiMetrics(t.meterProvider(), Version.get());
      m.lokiPush.add(2, Attributes.of(Sf2lokiMetrics.OUTCOME, "retried"));
      assertThat(t.meterProvider().forceFlush().join(5, TimeUnit.SECONDS).isSuccess()).isTrue();
    } finally {
      collector.stop(0);
    }
    assertThat(requests).isNotEmpty();
    Map<String, List<String>> h = requests.get(0);
    String expected =
        "Basic "
            + Base64.getEncoder().encodeToString("12345:s3cr3t".getBytes(StandardCharsets.UTF_8));
    assertThat(h.get("Authorization")).containsExactly(expected);
    assertThat(h.get("X-scope-orgid")).containsExactly("tenant-a");
    assertThat(h.get("Content-type")).containsExactly("application/x-protobuf");
    String body = new String(bodies.get(0), StandardCharsets.ISO_8859_1);
    assertThat(body)
        .contains("service.name")
        .contains("sf2loki")
        .contains("deployment.environment")
        .contains("sf2loki_loki_push")
        .doesNotContain("service.version")
        .doesNotContain("telemetry.sdk");
  }

  @Test
  @DisplayName("OBS-1: computed headers; telemetry.headers override case-insensitively")
  void headers() {
    var s = otlp("http://x/v1/metrics", Map.of("authorization", "Bearer abc"));
    assertThat(Telemetry.otlpHeaders(s)).containsExactly(Map.entry("authorization", "Bearer abc"));
    var none =
        new TelemetrySettings(
            true,
            "http://x",
            TelemetrySettings.Auth.NONE,
            "",
            null,
            Map.of(),
            Duration.ofSeconds(1),
            Map.of(),
            false);
    assertThat(Telemetry.otlpHeaders(none)).isEmpty();
    assertThat(otlp("http://x", Map.of()).toString()).doesNotContain("s3cr3t");
  }

  @Test
  void settingsValidation() {
    assertThatThrownBy(() -> otlp("", Map.of())).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () ->
                new TelemetrySettings(
                    false,
                    "",
                    TelemetrySettings.Auth.NONE,
                    "",
                    null,
                    Map.of(),
                    Duration.ZERO,
                    Map.of(),
                    false))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  @DisplayName("OBS-1: an extra in-memory reader sees this instance's points only")
  void extraReader() {
    InMemoryMetricReader reader = InMemoryMetricReader.create();
    try (Telemetry t =
        Telemetry.create(TelemetrySettings.disabled(), reader, Duration.ofSeconds(1))) {
      assertThat(t.prometheus()).isEmpty();
      Sf2lokiMetrics m = new Sf2lokiMetrics(t.meterProvider(), "9.9.9");
      m.lokiBytesPushed.add(10);
      assertThat(reader.collectAllMetrics())
          .anySatisfy(md -> assertThat(md.getName()).isEqualTo("sf2loki_loki_bytes_pushed"));
    }
  }

  @Test
  @DisplayName(
      "OBS-28: the instance provider carries the JVM runtime metrics under their semantic-"
          + "convention names; /metrics renames count gauges so promtool's _count rule holds")
  void obs28RuntimeMetrics() {
    InMemoryMetricReader reader = InMemoryMetricReader.create();
    try (Telemetry t =
        Telemetry.create(TelemetrySettings.disabled(), reader, Duration.ofSeconds(1))) {
      List<String> names =
          reader.collectAllMetrics().stream().map(md -> md.getName()).distinct().toList();
      assertThat(names)
          .contains(
              "jvm.memory.used",
              "jvm.memory.committed",
              "jvm.thread.count",
              "jvm.class.count",
              "jvm.cpu.time",
              "jvm.cpu.count",
              "jvm.file_descriptor.count");
    }
    assertThat(Telemetry.prometheusCountName("jvm_thread_count")).isEqualTo("jvm_threads");
    assertThat(Telemetry.prometheusCountName("jvm_file_descriptor_count"))
        .isEqualTo("jvm_file_descriptors");
    assertThat(Telemetry.prometheusCountName("jvm_other_count")).isEqualTo("jvm_other_current");
  }
}
