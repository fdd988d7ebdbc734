package io.sf2loki.app.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * {@code state} (SPEC §1.3, STATE, CFG-22).
 *
 * @param store default FILE
 * @param file file store settings
 * @param s3 S3 store settings (bucket required when {@code store=s3})
 * @param gcs GCS store settings (bucket required when {@code store=gcs})
 * @param minWriteInterval effective value: explicit, else 0 for file and 1 second for s3/gcs
 *     (PIPE-9)
 */
public record StateConfig(Store store, File file, S3 s3, Gcs gcs, Duration minWriteInterval) {

  /** {@code state.file}: {@code path} default {@code /var/lib/sf2loki/state.json}. */
  public record File(Path path) {}

  /** {@code state.s3}: key default {@code sf2loki/state.json}. */
  public record S3(
      String bucket, String key, Optional<String> region, Optional<String> endpointUrl) {}

  /**
   * {@code state.gcs}: object name default {@code sf2loki/state.json}; {@code endpoint_url} and
   * {@code anonymous} (STATE-14) address an emulator or a private endpoint.
   */
  public record Gcs(
      String bucket,
      String objectName,
      Optional<Path> serviceFile,
      Optional<String> endpointUrl,
      boolean anonymous) {}

  /** {@code state.store}. */
  public enum Store implements YamlEnum {
    FILE,
    S3,
    GCS;

    @Override
    public String yaml() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }
}
