package io.sf2loki.state.lease;

import io.sf2loki.core.spi.Coordinator;
import io.sf2loki.core.spi.StateConflictException;
import io.sf2loki.core.spi.StateException;
import io.sf2loki.core.spi.StateFenceException;
import io.sf2loki.core.spi.StateLockException;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.state.Fencing;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lease coordinator ({@code file_lease}, {@code s3_lease}, {@code gcs_lease}, {@code
 * k8s_lease}; SPEC HA-1, HA-5, HA-7, HA-8, HA-17…HA-19) over a {@link LeaseProtocol} that supplies
 * the back end's acquisition, renewal and release rules (HA-10/HA-11 for lease documents,
 * HA-13…HA-15 for Kubernetes Leases).
 *
 * <ul>
 *   <li>Holding: every {@code renew_interval} one renewal; a surrender it reports ends the term;
 *       when no renewal succeeded for the renew deadline ({@code ttl − renew_interval}, or {@code
 *       lease_duration − renew_interval}, on the monotonic ticker) it surrenders.
 *   <li>Fencing (HA-7): the store's leadership check fails once this replica stopped holding or its
 *       renew deadline passed; the store stamps the term's epoch.
 *   <li>{@link #close()} (clean shutdown, after the term ended): releases our lease and the store's
 *       term lock.
 * </ul>
 *
 * <p>Time: deadlines from the ticker, every wait from the stop-aware sleeper. Threads: {@link #run}
 * runs on the caller's (coordinator) thread; {@link #demote()} is called from the term thread and
 * only signals it.
 */
public final class LeaseCoordinator implements Coordinator, AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LeaseCoordinator.class);

  /** Why a held lease was given up (OBS-17 {@code reason}). */
  public enum Surrender {
    FOREIGN_HOLDER("foreign_holder"),
    RENEW_DEADLINE("renew_deadline"),
    CONFLICT("conflict"),
    DEMOTED("demoted"),
    LOCK("lock"),
    /** HA-28: handed over to even out the orgs across replicas. */
    REBALANCE("rebalance");

    final String label;

    Surrender(String label) {
      this.label = label;
    }
  }

  private final String type;
  private final LeaseProtocol protocol;
  private final LeaseSettings settings;
  private final LeaseStoreBinding binding;
  private final TimeSource time;
  private final LeaseEvents events;
  private final long renewNanos;
  private final long deadlineNanos;
  private final AtomicBoolean demoteRequested = new AtomicBoolean();
  private final AtomicBoolean relinquishRequested = new AtomicBoolean();

  private volatile boolean valid; // the lease is held and confirmed: commits may proceed
  private volatile boolean inTerm; // between onAcquire and the end of onLose
  private volatile long epoch;
  private volatile long lastRenewNanos;
  private volatile StopSignal phase = new StopSignal();

  /**
   * A lease-document coordinator (HA-9…HA-11, HA-16).
   *
   * @param type {@code file_lease}, {@code s3_lease} or {@code gcs_lease} (logs)
   * @param storage the lease document (closed by {@link #close()})
   * @param settings holder id, ttl, renew interval, lock wait
   * @param binding the checkpoint store's HA-7/HA-8/STATE-5 hooks
   * @param time wall clock ({@code expires_at}), ticker (deadlines), sleeper (waits)
   * @param events metrics (OBS-16, OBS-17)
   */
  public LeaseCoordinator(
      String type,
      LeaseStorage storage,
      LeaseSettings settings,
      LeaseStoreBinding binding,
      TimeSource time,
      LeaseEvents events) {
    this(
        type,
        new DocumentLeaseProtocol(storage, settings, binding, time, events),
        settings,
        binding,
        time,
        events);
  }

  /**
   * A coordinator over any lease protocol.
   *
   * @param type the {@code coordinate.type} (logs)
   * @param protocol the back end's rules (closed by {@link #close()})
   * @param settings holder id (resolved, not empty), ttl (the renew deadline is {@code ttl −
   *     renewInterval}), renew interval, lock wait
   * @param binding the checkpoint store's HA-7/HA-8/STATE-5 hooks
   * @param time ticker (deadlines), sleeper (waits)
   * @param events metrics (OBS-17)
   */
  public LeaseCoordinator(
      String type,
      LeaseProtocol protocol,
      LeaseSettings settings,
      LeaseStoreBinding binding,
      TimeSource time,
      LeaseEvents events) {
    this.type = Objects.requireNonNull(type, "type");
    this.protocol = Objects.requireNonNull(protocol, "protocol");
    this.settings = Objects.requireNonNull(settings, "settings");
    if (settings.holderId().isBlank()) {
      throw new IllegalArgumentException("holder id must not be empty (LeaseSettings.resolve)");
    }
    this.binding = Objects.requireNonNull(binding, "binding");
    this.time = Objects.requireNonNull(time, "time");
    this.events = Objects.requireNonNull(events, "events");
    this.renewNanos = settings.renewInterval().toNanos();
    this.deadlineNanos = settings.renewDeadline().toNanos();
  }

  /**
   * HA-5: the term failures a lease coordinator demotes for instead of exiting: a fenced write, a
   * conflicting write, a lock failure.
   */
  public static boolean demotable(Throwable t) {
    return t instanceof StateFenceException
        || t instanceof StateConflictException
        || t instanceof StateLockException;
  }

  /** The current (or last) term's epoch; 0 before the first acquisition (tests, logs). */
  public long epoch() {
    return epoch;
  }

  /** Whether this replica holds a confirmed, unexpired lease now. */
  public boolean leading() {
    return valid && time.ticker().nanoTime() - lastRenewNanos < deadlineNanos;
  }

  @Override
  public void run(Leadership leadership, StopSignal stop) throws InterruptedException {
    binding.install(new Fencing(this::checkLeadership, this::epoch)); // HA-7
    while (!stop.isStopped()) {
      if (!acquire(stop) || !beginTerm(stop)) {
        continue;
      }
      demoteRequested.set(false);
      relinquishRequested.set(false);
      StopSignal p = new StopSignal();
      stop.onStop(p::stop);
      phase = p;
      inTerm = true;
      log.atInfo()
          .addKeyValue("coordinator", type)
          .addKeyValue("lease", protocol.describe())
          .addKeyValue("epoch", epoch)
          .log("lease acquired");
      leadership.onAcquire();
      Surrender why = hold(stop, p);
      if (why == null) {
        return; // process stop: the caller drains the term, close() releases the lease
      }
      valid = false;
      events.surrendered(why.label);
      (why == Surrender.REBALANCE ? log.atInfo() : log.atWarn())
          .addKeyValue("coordinator", type)
          .addKeyValue("lease", protocol.describe())
          .addKeyValue("reason", why.label)
          .addKeyValue("epoch", epoch)
          .log("lease surrendered");
      leadership.onLose();
      inTerm = false;
      binding.endTerm();
      if (why == Surrender.DEMOTED || why == Surrender.REBALANCE) {
        protocol.release(epoch); // HA-5, HA-28
      }
    }
  }

  @Override
  public boolean demote() {
    if (!inTerm) {
      return false;
    }
    valid = false;
    demoteRequested.set(true);
    phase.stop();
    return true;
  }

  /**
   * HA-28: hands the lease over so another replica can lead: fencing fails from now, the term ends
   * as on loss (HA-4) and the lease is released; the coordinator then re-enters acquisition. Called
   * from any thread; only signals the coordinator thread.
   *
   * @return false when no term is running
   */
  public boolean relinquish() {
    if (!inTerm) {
      return false;
    }
    valid = false;
    relinquishRequested.set(true);
    phase.stop();
    return true;
  }

  /** Releases our lease (HA-11, HA-15) and the term lock; idempotent. */
  @Override
  public void close() {
    valid = false;
    try {
      binding.endTerm();
      if (epoch > 0) {
        protocol.release(epoch);
      }
    } finally {
      protocol.close();
    }
  }

  // ---- HA-7 ----

  private void checkLeadership() {
    if (!leading()) {
      throw new StateFenceException(
          "lease " + protocol.describe() + " is no longer held by " + settings.holderId());
    }
  }

  // ---- acquisition ----

  /** One acquisition attempt, waiting as the protocol says; true when the lease was won. */
  boolean acquire(StopSignal stop) throws InterruptedException {
    LeaseProtocol.Won w = protocol.acquire(stop);
    if (w == null) {
      return false;
    }
    epoch = w.epoch();
    lastRenewNanos = w.renewedAtNanos();
    valid = true;
    return true;
  }

  /**
   * STATE-5 after winning: waits for the store's term lock in slices of {@code renew_interval},
   * renewing between slices, for at most {@code lockWait}; false (lease released) when it fails.
   */
  boolean beginTerm(StopSignal stop) throws InterruptedException {
    long deadline = time.ticker().nanoTime() + settings.lockWait().toNanos();
    while (true) {
      long left = deadline - time.ticker().nanoTime();
      Duration slice = Duration.ofNanos(Math.max(0, Math.min(left, renewNanos)));
      try {
        if (binding.beginTerm(slice, stop)) {
          return claimEpoch(stop);
        }
        return false; // stop fired; close() releases the lease
      } catch (StateLockException e) {
        if (time.ticker().nanoTime() >= deadline) {
          return giveUp(Surrender.LOCK, e, stop);
        }
      } catch (StateException e) {
        return storeUnwritable(e, stop); // e.g. the lock file on a read-only or full disk
      }
      Surrender s = renewOnce(stop);
      if (s != null) {
        return giveUp(s, null, stop);
      }
      if (!leading()) {
        return giveUp(Surrender.RENEW_DEADLINE, null, stop);
      }
    }
  }

  /** HA-26: the term's epoch goes into the store before anything loads; else the term ends. */
  private boolean claimEpoch(StopSignal stop) throws InterruptedException {
    try {
      binding.claimEpoch();
      return true;
    } catch (StateFenceException | StateConflictException e) {
      binding.endTerm();
      giveUp(Surrender.CONFLICT, e, stop);
      protocol.release(epoch);
      time.sleeper().sleep(settings.renewInterval(), stop); // a newer term holds the store
      return false;
    } catch (StateException e) {
      binding.endTerm();
      return storeUnwritable(e, stop);
    }
  }

  /**
   * HA-26, STATE-16: the store cannot be written at term start (its term lock cannot be opened or
   * its epoch not stamped): error {@code store_write}, the lease is released and no term runs;
   * acquisition is tried again after {@code renew_interval}.
   */
  private boolean storeUnwritable(StateException e, StopSignal stop) throws InterruptedException {
    events.error("store_write");
    protocol.release(epoch);
    valid = false;
    log.atWarn().setCause(e).log("checkpoint store unwritable; releasing the lease");
    time.sleeper().sleep(settings.renewInterval(), stop);
    return false;
  }

  private boolean giveUp(Surrender why, Exception cause, StopSignal stop)
      throws InterruptedException {
    valid = false;
    events.surrendered(why.label);
    log.atWarn().addKeyValue("reason", why.label).setCause(cause).log("lease surrendered");
    if (why == Surrender.LOCK) {
      protocol.release(epoch);
      time.sleeper().sleep(settings.renewInterval(), stop);
    }
    return false;
  }

  // ---- holding ----

  /** Holds until a surrender (returned) or the process stop (null). */
  private Surrender hold(StopSignal stop, StopSignal p) throws InterruptedException {
    long nextRenew = lastRenewNanos + renewNanos;
    while (true) {
      if (demoteRequested.get()) {
        return Surrender.DEMOTED;
      }
      if (relinquishRequested.get()) {
        return Surrender.REBALANCE;
      }
      if (stop.isStopped()) {
        return null;
      }
      long now = time.ticker().nanoTime();
      long deadline = lastRenewNanos + deadlineNanos;
      if (now - deadline >= 0) {
        return Surrender.RENEW_DEADLINE;
      }
      long wait = Math.min(nextRenew - now, deadline - now);
      if (wait > 0) {
        time.sleeper().sleep(Duration.ofNanos(wait), p);
        continue;
      }
      nextRenew = now + renewNanos;
      Surrender s = renewOnce(p);
      if (s != null) {
        return s;
      }
    }
  }

  /** One renewal; null when held (renewed or skipped), else why to surrender. */
  Surrender renewOnce(StopSignal p) throws InterruptedException {
    LeaseProtocol.Renewal r = protocol.renew(epoch, p);
    if (r.wasRenewed()) {
      lastRenewNanos = r.renewedAtNanos();
    }
    return r.surrender();
  }
}
