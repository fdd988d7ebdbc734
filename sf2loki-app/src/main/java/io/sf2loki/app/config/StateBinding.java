package io.sf2loki.app.config;

import io.sf2loki.state.gcs.GcsStoreSettings;
import io.sf2loki.state.s3.S3StoreSettings;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Binds the {@code state} section (SPEC §1.3, CFG-22, STATE-15) onto the store records, through
 * their definitions.
 */
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
    S3StoreSettings s3c =
        s3(s3, StateKeys.S3_BUCKET, StateKeys.S3_KEY, store == StateConfig.Store.S3);
    if (store == StateConfig.Store.S3 && s3c.bucket().isEmpty()) {
      s3.problem("bucket", "required when state.store is s3");
    }
    Section g = s.section("gcs", GCS_KEYS);
    GcsStoreSettings gcs =
        gcs(g, StateKeys.GCS_BUCKET, StateKeys.GCS_OBJECT_NAME, store == StateConfig.Store.GCS);
    if (store == StateConfig.Store.GCS && gcs.bucket().isEmpty()) {
      g.problem("bucket", "required when state.store is gcs");
    }
    Duration minWrite =
        s.duration(
            StateKeys.MIN_WRITE_INTERVAL.key(),
            store == StateConfig.Store.FILE ? Duration.ZERO : Duration.ofSeconds(1));
    return new StateConfig(store, file, s3c, gcs, minWrite);
  }

  /**
   * An S3 object's settings ({@code state.s3}, {@code coordinate.s3_lease}); the endpoint is
   * checked only when the object is {@code used} (an unused one is not kept).
   */
  static S3StoreSettings s3(
      Section s,
      io.sf2loki.core.settings.Setting bucket,
      io.sf2loki.core.settings.Setting key,
      boolean used) {
    return new S3StoreSettings(
        s.string(bucket),
        s.string(key),
        s.optString(StateKeys.S3_REGION.key()).filter(v -> !v.isEmpty()),
        s.optString(StateKeys.S3_ENDPOINT_URL.key())
            .filter(v -> !v.isEmpty())
            .flatMap(u -> endpoint(s, u, used)),
        S3StoreSettings.DEFAULT_ATTEMPT_TIMEOUT);
  }

  /** A GCS object's settings ({@code state.gcs}, {@code coordinate.gcs_lease}), as {@link #s3}. */
  static GcsStoreSettings gcs(
      Section g,
      io.sf2loki.core.settings.Setting bucket,
      io.sf2loki.core.settings.Setting name,
      boolean used) {
    URI dflt = URI.create(GcsStoreSettings.DEFAULT_ENDPOINT);
    return new GcsStoreSettings(
        g.string(bucket),
        g.string(name),
        g.optString(StateKeys.GCS_SERVICE_FILE.key()).filter(v -> !v.isEmpty()).map(Path::of),
        g.optString(StateKeys.GCS_ENDPOINT_URL.key())
            .filter(v -> !v.isEmpty())
            .flatMap(u -> endpoint(g, u, used))
            .orElse(dflt),
        g.bool(StateKeys.GCS_ANONYMOUS),
        GcsStoreSettings.DEFAULT_REQUEST_TIMEOUT);
  }

  /** CLI-4, STATE-15: an http(s) URL with a host, else a problem at {@code endpoint_url}. */
  private static Optional<URI> endpoint(Section s, String value, boolean used) {
    try {
      URI u = new URI(value);
      String scheme = Optional.ofNullable(u.getScheme()).orElse("").toLowerCase(Locale.ROOT);
      if ((scheme.equals("http") || scheme.equals("https")) && u.getHost() != null) {
        return Optional.of(u);
      }
    } catch (URISyntaxException e) {
      // reported below
    }
    if (used) {
      s.problem("endpoint_url", "'" + value + "' is not an http(s) URL");
    }
    return Optional.empty();
  }
}
