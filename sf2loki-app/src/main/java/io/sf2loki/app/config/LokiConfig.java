package io.sf2loki.app.config;

import io.sf2loki.core.egress.EgressSettings;
import io.sf2loki.loki.Compression;
import io.sf2loki.loki.Encoding;
import io.sf2loki.loki.LokiSinkSettings;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code sink.loki} (SPEC §1.3, SINK, CFG-15, CFG-23): the component settings the binder built from
 * it, plus the keys only the application reads. The batch and queue keys ({@code
 * sink.loki.batch.*}) are in {@link Sf2lokiConfig#pipeline()}.
 *
 * @param push the HTTP sink's settings (url, tenant, token, encoding, compression as configured,
 *     structured metadata mode, late entries, SINK-15 bounds, batch limits of restamped
 *     follow-ups); {@code version} is {@code unknown} until the daemon sets it ({@link
 *     LokiSinkSettings#withVersion})
 * @param labels static stream labels (CFG-15), in configured order
 * @param structuredMetadataFields global structured-metadata field list (SRC-9)
 * @param maxLineBytes {@code batch.max_line_bytes}, default 262144; ≤ 0 disables truncation
 *     (PIPE-6)
 * @param egress the egress governor's settings (EGR-1)
 * @param snappyTempdir {@code snappy_tempdir}: snappy-java's native-library extraction directory
 *     ({@code org.xerial.snappy.tempdir}), absent = its default (CFG-34, SINK-18)
 */
public record LokiConfig(
    LokiSinkSettings push,
    Map<String, String> labels,
    List<String> structuredMetadataFields,
    long maxLineBytes,
    EgressSettings egress,
    Optional<Path> snappyTempdir) {

  /** The configured push URL. */
  public String url() {
    return push.url().toString();
  }

  /** {@code tenant_id}, absent when unset or empty (SINK-2). */
  public Optional<String> tenantId() {
    return Optional.ofNullable(push.tenantId());
  }

  /** {@code auth_token} (CFG-7 secret), absent when unset (SINK-2). */
  public Optional<Secret> authToken() {
    return Optional.ofNullable(push.authToken()).map(Secret::new);
  }

  /**
   * The body compression actually used (CFG-23): always SNAPPY with protobuf; with JSON, GZIP or
   * NONE (a configured SNAPPY sends uncompressed JSON).
   */
  public Compression effectiveCompression() {
    if (push.encoding() == Encoding.PROTOBUF) {
      return Compression.SNAPPY;
    }
    return push.compression() == Compression.GZIP ? Compression.GZIP : Compression.NONE;
  }
}
