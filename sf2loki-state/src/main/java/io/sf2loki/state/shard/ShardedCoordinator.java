package io.sf2loki.state.shard;

import io.sf2loki.core.spi.Coordinator;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.state.lease.LeaseCoordinator;
import io.sf2loki.state.lease.LeaseEvents;
import io.sf2loki.state.lease.LeaseProtocol;
import io.sf2loki.state.lease.LeaseSettings;
import io.sf2loki.state.lease.LeaseStoreBinding;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sharding across replicas (SPEC HA-27…HA-30): one lease per org, each run by its own {@link
 * LeaseCoordinator} (the org's HA-1…HA-26 rules: term, epoch, fencing, demotion, unchanged), with
 * the {@link ShardBalance} in front of every acquisition and a {@link SeatHolder} that keeps this
 * replica visible to the others.
 *
 * <p>Threads: {@link #run} starts one virtual thread per org coordinator and one for the seat, runs
 * the balancer (one hand-over per renew interval at most) on the calling thread, and after {@code
 * stop} joins them all. {@link #close()} (after the terms drained) releases every org lease held
 * and the seat.
 */
public final class ShardedCoordinator implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ShardedCoordinator.class);

  /** What one org lease needs from the back end. */
  public interface Leases {
    /** A fresh protocol over org {@code org}'s lease (HA-27). */
    LeaseProtocol org(String org);

    /** A fresh protocol over seat {@code i}'s lease (HA-30); its store binding is a no-op. */
    LeaseProtocol seat(int i);

    /** The org's checkpoint-store hooks (HA-7, HA-8, HA-26, STATE-19). */
    LeaseStoreBinding store(String org);
  }

  private final String type;
  private final LeaseSettings settings;
  private final TimeSource time;
  private final ReplicaView view;
  private final ShardBalance balance;
  private final Map<String, LeaseCoordinator> coordinators = new LinkedHashMap<>();
  private final SeatHolder seat;

  /**
   * @param type {@code coordinate.type} (logs)
   * @param orgs the configured org names, in configuration order
   * @param maxOrgsPerReplica {@code max_orgs_per_replica}; 0 = unlimited
   * @param settings resolved lease settings (holder id = this replica's identity)
   * @param leases the org and seat leases (closed by {@link #close()})
   * @param time wall clock, ticker, sleeper
   * @param events {@code sf2loki_lease_errors}, {@code sf2loki_lease_surrenders}
   */
  public ShardedCoordinator(
      String type,
      List<String> orgs,
      int maxOrgsPerReplica,
      LeaseSettings settings,
      Leases leases,
      TimeSource time,
      LeaseEvents events) {
    this.type = Objects.requireNonNull(type, "type");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.time = Objects.requireNonNull(time, "time");
    this.view = new ReplicaView(settings.holderId(), time.ticker());
    this.balance =
        new ShardBalance(orgs, maxOrgsPerReplica, settings.renewInterval(), view, time.ticker());
    for (String org : orgs) {
      LeaseStoreBinding store = leases.store(org);
      LeaseProtocol gated =
          new GatedProtocol(
              org, leases.org(org), view, balance, time.sleeper(), settings.renewInterval());
      coordinators.put(org, new LeaseCoordinator(type, gated, settings, store, time, events));
    }
    List<LeaseProtocol> seats = new ArrayList<>();
    for (int i = 0; i < orgs.size(); i++) {
      seats.add(leases.seat(i));
    }
    this.seat = new SeatHolder(seats, view, time, settings.renewInterval());
  }

  /**
   * Competes for every org until {@code stop} fires; each org's term is started and ended through
   * its own {@link Coordinator.Leadership}. Returns after every coordinator thread was joined
   * (terms still running are ended by the caller, draining them).
   *
   * @param leadership the HA-1 callbacks of each org's terms
   * @throws Exception the first failure of an org coordinator, after all threads were joined
   */
  public void run(Function<String, Coordinator.Leadership> leadership, StopSignal stop)
      throws Exception {
    StopSignal all = new StopSignal(); // the process stop, or the first coordinator failure
    Runnable unlink = stop.onStopUntilRemoved(all::stop);
    List<Thread> threads = new ArrayList<>();
    List<Exception> failures = java.util.Collections.synchronizedList(new ArrayList<>());
    for (Map.Entry<String, LeaseCoordinator> e : coordinators.entrySet()) {
      String org = e.getKey();
      Coordinator.Leadership inner = leadership.apply(org);
      Coordinator.Leadership tracked = tracked(org, inner);
      threads.add(
          Thread.ofVirtual()
              .name("sf2loki-lease-" + org)
              .start(() -> runOrg(org, e.getValue(), tracked, all, failures)));
    }
    threads.add(
        Thread.ofVirtual()
            .name("sf2loki-lease-seat")
            .start(
                () -> {
                  try {
                    seat.run(all);
                  } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                  }
                }));
    try {
      balance(all);
    } finally {
      all.stop();
      for (Thread t : threads) {
        t.join();
      }
      unlink.run();
    }
    if (!failures.isEmpty()) {
      throw failures.get(0);
    }
  }

  /** HA-5 for one org: its term's write was fenced; false when it leads no term. */
  public boolean demote(String org) {
    LeaseCoordinator c = coordinators.get(org);
    return c != null && c.demote();
  }

  /** Whether this replica leads {@code org} now (HA-7 leadership check). */
  public boolean leading(String org) {
    LeaseCoordinator c = coordinators.get(org);
    return c != null && c.leading();
  }

  /** The epoch of this replica's term of {@code org} (HA-8), -1 when it leads no term of it. */
  public long epoch(String org) {
    LeaseCoordinator c = coordinators.get(org);
    return c == null || !c.leading() ? -1 : c.epoch();
  }

  /** The orgs whose terms run on this replica (statusz, readiness). */
  public Set<String> leadingOrgs() {
    return balance.leading();
  }

  /** The live replicas this replica sees, itself included. */
  public Set<String> liveReplicas() {
    return view.live();
  }

  /** This replica's fair share now (HA-28). */
  public int share() {
    return balance.share();
  }

  /** Releases every org lease and the seat; idempotent. */
  @Override
  public void close() {
    for (LeaseCoordinator c : coordinators.values()) {
      try {
        c.close();
      } catch (RuntimeException e) {
        log.atWarn().setCause(e).log("lease release failed");
      }
    }
    seat.release();
  }

  private void runOrg(
      String org,
      LeaseCoordinator c,
      Coordinator.Leadership leadership,
      StopSignal stop,
      List<Exception> failures) {
    try {
      c.run(leadership, stop);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (Exception e) {
      log.atError().addKeyValue("org", org).setCause(e).log("org coordinator failed");
      failures.add(e);
      stop.stop();
    }
  }

  /** HA-28: at most one hand-over per renew interval while above the fair share. */
  private void balance(StopSignal stop) throws InterruptedException {
    while (time.sleeper().sleep(settings.renewInterval(), stop)) {
      Optional<String> org = balance.toRelease();
      if (org.isPresent() && coordinators.get(org.get()).relinquish()) {
        log.atInfo()
            .addKeyValue("coordinator", type)
            .addKeyValue("org", org.get())
            .addKeyValue("share", balance.share())
            .addKeyValue("live_replicas", view.live().size())
            .log("handing an org over to even out the replicas");
      }
    }
  }

  private Coordinator.Leadership tracked(String org, Coordinator.Leadership inner) {
    return new Coordinator.Leadership() {
      @Override
      public void onAcquire() {
        balance.acquired(org);
        inner.onAcquire();
      }

      @Override
      public void onLose() {
        try {
          inner.onLose();
        } finally {
          balance.lost(org);
        }
      }
    };
  }
}
