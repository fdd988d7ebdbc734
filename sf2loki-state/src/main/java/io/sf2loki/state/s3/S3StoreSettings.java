package io.sf2loki.state.s3;

import java.net.URI;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code state.s3} (SPEC §1.3, STATE-8).
 *
 * @param bucket the bucket, required
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
  /** SPEC STATE-8: one S3 request (connect, send, whole body) takes at most 30 s. */
  public static final Duration DEFAULT_ATTEMPT_TIMEOUT = Duration.ofSeconds(30);

  public S3StoreSettings {
    Objects.requireNonNull(bucket, "bucket");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(region, "region");
    Objects.requireNonNull(endpointUrl, "endpointUrl");
    Objects.requireNonNull(attemptTimeout, "attemptTimeout");
    if (bucket.isBlank() || key.isBlank()) {
      throw new IllegalArgumentException("state.s3.bucket and state.s3.key must not be empty");
    }
  }

  /** {@code s3://bucket/key}. */
  public String describe() {
    return "s3://" + bucket + "/" + key;
  }
}
