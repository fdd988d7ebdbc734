package io.sf2loki.app.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * {@code coordinate} (SPEC §1.3, HA, CFG-21, CFG-29, CFG-30).
 *
 * @param type default NOOP
 * @param fileLease file-lease settings
 * @param k8sLease Kubernetes Lease settings
 * @param s3Lease S3 object lease settings (FEAT-7)
 * @param gcsLease GCS object lease settings (FEAT-7)
 */
public record CoordinateConfig(
    Type type, FileLease fileLease, K8sLease k8sLease, S3Lease s3Lease, GcsLease gcsLease) {

  /**
   * {@code coordinate.file_lease}.
   *
   * @param path default {@code /var/lib/sf2loki/leader.lease}
   * @param ttl default 30 s; {@code 2 × renewInterval < ttl}
   * @param renewInterval default 10 s
   * @param holderId {@code ""} = {@code <hostname>-<pid>}
   */
  public record FileLease(Path path, Duration ttl, Duration renewInterval, String holderId) {}

  /**
   * {@code coordinate.k8s_lease}.
   *
   * @param namespace default {@code default}
   * @param name default {@code sf2loki-leader}
   * @param identity {@code ""} = {@code $HOSTNAME}, else {@code <hostname>-<pid>}
   * @param leaseDuration default 30 s; {@code 2 × renewInterval < leaseDuration}
   * @param renewInterval default 10 s
   * @param kubeconfig absent = in-cluster configuration
   */
  public record K8sLease(
      String namespace,
      String name,
      String identity,
      Duration leaseDuration,
      Duration renewInterval,
      Optional<Path> kubeconfig) {}

  /**
   * {@code coordinate.s3_lease} (CFG-29): the HA-9 document in one S3 object, addressed path-style
   * when {@code endpointUrl} is set (as {@code state.s3}).
   *
   * @param bucket required when {@code type=s3_lease}
   * @param key default {@code sf2loki/leader.lease}
   * @param region absent = the default AWS region provider chain
   * @param endpointUrl an S3-compatible endpoint (MinIO, R2, Ceph)
   * @param ttl default 30 s; {@code 2 × renewInterval < ttl}
   * @param renewInterval default 10 s
   * @param holderId {@code ""} = {@code <hostname>-<pid>}
   */
  public record S3Lease(
      String bucket,
      String key,
      Optional<String> region,
      Optional<String> endpointUrl,
      Duration ttl,
      Duration renewInterval,
      String holderId) {}

  /**
   * {@code coordinate.gcs_lease} (CFG-30): the HA-9 document in one GCS object.
   *
   * @param bucket required when {@code type=gcs_lease}
   * @param objectName default {@code sf2loki/leader.lease}
   * @param serviceFile absent = Application Default Credentials
   * @param endpointUrl absent = {@code https://storage.googleapis.com}
   * @param anonymous send no credentials (emulators only)
   * @param ttl default 30 s; {@code 2 × renewInterval < ttl}
   * @param renewInterval default 10 s
   * @param holderId {@code ""} = {@code <hostname>-<pid>}
   */
  public record GcsLease(
      String bucket,
      String objectName,
      Optional<Path> serviceFile,
      Optional<String> endpointUrl,
      boolean anonymous,
      Duration ttl,
      Duration renewInterval,
      String holderId) {}

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
