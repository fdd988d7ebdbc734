package io.sf2loki.state.s3;

import static io.sf2loki.core.settings.Setting.string;

import io.sf2loki.core.settings.Setting;
import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code state.s3} (SPEC §1.3, STATE-8), also the object of {@code coordinate.s3_lease} (CFG-29).
 * Owns the definitions of its keys; the application maps YAML onto them.
 *
 * @param bucket the bucket; empty = not configured (the binder requires it for the selected store,
 *     CFG-22, CFG-31; {@link S3Backend} refuses an empty one)
 * @param key the object key, default {@code sf2loki/state.json}
 * @param region empty = the default AWS region provider chain, or {@code us-east-1} when {@code
 *     endpointUrl} is set (S3-compatible services ignore it)
 * @param endpointUrl an S3-compatible endpoint (MinIO, R2, Ceph), addressed path-style; empty = AWS
 * @param attemptTimeout the bound of one request including its body (STATE-9 retries a timeout)
 */
public record S3StoreSettings(
    String bucket,
    String key,
    Optional<String> region,
    Optional<URI> endpointUrl,
    Duration attemptTimeout) {
  /** Default object key of the checkpoint document. */
  public static final String DEFAULT_STATE_OBJECT = "sf2loki/state.json";

  /** Default object key of the HA-9 lease document. */
  public static final String DEFAULT_LEASE_OBJECT = "sf2loki/leader.lease";

  /** {@code state.s3.bucket}. */
  public static final Setting BUCKET =
      string("bucket", "", "Bucket; required for store s3.", "CFG-22");

  /** {@code state.s3.key}. */
  public static final Setting KEY = string("key", DEFAULT_STATE_OBJECT, "Object key.", "STATE-8");

  /** {@code state.s3.region} and {@code coordinate.s3_lease.region}. */
  public static final Setting REGION =
      string("region", null, "Region; absent = default AWS provider chain.", "STATE-8");

  /** {@code state.s3.endpoint_url} and {@code coordinate.s3_lease.endpoint_url}. */
  public static final Setting ENDPOINT_URL =
      string("endpoint_url", null, "S3-compatible endpoint (MinIO, R2, Ceph).", "STATE-8");

  /** {@code coordinate.s3_lease.bucket}. */
  public static final Setting LEASE_BUCKET =
      string("bucket", "", "Bucket; required for s3_lease.", "CFG-29, CFG-31");

  /** {@code coordinate.s3_lease.key}. */
  public static final Setting LEASE_KEY =
      string("key", DEFAULT_LEASE_OBJECT, "Lease object key.", "CFG-29");

  /** SPEC STATE-8: one S3 request (connect, send, whole body) takes at most 30 s. */
  public static final Duration DEFAULT_ATTEMPT_TIMEOUT = Duration.ofSeconds(30);

  public S3StoreSettings {
    Objects.requireNonNull(bucket, "bucket");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(region, "region");
    Objects.requireNonNull(endpointUrl, "endpointUrl");
    Objects.requireNonNull(attemptTimeout, "attemptTimeout");
    if (key.isBlank()) {
      throw new IllegalArgumentException("state.s3.key must not be empty");
    }
  }

  /** The same object settings under another key (backfill document, doctor probe). */
  public S3StoreSettings withKey(String otherKey) {
    return new S3StoreSettings(bucket, otherKey, region, endpointUrl, attemptTimeout);
  }

  /** {@code s3://bucket/key}. */
  public String describe() {
    return "s3://" + bucket + "/" + key;
  }
}
