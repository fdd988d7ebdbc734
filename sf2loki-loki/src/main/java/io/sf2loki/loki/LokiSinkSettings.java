package io.sf2loki.loki;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of {@link LokiHttpSink} ({@code sink.loki.*}, SPEC SINK-2, SINK-3, SINK-12, CFG-23).
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
    Duration requestTimeout) {

  /** SINK-3 connect timeout. */
  public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);

  /** SINK-3 request timeout. */
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(30);

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
  }

  /** Defaults for everything but the URL and version: protobuf, snappy, auto, no auth. */
  public static LokiSinkSettings of(URI url, String version) {
    return new LokiSinkSettings(url, null, null, null, null, null, version, null, null);
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
        requestTimeout);
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
        requestTimeout);
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
        requestTimeout);
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
        + "]";
  }
}
