package io.sf2loki.bench;

import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.salesforce.elf.ElfStages;
import io.sf2loki.sim.elf.ElfRowGenerator;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Realistic benchmark data: EventLogFile CSV from the simulator's {@link ElfRowGenerator} (types
 * with ~30 columns, ~600 bytes per row), the rows parsed and shaped exactly as the source does, and
 * the entries labelled as the pipeline labels them.
 */
public final class BenchData {
  /** ELF types with 28–34 columns (the bundled schemas), used by every benchmark. */
  public static final List<String> EVENT_TYPES = List.of("Login", "Report", "VisualforceRequest");

  /** The structured metadata fields of a typical configuration. */
  public static final List<String> METADATA_FIELDS = List.of("USER_ID", "CLIENT_IP", "REQUEST_ID");

  /** Static labels of a single-org deployment (PIPE-4), as the app sets them. */
  public static final Map<String, String> STATIC_LABELS =
      Map.of(
          "job", "sf2loki",
          "service_name", "sf2loki",
          "environment", "production",
          "sf_org_id", "00D000000000001EAA");

  private BenchData() {}

  /** A deterministic generator for {@code eventType}, rows one second apart ending about now. */
  public static ElfRowGenerator generator(String eventType, long rows) {
    return ElfRowGenerator.builder(eventType)
        .seed(42)
        .start(Instant.now().minus(Duration.ofSeconds(rows + 60)))
        .step(Duration.ofSeconds(1))
        .build();
  }

  /** The CSV body (header + {@code rows} rows) of {@code eventType}. */
  public static byte[] csv(String eventType, long rows) {
    return generator(eventType, rows).csv(rows);
  }

  /** Metrics on a real SDK meter provider (recording costs what it costs in production). */
  public static Sf2lokiMetrics metrics() {
    SdkMeterProvider provider =
        SdkMeterProvider.builder().registerMetricReader(InMemoryMetricReader.create()).build();
    return new Sf2lokiMetrics(provider, "bench");
  }

  /**
   * {@code rows} entries of {@code eventType} after shaping and the pipeline's static-label merge:
   * the input of the encoders.
   */
  public static List<LogEntry> entries(String eventType, int rows, Sf2lokiMetrics metrics) {
    byte[] csv = csv(eventType, rows);
    ElfStages.Shaper shaper =
        new ElfStages.Shaper(eventType, ElfStages.header(csv), METADATA_FIELDS, metrics);
    List<LogEntry> out = new ArrayList<>(rows);
    Map<Map<String, String>, Map<String, String>> merged = new java.util.HashMap<>();
    for (Map<String, Object> row : ElfStages.parseAll(csv)) {
      LogEntry e = shaper.shape(row);
      Map<String, String> labels =
          merged.computeIfAbsent(
              e.labels(),
              own -> {
                Map<String, String> m = new LinkedHashMap<>(own);
                m.putAll(STATIC_LABELS);
                return Map.copyOf(m);
              });
      out.add(e.withLabels(labels));
    }
    return out;
  }
}
