package io.sf2loki.app.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

/** Binds the {@code state} section (SPEC §1.3, CFG-22, STATE-15). */
final class StateBinding {
  static final Set<String> KEYS = Set.of("store", "file", "s3", "gcs", "min_write_interval");
  static final Set<String> STATE_FILE_KEYS = Set.of("path");
  static final Set<String> S3_KEYS = Set.of("bucket", "key", "region", "endpoint_url");
  static final Set<String> GCS_KEYS =
      Set.of("bucket", "object_name", "service_file", "endpoint_url", "anonymous");

  private StateBinding() {}

  /** {@code state} → {@link StateConfig}; problems are reported on {@code s}'s sections. */
  static StateConfig bind(Section s) {
    StateConfig.Store store =
        s.enumValue("store", StateConfig.Store.values(), StateConfig.Store.FILE, false);
    Section f = s.section("file", STATE_FILE_KEYS);
    StateConfig.File file =
        new StateConfig.File(Path.of(f.string("path", "/var/lib/sf2loki/state.json")));
    Section s3 = s.section("s3", S3_KEYS);
    StateConfig.S3 s3c =
        new StateConfig.S3(
            s3.string("bucket", ""),
            s3.string("key", "sf2loki/state.json"),
            s3.optString("region").filter(v -> !v.isEmpty()),
            s3.optString("endpoint_url").filter(v -> !v.isEmpty()));
    Section g = s.section("gcs", GCS_KEYS);
    StateConfig.Gcs gcs =
        new StateConfig.Gcs(
            g.string("bucket", ""),
            g.string("object_name", "sf2loki/state.json"),
            g.optString("service_file").filter(v -> !v.isEmpty()).map(Path::of),
            g.optString("endpoint_url").filter(v -> !v.isEmpty()),
            g.bool("anonymous", false));
    if (store == StateConfig.Store.S3 && s3c.bucket().isEmpty()) {
      s3.problem("bucket", "required when state.store is s3");
    }
    if (store == StateConfig.Store.GCS && gcs.bucket().isEmpty()) {
      g.problem("bucket", "required when state.store is gcs");
    }
    Duration minWrite =
        s.duration(
            "min_write_interval",
            store == StateConfig.Store.FILE ? Duration.ZERO : Duration.ofSeconds(1));
    return new StateConfig(store, file, s3c, gcs, minWrite);
  }
}
