package io.sf2loki.loki;

import io.sf2loki.core.pipeline.PipelineSettings;
import io.sf2loki.core.settings.Setting;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Settings of {@link LokiHttpSink} ({@code sink.loki.*}, SPEC SINK-2, SINK-3, SINK-12, SINK-13,
 * SINK-15, CFG-23, PIPE-5).
 *
 * @param url full push URL, e.g. {@code https://host/loki/api/v1/push}
 * @param tenantId {@code tenant_id}, or null; sent as {@code X-Scope-OrgID} unless {@code
 *     authToken} is set (SINK-2)
 * @param authToken {@code auth_token} (secret), or null; when set, {@code Authorization: Basic
 *     base64(<tenantId or empty>:<token>)} is sent instead of {@code X-Scope-OrgID}
 * @param encoding body format
 * @param compression configured compression (CFG-23: ignored for protobuf)
 * @param structuredMetadata {@code structured_metadata} mode (SINK-12)
 * @param version product version for {@code User-Agent: sf2loki/<version>}
 * @param connectTimeout TCP/TLS connect timeout; SPEC default 10 s (null → default)
 * @param requestTimeout whole-request timeout; SPEC default 30 s (null → default)
 * @param lateEntries {@code late_entries}: what to do with entries Loki rejects as too far behind
 *     or too old (SINK-13); null → {@link LateEntries#RESTAMP}
 * @param maxEntries {@code batch.max_entries}: most entries per follow-up request of restamped
 *     entries (PIPE-5, SINK-13); ≤ 0 → the {@link PipelineSettings#MAX_ENTRIES} default
 * @param maxBytes {@code batch.max_bytes}: a follow-up request of restamped entries is closed once
 *     Σ(line bytes + 64) reaches this many bytes (PIPE-5, SINK-13); ≤ 0 → the {@link
 *     PipelineSettings#MAX_BYTES} default
 * @param outOfOrderWindow {@code out_of_order_window}: Loki's per-stream out-of-order window
 *     ({@code max_chunk_age / 2}); entries older than a tracked stream's newest delivered entry
 *     minus 90 % of it are routed late before the push (SINK-15); null → {@link
 *     #OUT_OF_ORDER_WINDOW} default, zero disables the routing
 * @param maxTrackedStreams {@code max_tracked_streams}: most streams whose newest delivered
 *     timestamp is kept (least recently used evicted, SINK-15); ≤ 0 → the {@link
 *     #MAX_TRACKED_STREAMS} default
 */
public record LokiSinkSettings(
    URI url,
    String tenantId,
    String authToken,
    Encoding encoding,
    Compression compression,
    MetadataMode structuredMetadata,
    String version,
    Duration connectTimeout,
    Duration requestTimeout,
    LateEntries lateEntries,
    int maxEntries,
    long maxBytes,
    Duration outOfOrderWindow,
    int maxTrackedStreams) {
  /** Definition of the {@code url} key (SPEC §1.3). */
  public static final Setting URL =
      Setting.string("url", null, "Full Loki push URL.", "SINK-1")
          .mandatory()
          .example("https://loki.example.com/loki/api/v1/push");

  /** Definition of the {@code tenant_id} key (SPEC §1.3). */
  public static final Setting TENANT_ID =
      Setting.string("tenant_id", null, "X-Scope-OrgID tenant.", "SINK-2");

  /** Definition of the {@code auth_token} key (SPEC §1.3). */
  public static final Setting AUTH_TOKEN =
      Setting.secret("auth_token", "Bearer or basic token.", "SINK-2");

  /** Definition of the {@code encoding} key (SPEC §1.3). */
  public static final Setting ENCODING =
      Setting.choice(
          "encoding", "protobuf", List.of("protobuf", "json"), "Push body encoding.", "SINK-4");

  /** Definition of the {@code compression} key (SPEC §1.3). */
  public static final Setting COMPRESSION =
      Setting.choice(
          "compression",
          "snappy",
          List.of("snappy", "gzip", "none"),
          "Body compression (protobuf is always snappy).",
          "CFG-23");

  /** Definition of the {@code structured_metadata} key (SPEC §1.3). */
  public static final Setting STRUCTURED_METADATA =
      Setting.choice(
          "structured_metadata",
          "auto",
          List.of("auto", "on", "off"),
          "Whether entries carry structured metadata.",
          "SINK-12");

  /** Definition of the {@code late_entries} key (SPEC §1.3). */
  public static final Setting LATE_ENTRIES =
      Setting.choice(
          "late_entries",
          "restamp",
          List.of("restamp", "drop"),
          "Handling of entries Loki rejects as out of window.",
          "SINK-13, SINK-15");

  /** Definition of the {@code out_of_order_window} key (SPEC §1.3). */
  public static final Setting OUT_OF_ORDER_WINDOW =
      Setting.duration(
          "out_of_order_window",
          Duration.ofHours(1),
          "Loki's per-stream out-of-order window; 0s disables pre-push routing.",
          "SINK-15");

  /** Definition of the {@code max_tracked_streams} key (SPEC §1.3). */
  public static final Setting MAX_TRACKED_STREAMS =
      Setting.integer(
              "max_tracked_streams", 10_000, "Streams whose high-water mark is kept.", "SINK-15")
          .atLeast(1);

  /** {@code sink.loki.late_entries} (SPEC SINK-13). */
  public enum LateEntries {
    /**
     * Default: entries rejected as {@code too_far_behind} or {@code too_old} are pushed once more
     * with a fresh timestamp, label {@code late="true"} and metadata {@code event_time}.
     */
    RESTAMP,
    /** Such entries are dropped and counted under their reason. */
    DROP
  }

  /** SINK-3 connect timeout. */
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);

  /** Definition of the {@code request_timeout} key (SPEC §1.3, SINK-3). */
  public static final Setting REQUEST_TIMEOUT =
      Setting.duration(
              "request_timeout",
              Duration.ofSeconds(30),
              "Whole-request timeout of one push; a timed-out push is retried.",
              "SINK-3")
          .atLeast(1);

  /** SINK-3 request timeout: the default of {@link #REQUEST_TIMEOUT}. */
  public static final Duration DEFAULT_REQUEST_TIMEOUT = REQUEST_TIMEOUT.durationDefault();

  /** PIPE-5 / CFG {@code batch.max_entries} default. */

  /** SINK-15 {@code out_of_order_window} default: Loki's default {@code max_chunk_age} 2 h / 2. */

  /** PIPE-5 / CFG {@code batch.max_bytes} default (1 MiB). */

  /**
   * @throws NullPointerException if {@code url} is null
   */
  public LokiSinkSettings {
    Objects.requireNonNull(url, "url");
    encoding = encoding == null ? Encoding.PROTOBUF : encoding;
    compression = compression == null ? Compression.SNAPPY : compression;
    structuredMetadata = structuredMetadata == null ? MetadataMode.AUTO : structuredMetadata;
    version = version == null ? "unknown" : version;
    connectTimeout = connectTimeout == null ? DEFAULT_CONNECT_TIMEOUT : connectTimeout;
    requestTimeout = requestTimeout == null ? DEFAULT_REQUEST_TIMEOUT : requestTimeout;
    tenantId = tenantId == null || tenantId.isEmpty() ? null : tenantId;
    authToken = authToken == null || authToken.isEmpty() ? null : authToken;
    lateEntries = lateEntries == null ? LateEntries.RESTAMP : lateEntries;
    maxEntries = maxEntries <= 0 ? (int) PipelineSettings.MAX_ENTRIES.longDefault() : maxEntries;
    maxBytes = maxBytes <= 0 ? PipelineSettings.MAX_BYTES.longDefault() : maxBytes;
    outOfOrderWindow =
        outOfOrderWindow == null ? OUT_OF_ORDER_WINDOW.durationDefault() : outOfOrderWindow;
    if (outOfOrderWindow.isNegative()) {
      throw new IllegalArgumentException("outOfOrderWindow must not be negative");
    }
    maxTrackedStreams =
        maxTrackedStreams <= 0 ? (int) MAX_TRACKED_STREAMS.longDefault() : maxTrackedStreams;
  }

  /**
   * The settings without SINK-13 options: late entries restamped, SPEC default batch limits.
   *
   * @throws NullPointerException if {@code url} is null
   */
  public LokiSinkSettings(
      URI url,
      String tenantId,
      String authToken,
      Encoding encoding,
      Compression compression,
      MetadataMode structuredMetadata,
      String version,
      Duration connectTimeout,
      Duration requestTimeout) {
    this(
        url,
        tenantId,
        authToken,
        encoding,
        compression,
        structuredMetadata,
        version,
        connectTimeout,
        requestTimeout,
        null,
        0,
        0,
        null,
        0);
  }

  /** Defaults for everything but the URL and version: protobuf, snappy, auto, no auth. */
  public static LokiSinkSettings of(URI url, String version) {
    return new LokiSinkSettings(
        url, null, null, null, null, null, version, null, null, null, 0, 0, null, 0);
  }

  /** A copy with another body format and compression. */
  public LokiSinkSettings withEncoding(Encoding newEncoding, Compression newCompression) {
    return new LokiSinkSettings(
        url,
        tenantId,
        authToken,
        newEncoding,
        newCompression,
        structuredMetadata,
        version,
        connectTimeout,
        requestTimeout,
        lateEntries,
        maxEntries,
        maxBytes,
        outOfOrderWindow,
        maxTrackedStreams);
  }

  /** A copy with another product version ({@code User-Agent: sf2loki/<version>}). */
  public LokiSinkSettings withVersion(String newVersion) {
    return new LokiSinkSettings(
        url,
        tenantId,
        authToken,
        encoding,
        compression,
        structuredMetadata,
        newVersion,
        connectTimeout,
        requestTimeout,
        lateEntries,
        maxEntries,
        maxBytes,
        outOfOrderWindow,
        maxTrackedStreams);
  }

  /** A copy with another tenant and token. */
  public LokiSinkSettings withAuth(String newTenantId, String newAuthToken) {
    return new LokiSinkSettings(
        url,
        newTenantId,
        newAuthToken,
        encoding,
        compression,
        structuredMetadata,
        version,
        connectTimeout,
        requestTimeout,
        lateEntries,
        maxEntries,
        maxBytes,
        outOfOrderWindow,
        maxTrackedStreams);
  }

  /** A copy with another structured-metadata mode. */
  public LokiSinkSettings withStructuredMetadata(MetadataMode mode) {
    return new LokiSinkSettings(
        url,
        tenantId,
        authToken,
        encoding,
        compression,
        mode,
        version,
        connectTimeout,
        requestTimeout,
        lateEntries,
        maxEntries,
        maxBytes,
        outOfOrderWindow,
        maxTrackedStreams);
  }

  /** A copy with another {@code late_entries} mode (SINK-13); null → {@code RESTAMP}. */
  public LokiSinkSettings withLateEntries(LateEntries mode) {
    return new LokiSinkSettings(
        url,
        tenantId,
        authToken,
        encoding,
        compression,
        structuredMetadata,
        version,
        connectTimeout,
        requestTimeout,
        mode,
        maxEntries,
        maxBytes,
        outOfOrderWindow,
        maxTrackedStreams);
  }

  /**
   * A copy with other batch limits for follow-up requests of restamped entries (PIPE-5, SINK-13).
   *
   * @param newMaxEntries entries per request; ≤ 0 → default 1000
   * @param newMaxBytes bytes (Σ line bytes + 64 per entry) per request; ≤ 0 → default 1 MiB
   */
  public LokiSinkSettings withBatchLimits(int newMaxEntries, long newMaxBytes) {
    return new LokiSinkSettings(
        url,
        tenantId,
        authToken,
        encoding,
        compression,
        structuredMetadata,
        version,
        connectTimeout,
        requestTimeout,
        lateEntries,
        newMaxEntries,
        newMaxBytes,
        outOfOrderWindow,
        maxTrackedStreams);
  }

  /**
   * A copy with other SINK-15 bounds.
   *
   * @param window Loki's out-of-order window; null → 1 h, zero disables pre-push routing
   * @param maxStreams most tracked streams; ≤ 0 → 10000
   */
  public LokiSinkSettings withLateRouting(Duration window, int maxStreams) {
    return new LokiSinkSettings(
        url,
        tenantId,
        authToken,
        encoding,
        compression,
        structuredMetadata,
        version,
        connectTimeout,
        requestTimeout,
        lateEntries,
        maxEntries,
        maxBytes,
        window,
        maxStreams);
  }

  /** Never prints the auth token. */
  @Override
  public String toString() {
    return "LokiSinkSettings[url="
        + url
        + ", tenantId="
        + tenantId
        + ", authToken="
        + (authToken == null ? "absent" : "***")
        + ", encoding="
        + encoding
        + ", compression="
        + compression
        + ", structuredMetadata="
        + structuredMetadata
        + ", version="
        + version
        + ", connectTimeout="
        + connectTimeout
        + ", requestTimeout="
        + requestTimeout
        + ", lateEntries="
        + lateEntries
        + ", maxEntries="
        + maxEntries
        + ", maxBytes="
        + maxBytes
        + ", outOfOrderWindow="
        + outOfOrderWindow
        + ", maxTrackedStreams="
        + maxTrackedStreams
        + "]";
  }
}
