package io.sf2loki.app.config;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * {@code coordinate} (SPEC §1.3, HA, CFG-21).
 *
 * @param type default NOOP
 * @param fileLease file-lease settings
 * @param k8sLease Kubernetes Lease settings
 */
public record CoordinateConfig(Type type, FileLease fileLease, K8sLease k8sLease) {

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

  /** {@code coordinate.type}. */
  public enum Type implements YamlEnum {
    NOOP,
    FILE_LEASE,
    K8S_LEASE;

    @Override
    public String yaml() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }
}
