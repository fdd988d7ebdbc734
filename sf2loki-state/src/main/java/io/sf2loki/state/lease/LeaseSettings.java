package io.sf2loki.state.lease;

import static io.sf2loki.core.settings.Setting.duration;
import static io.sf2loki.core.settings.Setting.string;

import io.sf2loki.core.settings.Setting;
import java.time.Duration;
import java.util.Objects;

/**
 * One lease coordinator's settings ({@code coordinate.file_lease|s3_lease|gcs_lease|k8s_lease},
 * SPEC §1.3, CFG-21); for {@code k8s_lease} {@code ttl} is {@code lease_duration} and {@code
 * holderId} the {@code identity}. Owns the definitions of those keys; the application maps YAML
 * onto them and supplies the run-time values when it builds the coordinator ({@link #resolve}).
 *
 * @param holderId this replica's id, written as {@code holder}; empty as configured = resolved at
 *     build time ({@code <hostname>-<pid>}, or {@code $HOSTNAME} for {@code k8s_lease})
 * @param ttl how long a written lease stays valid ({@code expires_at} = now + ttl)
 * @param renewInterval the acquisition and renewal period; {@code 2 × renewInterval < ttl}
 * @param lockWait how long a new term waits for the file store's sidecar lock (STATE-5: {@code
 *     shutdown_grace} + 5 s); irrelevant for object stores; zero as configured (set at build time)
 */
public record LeaseSettings(
    String holderId, Duration ttl, Duration renewInterval, Duration lockWait) {
  /** {@code ttl} of the file, S3 and GCS leases. */
  public static final Setting TTL =
      duration("ttl", Duration.ofSeconds(30), "Lease lifetime.", "CFG-21").greaterThan(0);

  /** {@code renew_interval} of every lease. */
  public static final Setting RENEW_INTERVAL =
      duration("renew_interval", Duration.ofSeconds(10), "Time between renewals.", "CFG-21")
          .greaterThan(0);

  /** {@code holder_id} of the file, S3 and GCS leases. */
  public static final Setting HOLDER_ID =
      string("holder_id", "", "Holder name; empty = <hostname>-<pid>.", "HA-2")
          .defaultText("<hostname>-<pid>");

  /** {@code coordinate.k8s_lease.lease_duration}: the Lease's {@code ttl}. */
  public static final Setting LEASE_DURATION =
      duration("lease_duration", Duration.ofSeconds(30), "Lease lifetime.", "CFG-21")
          .greaterThan(0);

  /** {@code coordinate.k8s_lease.identity}: the Lease's holder id. */
  public static final Setting IDENTITY =
      string("identity", "", "Holder identity; empty = $HOSTNAME, else <hostname>-<pid>.", "HA-3")
          .defaultText("$HOSTNAME");

  public LeaseSettings {
    Objects.requireNonNull(holderId, "holderId");
    Objects.requireNonNull(ttl, "ttl");
    Objects.requireNonNull(renewInterval, "renewInterval");
    Objects.requireNonNull(lockWait, "lockWait");
    if (renewInterval.isNegative()
        || renewInterval.isZero()
        || renewInterval.multipliedBy(2).compareTo(ttl) >= 0) {
      throw new IllegalArgumentException("2 × renew_interval must be less than ttl (CFG-21)");
    }
  }

  /**
   * The lease as configured: {@code holderId} may be empty (resolved at build time), no lock wait
   * yet.
   *
   * @throws IllegalArgumentException unless {@code 2 × renewInterval < ttl} (CFG-21)
   */
  public static LeaseSettings configured(String holderId, Duration ttl, Duration renewInterval) {
    return new LeaseSettings(holderId, ttl, renewInterval, Duration.ZERO);
  }

  /**
   * These settings with the run-time values a coordinator needs.
   *
   * @param lockWait the term-lock wait (STATE-5)
   * @param defaultHolder the holder id used when none is configured
   */
  public LeaseSettings resolve(
      Duration lockWait, java.util.function.Supplier<String> defaultHolder) {
    String holder = holderId.isBlank() ? defaultHolder.get() : holderId;
    return new LeaseSettings(holder, ttl, renewInterval, lockWait);
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
