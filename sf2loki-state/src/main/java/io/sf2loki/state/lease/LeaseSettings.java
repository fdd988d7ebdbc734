package io.sf2loki.state.lease;

import java.time.Duration;
import java.util.Objects;

/**
 * One lease coordinator's settings ({@code coordinate.file_lease|s3_lease|gcs_lease|k8s_lease},
 * SPEC §1.3, CFG-21); for {@code k8s_lease} {@code ttl} is {@code lease_duration} and {@code
 * holderId} the {@code identity}.
 *
 * @param holderId this replica's id, written as {@code holder}
 * @param ttl how long a written lease stays valid ({@code expires_at} = now + ttl)
 * @param renewInterval the acquisition and renewal period; {@code 2 × renewInterval < ttl}
 * @param lockWait how long a new term waits for the file store's sidecar lock (STATE-5: {@code
 *     shutdown_grace} + 5 s); irrelevant for object stores
 */
public record LeaseSettings(
    String holderId, Duration ttl, Duration renewInterval, Duration lockWait) {
  public LeaseSettings {
    Objects.requireNonNull(holderId, "holderId");
    Objects.requireNonNull(ttl, "ttl");
    Objects.requireNonNull(renewInterval, "renewInterval");
    Objects.requireNonNull(lockWait, "lockWait");
    if (holderId.isBlank()) {
      throw new IllegalArgumentException("holder id must not be empty");
    }
    if (renewInterval.isNegative()
        || renewInterval.isZero()
        || renewInterval.multipliedBy(2).compareTo(ttl) >= 0) {
      throw new IllegalArgumentException("2 × renew_interval must be less than ttl (CFG-21)");
    }
  }

  /** HA-10: min(1 s, max(50 ms, 0.1 × renew_interval)). */
  public Duration verifyDelay() {
    Duration tenth = renewInterval.dividedBy(10);
    Duration atLeast = tenth.compareTo(Duration.ofMillis(50)) < 0 ? Duration.ofMillis(50) : tenth;
    return atLeast.compareTo(Duration.ofSeconds(1)) > 0 ? Duration.ofSeconds(1) : atLeast;
  }

  /** HA-11: {@code ttl − renew_interval} without a successful renewal ends the lease. */
  public Duration renewDeadline() {
    return ttl.minus(renewInterval);
  }

  /** {@code <hostname>-<pid>}, the default holder id. */
  public static String defaultHolderId() {
    String host;
    try {
      host = java.net.InetAddress.getLocalHost().getHostName();
    } catch (java.io.IOException e) {
      host = "localhost";
    }
    return host + "-" + ProcessHandle.current().pid();
  }
}
