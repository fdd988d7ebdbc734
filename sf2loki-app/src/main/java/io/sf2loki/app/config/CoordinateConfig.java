package io.sf2loki.app.config;

import io.sf2loki.state.gcs.GcsStoreSettings;
import io.sf2loki.state.lease.LeaseSettings;
import io.sf2loki.state.s3.S3StoreSettings;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * {@code coordinate} (SPEC §1.3, HA, CFG-21, CFG-29, CFG-30): groups the lease records, which own
 * their keys ({@link LeaseSettings} as configured: the holder id may be empty and the lock wait is
 * set when the coordinator is built, {@link LeaseSettings#resolve}).
 *
 * @param type default NOOP
 * @param fileLease file-lease settings
 * @param k8sLease Kubernetes Lease settings
 * @param s3Lease S3 object lease settings (FEAT-7)
 * @param gcsLease GCS object lease settings (FEAT-7)
 * @param perOrg {@code per_org}: one lease per org, replicas share the orgs (HA-27, CFG-43)
 * @param maxOrgsPerReplica {@code max_orgs_per_replica}: most orgs one replica leads; 0 = unlimited
 *     (HA-28, CFG-44)
 */
public record CoordinateConfig(
    Type type,
    FileLease fileLease,
    K8sLease k8sLease,
    S3Lease s3Lease,
    GcsLease gcsLease,
    boolean perOrg,
    int maxOrgsPerReplica) {

  /** One lease for the whole deployment ({@code per_org: false}). */
  public CoordinateConfig(
      Type type, FileLease fileLease, K8sLease k8sLease, S3Lease s3Lease, GcsLease gcsLease) {
    this(type, fileLease, k8sLease, s3Lease, gcsLease, false, 0);
  }

  /**
   * {@code coordinate.file_lease}.
   *
   * @param path default {@code /var/lib/sf2loki/leader.lease}
   * @param lease ttl (default 30 s), renew interval (default 10 s), holder id ({@code ""} = {@code
   *     <hostname>-<pid>})
   */
  public record FileLease(Path path, LeaseSettings lease) {
    /** {@code ttl}. */
    public Duration ttl() {
      return lease.ttl();
    }
  }

  /**
   * {@code coordinate.k8s_lease}.
   *
   * @param namespace default {@code default}
   * @param name default {@code sf2loki-leader}
   * @param kubeconfig absent = in-cluster configuration
   * @param lease {@code lease_duration} as ttl (default 30 s), renew interval (default 10 s),
   *     {@code identity} as holder id ({@code ""} = {@code $HOSTNAME}, else {@code
   *     <hostname>-<pid>})
   */
  public record K8sLease(
      String namespace, String name, Optional<Path> kubeconfig, LeaseSettings lease) {
    /** {@code renew_interval}. */
    public Duration renewInterval() {
      return lease.renewInterval();
    }
  }

  /**
   * {@code coordinate.s3_lease} (CFG-29): the HA-9 document in one S3 object, addressed path-style
   * when an endpoint is set (as {@code state.s3}).
   *
   * @param object bucket (non-empty when {@code type=s3_lease}), key (default {@code
   *     sf2loki/leader.lease}), region, endpoint
   * @param lease ttl, renew interval, holder id
   */
  public record S3Lease(S3StoreSettings object, LeaseSettings lease) {}

  /**
   * {@code coordinate.gcs_lease} (CFG-30): the HA-9 document in one GCS object.
   *
   * @param object bucket (non-empty when {@code type=gcs_lease}), object name (default {@code
   *     sf2loki/leader.lease}), service file, endpoint, anonymous
   * @param lease ttl, renew interval, holder id
   */
  public record GcsLease(GcsStoreSettings object, LeaseSettings lease) {}

  /** {@code coordinate.type}. */
  public enum Type implements YamlEnum {
    NOOP,
    FILE_LEASE,
    K8S_LEASE,
    S3_LEASE,
    GCS_LEASE;

    @Override
    public String yaml() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }
}
