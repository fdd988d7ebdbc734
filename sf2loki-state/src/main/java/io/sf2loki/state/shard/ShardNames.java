package io.sf2loki.state.shard;

import java.nio.file.Path;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Where the shard leases live (SPEC HA-27, HA-30): one lease per org and one seat lease per org
 * count, beside the deployment's lease.
 *
 * <ul>
 *   <li>Kubernetes: org {@code <name>-<org>} with the org name lower-cased and {@code _} turned
 *       into {@code -}; seat {@code <name>.seat-<i>} (a dot, which no org name has, so the two
 *       never meet).
 *   <li>File: org {@code <path>.org-<org>}; seat {@code <path>.seat-<i>}, in the lease file's
 *       directory.
 * </ul>
 */
public final class ShardNames {
  /** A Kubernetes object name (RFC 1123 subdomain). */
  private static final Pattern K8S_NAME =
      Pattern.compile("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$");

  private ShardNames() {}

  /** The Lease of {@code org} (HA-27). */
  public static String k8sOrg(String name, String org) {
    return name + "-" + org.toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /** The Lease of seat {@code i} (HA-30). */
  public static String k8sSeat(String name, int i) {
    return name + ".seat-" + i;
  }

  /** Whether {@code leaseName} is a valid Kubernetes object name (at most 253 characters). */
  public static boolean validK8sName(String leaseName) {
    return leaseName.length() <= 253 && K8S_NAME.matcher(leaseName).matches();
  }

  /** The lease file of {@code org} (HA-27). */
  public static Path fileOrg(Path path, String org) {
    return path.resolveSibling(path.getFileName() + ".org-" + org);
  }

  /** The lease file of seat {@code i} (HA-30). */
  public static Path fileSeat(Path path, int i) {
    return path.resolveSibling(path.getFileName() + ".seat-" + i);
  }
}
