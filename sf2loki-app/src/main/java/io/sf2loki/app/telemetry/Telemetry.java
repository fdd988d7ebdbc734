package io.sf2loki.app.telemetry;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.metrics.MeterProvider;
import io.opentelemetry.exporter.otlp.http.metrics.OtlpHttpMetricExporter;
import io.opentelemetry.exporter.prometheus.PrometheusMetricReader;
import io.opentelemetry.instrumentation.runtimetelemetry.RuntimeTelemetry;
import io.opentelemetry.instrumentation.runtimetelemetry.RuntimeTelemetryBuilder;
import io.opentelemetry.instrumentation.runtimetelemetry.internal.Experimental;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.SdkMeterProviderBuilder;
import io.opentelemetry.sdk.metrics.export.MetricReader;
import io.opentelemetry.sdk.metrics.export.PeriodicMetricReader;
import io.opentelemetry.sdk.resources.Resource;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.InfoSnapshot;
import io.prometheus.metrics.model.snapshots.MetricMetadata;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;
import io.sf2loki.app.health.MetricsEndpoint;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The application instance's metrics plumbing (SPEC OBS-1, OBS-2, FEAT-15): exactly one {@link
 * SdkMeterProvider} per instance (never the global OpenTelemetry), with
 *
 * <ul>
 *   <li>an optional periodic OTLP/HTTP protobuf exporter (JDK HTTP sender) to {@code endpoint}
 *       every {@code export_interval}, with {@link #otlpHeaders(TelemetrySettings)};
 *   <li>an optional Prometheus reader rendered by the health server at {@code /metrics} ({@link
 *       #prometheus()}), in the Prometheus text format with OBS-2 names ({@code <name>_total} for
 *       counters, {@code <name>} for gauges, {@code _bucket/_sum/_count} for histograms) and no
 *       {@code otel_scope_*} labels;
 *   <li>an optional extra reader (tests: {@code InMemoryMetricReader}).
 * </ul>
 *
 * <p>JVM and process runtime metrics (OBS-28: memory pools, GC, threads, CPU, classes, file
 * descriptors) are recorded on the same provider by the OpenTelemetry runtime-telemetry
 * instrumentation (JMX-based, semantic-convention names {@code jvm.*}, so {@code jvm_*} on {@code
 * /metrics}); they are outside the {@code sf2loki_*} catalogue of OBS-5.
 *
 * <p>The resource is {@code service.name=sf2loki} merged with {@code resource_attributes}; the
 * version is not a resource attribute (it is carried by {@code sf2loki_build_info}, OBS-6).
 * Thread-safe; {@link #close()} flushes and shuts the provider down.
 */
public final class Telemetry implements AutoCloseable {
  /** Bound on the final flush and shutdown in {@link #close()}. */
  public static final Duration DEFAULT_SHUTDOWN_TIMEOUT = Duration.ofSeconds(10);

  private final SdkMeterProvider provider;
  private final PrometheusMetricReader prometheusReader;
  private final RuntimeTelemetry runtime;
  private final Duration shutdownTimeout;

  private Telemetry(
      SdkMeterProvider provider, PrometheusMetricReader prometheusReader, Duration t) {
    this.provider = provider;
    this.prometheusReader = prometheusReader;
    this.runtime = runtimeTelemetry(provider);
    this.shutdownTimeout = t;
  }

  /**
   * Registers the runtime observers (OBS-28) on {@code provider}: the stable JMX set plus the
   * experimental one, which carries {@code jvm.file_descriptor.count}, {@code
   * jvm.system.cpu.utilization} and buffer pools. JFR stays off (no recording thread). The
   * OpenTelemetry wrapper is local and never registered globally (OBS-1).
   */
  private static RuntimeTelemetry runtimeTelemetry(SdkMeterProvider provider) {
    RuntimeTelemetryBuilder b =
        RuntimeTelemetry.builder(OpenTelemetrySdk.builder().setMeterProvider(provider).build());
    Experimental.setEmitExperimentalMetrics(b, true);
    return b.build();
  }

  /** Builds telemetry from settings, without an extra reader. */
  public static Telemetry create(TelemetrySettings settings) {
    return create(settings, null, DEFAULT_SHUTDOWN_TIMEOUT);
  }

  /**
   * Builds telemetry.
   *
   * @param settings what to export
   * @param extraReaderOrNull an additional reader (tests: {@code InMemoryMetricReader}), or null
   * @param shutdownTimeout bound on the final flush + shutdown in {@link #close()}
   */
  public static Telemetry create(
      TelemetrySettings settings, MetricReader extraReaderOrNull, Duration shutdownTimeout) {
    Objects.requireNonNull(settings, "settings");
    SdkMeterProviderBuilder b = SdkMeterProvider.builder().setResource(resource(settings));
    if (settings.otlpEnabled()) {
      var exporterBuilder =
          OtlpHttpMetricExporter.builder()
              .setEndpoint(settings.endpoint())
              .setMeterProvider(MeterProvider::noop);
      otlpHeaders(settings).forEach(exporterBuilder::addHeader);
      b.registerMetricReader(
          PeriodicMetricReader.builder(exporterBuilder.build())
              .setInterval(settings.exportInterval())
              .build());
    }
    PrometheusMetricReader prom = null;
    if (settings.prometheusEnabled()) {
      prom = PrometheusMetricReader.builder().setOtelScopeLabelsEnabled(false).build();
      b.registerMetricReader(prom);
    }
    if (extraReaderOrNull != null) {
      b.registerMetricReader(extraReaderOrNull);
    }
    return new Telemetry(b.build(), prom, Objects.requireNonNull(shutdownTimeout));
  }

  /**
   * The OTLP request headers of OBS-1: {@code Authorization: Basic base64(user:token)} (no trailing
   * newline) for {@code auth=basic}, nothing for {@code auth=none}, then {@code telemetry.headers}
   * overriding (header names compared case-insensitively). Also used by {@code doctor} (DOC check
   * 9).
   */
  public static Map<String, String> otlpHeaders(TelemetrySettings settings) {
    Map<String, String> h = new LinkedHashMap<>();
    if (settings.auth() == TelemetrySettings.Auth.BASIC
        && settings.basicAuthUser() != null
        && settings.basicAuthToken() != null) {
      String pair = settings.basicAuthUser() + ":" + settings.basicAuthToken();
      h.put(
          "Authorization",
          "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8)));
    }
    settings
        .headers()
        .forEach(
            (k, v) -> {
              h.keySet().removeIf(existing -> existing.equalsIgnoreCase(k));
              h.put(k, v);
            });
    return h;
  }

  static Resource resource(TelemetrySettings settings) {
    AttributesBuilder a = Attributes.builder().put("service.name", "sf2loki");
    settings.resourceAttributes().forEach(a::put);
    return Resource.empty().merge(Resource.create(a.build()));
  }

  /** The instance's meter provider, passed to every component that records metrics (OBS-1). */
  public SdkMeterProvider meterProvider() {
    return provider;
  }

  /** The {@code /metrics} renderer when Prometheus is enabled (FEAT-15). */
  public Optional<MetricsEndpoint> prometheus() {
    if (prometheusReader == null) {
      return Optional.empty();
    }
    PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
    PrometheusMetricReader reader = prometheusReader;
    return Optional.of(
        new MetricsEndpoint() {
          @Override
          public String contentType() {
            return writer.getContentType();
          }

          @Override
          public void writeTo(OutputStream out) throws IOException {
            writer.write(out, restoreInfoGauges(reader.collect()));
          }
        });
  }

  /**
   * The Prometheus model reserves the {@code _info} suffix and strips it from gauge names, which
   * would turn {@code sf2loki_build_info} into {@code sf2loki_build}. Gauges whose OpenTelemetry
   * name ends in {@code _info} and whose points are all 1 are re-expressed as Prometheus info
   * metrics, which the text format renders as {@code <name>_info{...} 1} (OBS-2, OBS-6).
   */
  static MetricSnapshots restoreInfoGauges(MetricSnapshots in) {
    MetricSnapshots.Builder out = MetricSnapshots.builder();
    for (MetricSnapshot snap : in) {
      MetricMetadata md = snap.getMetadata();
      if (snap instanceof GaugeSnapshot g && wasInfo(md)) {
        boolean allOne = g.getDataPoints().stream().allMatch(p -> p.getValue() == 1.0);
        if (allOne) {
          InfoSnapshot.Builder info = InfoSnapshot.builder().name(md.getName()).help(md.getHelp());
          for (GaugeSnapshot.GaugeDataPointSnapshot p : g.getDataPoints()) {
            info.dataPoint(new InfoSnapshot.InfoDataPointSnapshot(p.getLabels()));
          }
          out.metricSnapshot(info.build());
          continue;
        }
      }
      if (snap instanceof GaugeSnapshot g && md.getName().endsWith("_count")) {
        out.metricSnapshot(renamed(g, prometheusCountName(md.getName())));
        continue;
      }
      if (snap instanceof InfoSnapshot i && (md.getHelp() == null || md.getHelp().isEmpty())) {
        // the exporter's target_info has no HELP, which promtool check metrics reports (OBS-20)
        InfoSnapshot.Builder info =
            InfoSnapshot.builder().name(md.getName()).help("Target metadata");
        i.getDataPoints().forEach(info::dataPoint);
        out.metricSnapshot(info.build());
        continue;
      }
      out.metricSnapshot(snap);
    }
    return out.build();
  }

  /**
   * OBS-28: the Prometheus name of a gauge whose OpenTelemetry name ends in {@code .count} (the
   * runtime metrics {@code jvm.thread.count} and the like). The text-format linters reserve {@code
   * _count} for histograms and summaries, so {@code /metrics} serves these under the plural of the
   * counted thing, or {@code <stem>_current} for a name outside the table; OTLP keeps the
   * semantic-convention name.
   */
  static String prometheusCountName(String name) {
    return switch (name) {
      case "jvm_thread_count" -> "jvm_threads";
      case "jvm_class_count" -> "jvm_classes";
      case "jvm_cpu_count" -> "jvm_cpus";
      case "jvm_file_descriptor_count" -> "jvm_file_descriptors";
      case "jvm_buffer_count" -> "jvm_buffers";
      default -> name.substring(0, name.length() - "_count".length()) + "_current";
    };
  }

  private static GaugeSnapshot renamed(GaugeSnapshot g, String name) {
    MetricMetadata md = g.getMetadata();
    GaugeSnapshot.Builder b = GaugeSnapshot.builder().name(name).help(md.getHelp());
    g.getDataPoints().forEach(b::dataPoint);
    return b.build();
  }

  private static boolean wasInfo(MetricMetadata md) {
    String original = md.getOriginalName();
    if (original != null && original.endsWith("_info")) {
      return !md.getName().endsWith("_info");
    }
    return md.getName().equals("sf2loki_build");
  }

  /** Flushes pending exports and shuts the provider down (bounded by the shutdown timeout). */
  @Override
  public void close() {
    runtime.close();
    provider.shutdown().join(shutdownTimeout.toMillis(), TimeUnit.MILLISECONDS);
  }
}
