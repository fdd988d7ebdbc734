package io.sf2loki.state.shard;

import io.sf2loki.core.time.Ticker;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The sharing rules of one replica (SPEC HA-28): which orgs it may compete for and which one it
 * hands over. Thread-safe (one lock); the org coordinator threads ask {@link #mayAcquire} before
 * each acquisition attempt and report {@link #acquired}/{@link #lost}; the balancer asks {@link
 * #toRelease} once per renew interval.
 *
 * <ul>
 *   <li>Fair share = ceil(orgs / live replicas) (live replicas from the {@link ReplicaView}),
 *       capped by {@code max_orgs_per_replica} (0 = no cap).
 *   <li>Acquire: never at the cap, nor an org this replica handed over less than two renew
 *       intervals ago; below the fair share always; at or above it only an org that has shown no
 *       live holder for at least one renew interval (so an org nobody below its share takes still
 *       gets a leader when the replicas' views disagree).
 *   <li>Release: while leading more than the fair share, one org per renew interval — the one
 *       acquired last.
 * </ul>
 */
public final class ShardBalance {
  private final int orgs;
  private final int cap;
  private final long renewNanos;
  private final ReplicaView view;
  private final Ticker ticker;
  private final Map<String, Long> leading = new LinkedHashMap<>(); // org → acquired at; this
  private final Map<String, Long> cooldownUntil = new LinkedHashMap<>(); // guarded by this
  private long lastReleaseNanos;
  private boolean released;

  /**
   * @param orgs the configured org names
   * @param maxOrgsPerReplica {@code max_orgs_per_replica}; 0 = unlimited
   * @param renewInterval {@code renew_interval}
   * @param view what this replica sees of the leases
   * @param ticker monotonic time
   */
  public ShardBalance(
      List<String> orgs,
      int maxOrgsPerReplica,
      Duration renewInterval,
      ReplicaView view,
      Ticker ticker) {
    if (orgs.isEmpty()) {
      throw new IllegalArgumentException("no orgs to share");
    }
    if (maxOrgsPerReplica < 0) {
      throw new IllegalArgumentException("max_orgs_per_replica < 0: " + maxOrgsPerReplica);
    }
    this.orgs = orgs.size();
    this.cap = maxOrgsPerReplica == 0 ? Integer.MAX_VALUE : maxOrgsPerReplica;
    this.renewNanos = renewInterval.toNanos();
    this.view = Objects.requireNonNull(view, "view");
    this.ticker = Objects.requireNonNull(ticker, "ticker");
  }

  /** HA-28: ceil(orgs / live replicas), capped by {@code max_orgs_per_replica}. */
  public static int fairShare(int orgs, int liveReplicas, int cap) {
    int live = Math.max(1, liveReplicas);
    int share = (orgs + live - 1) / live;
    return Math.min(share, cap <= 0 ? Integer.MAX_VALUE : cap);
  }

  /** This replica's fair share now. */
  public int share() {
    return fairShare(orgs, view.live().size(), cap);
  }

  /** Whether this replica may try to acquire {@code org}'s lease now. */
  public synchronized boolean mayAcquire(String org) {
    long now = ticker.nanoTime();
    Long until = cooldownUntil.get(org);
    if (until != null && now - until < 0) {
      return false;
    }
    int n = leading.size();
    if (n >= cap) {
      return false;
    }
    if (n < share()) {
      return true;
    }
    return view.freeForNanos(org) >= renewNanos;
  }

  /** {@code org}'s term started on this replica. */
  public synchronized void acquired(String org) {
    leading.put(org, ticker.nanoTime());
  }

  /** {@code org}'s term ended on this replica. */
  public synchronized void lost(String org) {
    leading.remove(org);
  }

  /** The orgs this replica leads, in acquisition order. */
  public synchronized Set<String> leading() {
    return Set.copyOf(leading.keySet());
  }

  /**
   * The org to hand over now, if this replica leads more than its share and handed none over in the
   * last renew interval; marks it so it is not competed for again at once.
   */
  public synchronized Optional<String> toRelease() {
    long now = ticker.nanoTime();
    if (leading.size() <= share() || (released && now - lastReleaseNanos < renewNanos)) {
      return Optional.empty();
    }
    String last = null;
    long at = Long.MIN_VALUE;
    for (Map.Entry<String, Long> e : leading.entrySet()) {
      if (last == null || e.getValue() - at >= 0) {
        last = e.getKey();
        at = e.getValue();
      }
    }
    released = true;
    lastReleaseNanos = now;
    cooldownUntil.put(last, now + 2 * renewNanos);
    return Optional.of(last);
  }
}
