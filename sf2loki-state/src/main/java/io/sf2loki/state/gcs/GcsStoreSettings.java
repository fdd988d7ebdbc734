package io.sf2loki.state.gcs;

import static io.sf2loki.core.settings.Setting.bool;
import static io.sf2loki.core.settings.Setting.path;
import static io.sf2loki.core.settings.Setting.string;

import io.sf2loki.core.settings.Setting;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code state.gcs} (SPEC §1.3, STATE-11, STATE-14), also the object of {@code
 * coordinate.gcs_lease} (CFG-30). Owns the definitions of its keys; the application maps YAML onto
 * them.
 *
 * @param bucket the bucket; empty = not configured (the binder requires it for the selected store,
 *     CFG-22, CFG-31; {@link GcsBackend} refuses an empty one)
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

  /** {@code state.gcs.bucket}. */
  public static final Setting BUCKET =
      string("bucket", "", "Bucket; required for store gcs.", "CFG-22");

  /** {@code state.gcs.object_name}. */
  public static final Setting OBJECT_NAME =
      string(
          "object_name",
          io.sf2loki.state.s3.S3StoreSettings.DEFAULT_STATE_OBJECT,
          "Object name.",
          "STATE-15");

  /** {@code state.gcs.service_file} and {@code coordinate.gcs_lease.service_file}. */
  public static final Setting SERVICE_FILE =
      path(
          "service_file",
          null,
          "Service-account JSON; absent = Application Default Credentials.",
          "STATE-15");

  /** {@code state.gcs.endpoint_url} and {@code coordinate.gcs_lease.endpoint_url}. */
  public static final Setting ENDPOINT_URL =
      string("endpoint_url", null, "JSON API root (emulators, private endpoints).", "STATE-15")
          .defaultText(DEFAULT_ENDPOINT);

  /** {@code state.gcs.anonymous} and {@code coordinate.gcs_lease.anonymous}. */
  public static final Setting ANONYMOUS =
      bool("anonymous", false, "Send no credentials (emulators only).", "STATE-15");

  /** {@code coordinate.gcs_lease.bucket}. */
  public static final Setting LEASE_BUCKET =
      string("bucket", "", "Bucket; required for gcs_lease.", "CFG-30, CFG-31");

  /** {@code coordinate.gcs_lease.object_name}. */
  public static final Setting LEASE_OBJECT_NAME =
      string(
          "object_name",
          io.sf2loki.state.s3.S3StoreSettings.DEFAULT_LEASE_OBJECT,
          "Lease object name.",
          "CFG-30");

  /** SPEC STATE-11: one GCS request (connect, send, whole body) takes at most 30 s. */
  public static final Duration DEFAULT_REQUEST_TIMEOUT = Duration.ofSeconds(30);

  public GcsStoreSettings {
    Objects.requireNonNull(bucket, "bucket");
    Objects.requireNonNull(objectName, "objectName");
    Objects.requireNonNull(serviceFile, "serviceFile");
    Objects.requireNonNull(endpoint, "endpoint");
    Objects.requireNonNull(requestTimeout, "requestTimeout");
    if (objectName.isBlank()) {
      throw new IllegalArgumentException("state.gcs.object_name must not be empty");
    }
  }

  /** The same object settings under another object name (backfill document, doctor probe). */
  public GcsStoreSettings withObjectName(String other) {
    return new GcsStoreSettings(bucket, other, serviceFile, endpoint, anonymous, requestTimeout);
  }

  /** {@code gs://bucket/object}. */
  public String describe() {
    return "gs://" + bucket + "/" + objectName;
  }
}
