package io.sf2loki.app.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code sink.loki} (SPEC §1.3, SINK, CFG-15, CFG-23).
 *
 * @param url full push URL (http or https)
 * @param tenantId {@code X-Scope-OrgID} (SINK-2)
 * @param authToken secret (SINK-2)
 * @param encoding default PROTOBUF
 * @param compression as configured, default SNAPPY; use {@link #effectiveCompression()}
 * @param compressionExplicit whether {@code compression} was set in the configuration (CFG-23)
 * @param labels static stream labels (CFG-15), in configured order
 * @param structuredMetadataFields global structured-metadata field list (SRC-9)
 * @param structuredMetadata default AUTO (SINK-12)
 * @param lateEntries default RESTAMP (SINK-13)
 * @param outOfOrderWindow {@code out_of_order_window}, ≥ 0, default 1 h; 0 disables pre-push
 *     routing of late entries (SINK-15)
 * @param maxTrackedStreams {@code max_tracked_streams}, ≥ 1, default 10000 (SINK-15)
 * @param requestTimeout {@code request_timeout}, &gt; 0, default 30 s: one push's whole-request
 *     timeout (SINK-3)
 * @param batch batching
 * @param egress egress governor
 * @param snappyTempdir {@code snappy_tempdir}: snappy-java's native-library extraction directory
 *     ({@code org.xerial.snappy.tempdir}), absent = its default (CFG-34, SINK-18)
 */
public record LokiConfig(
    String url,
    Optional<String> tenantId,
    Optional<Secret> authToken,
    Encoding encoding,
    Compression compression,
    boolean compressionExplicit,
    Map<String, String> labels,
    List<String> structuredMetadataFields,
    StructuredMetadataMode structuredMetadata,
    LateEntries lateEntries,
    Duration outOfOrderWindow,
    int maxTrackedStreams,
    Duration requestTimeout,
    Batch batch,
    Egress egress,
    Optional<Path> snappyTempdir) {

  /**
   * The body compression actually used (CFG-23): always SNAPPY with protobuf; with JSON, GZIP or
   * NONE (a configured SNAPPY sends uncompressed JSON).
   */
  public Compression effectiveCompression() {
    if (encoding == Encoding.PROTOBUF) {
      return Compression.SNAPPY;
    }
    return compression == Compression.GZIP ? Compression.GZIP : Compression.NONE;
  }

  /**
   * {@code sink.loki.batch}.
   *
   * @param maxEntries ≥ 1, default 1000
   * @param maxBytes bytes ≥ 1024, default 1048576
   * @param flushInterval strictly positive, default 1 second
   * @param maxLineBytes bytes, default 262144; ≤ 0 disables truncation
   * @param queueMaxsize entries per lane, ≥ 100, default 10000
   * @param queueMaxBytes bytes per lane, ≥ 0, default 268435456; 0 disables the byte bound
   */
  public record Batch(
      int maxEntries,
      long maxBytes,
      Duration flushInterval,
      long maxLineBytes,
      int queueMaxsize,
      long queueMaxBytes) {}

  /**
   * {@code sink.loki.egress} (EGR).
   *
   * @param maxLinesPerSecond ≥ 0, 0 = off
   * @param maxBytesPerSecond bytes/s ≥ 0, 0 = off
   * @param dailyByteBudget bytes ≥ 0, 0 = off
   * @param budgetAction default PAUSE
   */
  public record Egress(
      double maxLinesPerSecond,
      double maxBytesPerSecond,
      long dailyByteBudget,
      BudgetAction budgetAction) {}

  /** {@code encoding}. */
  public enum Encoding implements YamlEnum {
    PROTOBUF,
    JSON;

    @Override
    public String yaml() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** {@code compression}. */
  public enum Compression implements YamlEnum {
    SNAPPY,
    GZIP,
    NONE;

    @Override
    public String yaml() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** {@code structured_metadata} (SINK-12). */
  public enum StructuredMetadataMode implements YamlEnum {
    AUTO,
    ON,
    OFF;

    @Override
    public String yaml() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** {@code late_entries} (SINK-13). */
  public enum LateEntries implements YamlEnum {
    RESTAMP,
    DROP;

    @Override
    public String yaml() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** {@code egress.budget_action}. */
  public enum BudgetAction implements YamlEnum {
    PAUSE,
    DROP;

    @Override
    public String yaml() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }
}
