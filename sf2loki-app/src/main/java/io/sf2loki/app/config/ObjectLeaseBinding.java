package io.sf2loki.app.config;

import io.sf2loki.app.config.CoordinateConfig.GcsLease;
import io.sf2loki.app.config.CoordinateConfig.S3Lease;
import io.sf2loki.state.gcs.GcsStoreSettings;
import io.sf2loki.state.lease.LeaseSettings;
import io.sf2loki.state.s3.S3StoreSettings;
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
    boolean used = type == CoordinateConfig.Type.S3_LEASE;
    S3StoreSettings object = StateBinding.s3(s, StateKeys.S3L_BUCKET, StateKeys.S3L_KEY, used);
    if (used && object.bucket().isEmpty()) {
      s.problem("bucket", "required when coordinate.type is s3_lease");
    }
    return new S3Lease(object, lease(s, "ttl"));
  }

  static GcsLease gcs(Section coordinate, CoordinateConfig.Type type) {
    Section g = coordinate.section("gcs_lease", GCS_LEASE_KEYS);
    boolean used = type == CoordinateConfig.Type.GCS_LEASE;
    GcsStoreSettings object =
        StateBinding.gcs(g, StateKeys.GCSL_BUCKET, StateKeys.GCSL_OBJECT_NAME, used);
    if (used && object.bucket().isEmpty()) {
      g.problem("bucket", "required when coordinate.type is gcs_lease");
    }
    return new GcsLease(object, lease(g, "ttl"));
  }

  /**
   * {@code ttl}, {@code renew_interval}, {@code holder_id} of a file or object lease as configured
   * (CFG-21 checked here, at {@code renew_interval}).
   */
  static LeaseSettings lease(Section s, String ttlName) {
    Duration ttl = s.duration(StateKeys.TTL);
    Duration renew = s.duration(StateKeys.RENEW_INTERVAL);
    return configured(s, s.string(StateKeys.HOLDER_ID), ttl, renew, ttlName);
  }

  /** The lease as configured; a CFG-21 violation is a problem and the record keeps the defaults. */
  static LeaseSettings configured(
      Section s, String holder, Duration ttl, Duration renew, String ttlName) {
    if (renew.multipliedBy(2).compareTo(ttl) >= 0) { // CFG-21
      s.problem("renew_interval", "2 × renew_interval must be less than " + ttlName);
      return LeaseSettings.configured(
          holder, StateKeys.TTL.durationDefault(), StateKeys.RENEW_INTERVAL.durationDefault());
    }
    return LeaseSettings.configured(holder, ttl, renew);
  }
}
