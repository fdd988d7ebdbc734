package io.sf2loki.app.config;

import io.sf2loki.state.gcs.GcsStoreSettings;
import io.sf2loki.state.s3.S3StoreSettings;
import java.nio.file.Path;
import java.time.Duration;

/**
 * {@code state} (SPEC §1.3, STATE, CFG-22): groups the store records, which own their keys.
 *
 * @param store default FILE
 * @param file file store settings
 * @param s3 S3 store settings (bucket non-empty, endpoint checked, only when {@code store=s3})
 * @param gcs GCS store settings (bucket non-empty, endpoint checked, only when {@code store=gcs})
 * @param minWriteInterval effective value: explicit, else 0 for file and 1 second for s3/gcs
 *     (PIPE-9)
 */
public record StateConfig(
    Store store, File file, S3StoreSettings s3, GcsStoreSettings gcs, Duration minWriteInterval) {

  /** {@code state.file}: {@code path} default {@code /var/lib/sf2loki/state.json}. */
  public record File(Path path) {}

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
