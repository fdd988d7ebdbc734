package io.sf2loki.app.config;

import io.sf2loki.app.config.CoordinateConfig.GcsLease;
import io.sf2loki.app.config.CoordinateConfig.S3Lease;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

/** Binds {@code coordinate.s3_lease} and {@code coordinate.gcs_lease} (SPEC CFG-29…CFG-31). */
final class ObjectLeaseBinding {
  static final Set<String> S3_LEASE_KEYS = ConfigModel.keys("coordinate.s3_lease");
  static final Set<String> GCS_LEASE_KEYS = ConfigModel.keys("coordinate.gcs_lease");
  static final String DEFAULT_LEASE_OBJECT = StateKeys.DEFAULT_LEASE_OBJECT;

  private ObjectLeaseBinding() {}

  static S3Lease s3(Section coordinate, CoordinateConfig.Type type) {
    Section s = coordinate.section("s3_lease", S3_LEASE_KEYS);
    S3Lease c =
        new S3Lease(
            s.string(StateKeys.S3L_BUCKET),
            s.string(StateKeys.S3L_KEY),
            s.optString("region").filter(v -> !v.isEmpty()),
            s.optString("endpoint_url").filter(v -> !v.isEmpty()),
            s.duration(StateKeys.TTL),
            s.duration(StateKeys.RENEW_INTERVAL),
            s.string(StateKeys.HOLDER_ID));
    if (type == CoordinateConfig.Type.S3_LEASE && c.bucket().isEmpty()) {
      s.problem("bucket", "required when coordinate.type is s3_lease");
    }
    checkRenew(s, c.ttl(), c.renewInterval());
    return c;
  }

  static GcsLease gcs(Section coordinate, CoordinateConfig.Type type) {
    Section g = coordinate.section("gcs_lease", GCS_LEASE_KEYS);
    GcsLease c =
        new GcsLease(
            g.string(StateKeys.GCSL_BUCKET),
            g.string(StateKeys.GCSL_OBJECT_NAME),
            g.optString("service_file").filter(v -> !v.isEmpty()).map(Path::of),
            g.optString("endpoint_url").filter(v -> !v.isEmpty()),
            g.bool(StateKeys.GCS_ANONYMOUS),
            g.duration(StateKeys.TTL),
            g.duration(StateKeys.RENEW_INTERVAL),
            g.string(StateKeys.HOLDER_ID));
    if (type == CoordinateConfig.Type.GCS_LEASE && c.bucket().isEmpty()) {
      g.problem("bucket", "required when coordinate.type is gcs_lease");
    }
    checkRenew(g, c.ttl(), c.renewInterval());
    return c;
  }

  private static void checkRenew(Section s, Duration ttl, Duration renew) {
    if (renew.multipliedBy(2).compareTo(ttl) >= 0) { // CFG-21
      s.problem("renew_interval", "2 × renew_interval must be less than ttl");
    }
  }
}
