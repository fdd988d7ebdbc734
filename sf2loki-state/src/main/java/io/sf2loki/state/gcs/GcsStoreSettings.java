package io.sf2loki.state.gcs;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code state.gcs} (SPEC §1.3, STATE-11, STATE-14).
 *
 * @param bucket the bucket, required
 * @param objectName the object, default {@code sf2loki/state.json}
 * @param serviceFile a service-account key file; empty = Application Default Credentials
 * @param endpoint the JSON API root, default {@value #DEFAULT_ENDPOINT} (emulators, private
 *     endpoints)
 * @param anonymous send no credentials (emulators only)
 * @param requestTimeout the bound of one request including its body (STATE-9 retries a timeout)
 */
public record GcsStoreSettings(
    String bucket,
    String objectName,
    Optional<Path> serviceFile,
    URI endpoint,
    boolean anonymous,
    Duration requestTimeout) {
  /** The public JSON API root. */
  public static final String DEFAULT_ENDPOINT = "https://storage.googleapis.com";

  /** SPEC STATE-11: one GCS request (connect, send, whole body) takes at most 30 s. */
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(30);

  public GcsStoreSettings {
    Objects.requireNonNull(bucket, "bucket");
    Objects.requireNonNull(objectName, "objectName");
    Objects.requireNonNull(serviceFile, "serviceFile");
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(requestTimeout, "requestTimeout");
    if (bucket.isBlank() || objectName.isBlank()) {
      throw new IllegalArgumentException(
          "state.gcs.bucket and state.gcs.object_name must not be empty");
    }
  }

  /** {@code gs://bucket/object}. */
  public String describe() {
    return "gs://" + bucket + "/" + objectName;
  }
}
