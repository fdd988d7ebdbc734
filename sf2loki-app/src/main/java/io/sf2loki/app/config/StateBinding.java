package io.sf2loki.app.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

/** Binds the {@code state} section (SPEC §1.3, CFG-22, STATE-15). */
final class StateBinding {
  static final Set<String> KEYS = ConfigModel.keys("state");
  static final Set<String> STATE_FILE_KEYS = ConfigModel.keys("state.file");
  static final Set<String> S3_KEYS = ConfigModel.keys("state.s3");
  static final Set<String> GCS_KEYS = ConfigModel.keys("state.gcs");

  private StateBinding() {}

  /** {@code state} → {@link StateConfig}; problems are reported on {@code s}'s sections. */
  static StateConfig bind(Section s) {
    StateConfig.Store store = s.enumValue(StateKeys.STORE, StateConfig.Store.values(), false);
    Section f = s.section("file", STATE_FILE_KEYS);
    StateConfig.File file = new StateConfig.File(Path.of(f.string(StateKeys.FILE_PATH)));
    Section s3 = s.section("s3", S3_KEYS);
    StateConfig.S3 s3c =
        new StateConfig.S3(
            s3.string(StateKeys.S3_BUCKET),
            s3.string(StateKeys.S3_KEY),
            s3.optString("region").filter(v -> !v.isEmpty()),
            s3.optString("endpoint_url").filter(v -> !v.isEmpty()));
    Section g = s.section("gcs", GCS_KEYS);
    StateConfig.Gcs gcs =
        new StateConfig.Gcs(
            g.string(StateKeys.GCS_BUCKET),
            g.string(StateKeys.GCS_OBJECT_NAME),
            g.optString("service_file").filter(v -> !v.isEmpty()).map(Path::of),
            g.optString("endpoint_url").filter(v -> !v.isEmpty()),
            g.bool(StateKeys.GCS_ANONYMOUS));
    if (store == StateConfig.Store.S3 && s3c.bucket().isEmpty()) {
      s3.problem("bucket", "required when state.store is s3");
    }
    if (store == StateConfig.Store.GCS && gcs.bucket().isEmpty()) {
      g.problem("bucket", "required when state.store is gcs");
    }
    Duration minWrite =
        s.duration(
            StateKeys.MIN_WRITE_INTERVAL.key(),
            store == StateConfig.Store.FILE ? Duration.ZERO : Duration.ofSeconds(1));
    return new StateConfig(store, file, s3c, gcs, minWrite);
  }
}
