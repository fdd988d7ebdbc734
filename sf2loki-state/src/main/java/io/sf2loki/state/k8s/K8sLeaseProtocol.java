package io.sf2loki.state.k8s;

import io.sf2loki.core.spi.StateException;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.state.lease.LeaseConflictException;
import io.sf2loki.state.lease.LeaseCoordinator;
import io.sf2loki.state.lease.LeaseCoordinator.Surrender;
import io.sf2loki.state.lease.LeaseEvents;
import io.sf2loki.state.lease.LeaseProtocol;
import io.sf2loki.state.lease.LeaseSettings;
import io.sf2loki.state.lease.LeaseStoreBinding;
import java.time.Duration;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@code k8s_lease} rules (SPEC HA-12…HA-15) for the {@link LeaseCoordinator}, over one
 * Kubernetes {@code Lease} written with optimistic concurrency on {@code resourceVersion}.
 *
 * <ul>
 *   <li>Staleness (HA-13): this replica records, on its own monotonic ticker, when it first saw the
 *       Lease's current {@code resourceVersion}; the Lease is stale once {@code lease_duration} (or
 *       the Lease's {@code leaseDurationSeconds}, if longer) has passed since then. An empty
 *       holder, a missing {@code renewTime} or {@code leaseDurationSeconds}, or our own identity (a
 *       restarted process) is claimable at once. {@code renewTime} is never compared with the wall
 *       clock, so clock skew never causes a takeover.
 *   <li>Acquisition (HA-14): 404 or a read error → absent → create; stale → update guarded by the
 *       observed {@code resourceVersion}; both carry the HA-8 epoch in {@code leaseTransitions}. A
 *       409 is a lost race, any failure waits {@code renew_interval}; a live holder → wait.
 *   <li>Renewal (HA-15): read; 404 (deleted) or a foreign holder → surrender; update with the
 *       latest {@code resourceVersion}; 409 or 404 → surrender ({@code conflict}); other errors are
 *       tolerated until the coordinator's renew deadline.
 *   <li>Release: a conditional update that clears {@code holderIdentity}.
 * </ul>
 *
 * <p>Settings: {@link LeaseSettings#ttl()} is {@code lease_duration}, so the coordinator's renew
 * deadline is {@code lease_duration − renew_interval}. Only the coordinator thread calls it.
 */
public final class K8sLeaseProtocol implements LeaseProtocol {
  private static final Logger log = LoggerFactory.getLogger(K8sLeaseProtocol.class);

  private final K8sLeaseClient client;
  private final LeaseSettings settings;
  private final LeaseStoreBinding binding;
  private final TimeSource time;
  private final LeaseEvents events;

  private String observedVersion; // HA-13: the resourceVersion last seen …
  private long observedAtNanos; // … and when it was first seen, on the ticker

  /**
   * @param client the Lease (closed by {@link #close()})
   * @param settings identity, {@code lease_duration} as ttl, {@code renew_interval}, lock wait
   * @param binding the checkpoint store's {@code __fence_epoch__} (HA-8)
   * @param time ticker (observed time), wall clock ({@code renewTime}), sleeper (waits)
   * @param events {@code sf2loki_lease_errors} (OBS-16)
   */
  public K8sLeaseProtocol(
      K8sLeaseClient client,
      LeaseSettings settings,
      LeaseStoreBinding binding,
      TimeSource time,
      LeaseEvents events) {
    this.client = Objects.requireNonNull(client, "client");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.binding = Objects.requireNonNull(binding, "binding");
    this.time = Objects.requireNonNull(time, "time");
    this.events = Objects.requireNonNull(events, "events");
  }

  @Override
  public Won acquire(StopSignal stop) throws InterruptedException {
    K8sLeaseRead r = read("lease unreadable; treating it as absent (a create answers 409 if not)");
    if (r.lease() != null && !claimable(r)) {
      time.sleeper().sleep(settings.renewInterval(), stop); // a live holder
      return null;
    }
    long fence;
    try {
      fence = binding.freshFenceEpoch(); // HA-8
    } catch (StateException e) {
      events.error("store_read");
      log.atWarn().setCause(e).log("checkpoint store unreadable; not acquiring the lease");
      time.sleeper().sleep(settings.renewInterval(), stop);
      return null;
    }
    long mine = Math.max(r.transitions(), fence) + 1;
    long before = time.ticker().nanoTime();
    try {
      client.write(r.lease(), settings.holderId(), mine, time.now(), settings.ttl());
      return new Won(mine, before);
    } catch (LeaseConflictException e) {
      events.error("write");
      log.atInfo().addKeyValue("lease", describe()).log("lease lost race");
    } catch (StateException e) {
      events.error("write");
      log.atWarn().addKeyValue("lease", describe()).setCause(e).log("lease write failed");
    }
    time.sleeper().sleep(settings.renewInterval(), stop);
    return null;
  }

  @Override
  public Renewal renew(long epoch, StopSignal stop) {
    K8sLeaseRead r = client.read();
    if (r.notFoundAnswer()) {
      log.atWarn().addKeyValue("lease", describe()).log("lease was deleted");
      return Renewal.surrender(Surrender.CONFLICT);
    }
    if (r.error() != null) {
      events.error("read");
      log.atWarn()
          .addKeyValue("lease", describe())
          .setCause(r.error())
          .log("lease read failed; retrying until the renew deadline");
      return Renewal.skipped();
    }
    if (!r.ownedBy(settings.holderId(), epoch)) {
      return Renewal.surrender(Surrender.FOREIGN_HOLDER);
    }
    long before = time.ticker().nanoTime();
    try {
      client.write(r.lease(), settings.holderId(), epoch, time.now(), settings.ttl());
      return Renewal.renewed(before);
    } catch (LeaseConflictException | K8sLeaseGoneException e) {
      events.error("write");
      log.atWarn().addKeyValue("lease", describe()).setCause(e).log("lease renewal refused");
      return Renewal.surrender(Surrender.CONFLICT);
    } catch (StateException e) {
      events.error("write");
      log.atWarn().setCause(e).log("lease renewal failed; retrying until the renew deadline");
      return Renewal.skipped();
    }
  }

  /** HA-15 clean shutdown: clears {@code holderIdentity} with a conditional update. */
  @Override
  public void release(long epoch) {
    K8sLeaseRead r = read("lease unreadable; not releasing it");
    if (!r.ownedBy(settings.holderId(), epoch)) {
      return;
    }
    try {
      client.write(r.lease(), null, epoch, time.now(), settings.ttl());
      log.atInfo().addKeyValue("lease", describe()).log("lease released");
    } catch (StateException e) {
      events.error("write");
      log.atWarn().setCause(e).log("lease release failed; others take it over when it is stale");
    }
  }

  /** HA-30: the holder and whether its Lease is live by the HA-13 observed-time rule. */
  @Override
  public Observation observe() {
    K8sLeaseRead r = read("lease unreadable; holder unknown");
    if (r.lease() == null || r.holder().isEmpty()) {
      return Observation.none();
    }
    boolean own = r.holder().get().equals(settings.holderId());
    return new Observation(r.holder(), own || !claimable(r));
  }

  @Override
  public String describe() {
    return client.describe();
  }

  @Override
  public void close() {
    client.close();
  }

  /** HA-13. */
  private boolean claimable(K8sLeaseRead r) {
    if (r.holder().isEmpty()
        || !r.hasRenewTime()
        || r.durationSeconds().isEmpty()
        || r.holder().get().equals(settings.holderId())) {
      return true;
    }
    long now = time.ticker().nanoTime();
    String version = r.resourceVersion();
    if (!Objects.equals(version, observedVersion)) {
      observedVersion = version;
      observedAtNanos = now;
    }
    Duration theirs = Duration.ofSeconds(r.durationSeconds().get());
    Duration d = theirs.compareTo(settings.ttl()) > 0 ? theirs : settings.ttl();
    return now - observedAtNanos >= d.toNanos();
  }

  private K8sLeaseRead read(String warning) {
    K8sLeaseRead r = client.read();
    if (r.error() != null) {
      events.error("read");
      log.atWarn().addKeyValue("lease", describe()).setCause(r.error()).log(warning);
    }
    return r;
  }
}
