package io.sf2loki.state.lease;

import io.sf2loki.core.spi.StateException;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.state.lease.LeaseCoordinator.Surrender;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lease-document rules ({@code file_lease}, {@code s3_lease}, {@code gcs_lease}; SPEC
 * HA-9…HA-11, HA-16) over a {@link LeaseStorage}.
 *
 * <ul>
 *   <li>Acquisition (HA-10): unreadable → WARN, wait {@code renew_interval}, never contest; a live
 *       foreign holder → wait {@code renew_interval}; absent, corrupt, expired or our own → write
 *       our lease with the HA-8 epoch, wait the verify delay, re-read: won iff it is ours (holder
 *       and epoch) and unexpired.
 *   <li>Renewal (HA-11): read, then rewrite our confirmed lease with {@code expires_at} = now +
 *       ttl; a foreign holder or a refused conditional write surrenders.
 *   <li>Release: our confirmed lease is rewritten with {@code expires_at} = now.
 * </ul>
 */
final class DocumentLeaseProtocol implements LeaseProtocol {
  private static final Logger log = LoggerFactory.getLogger(DocumentLeaseProtocol.class);

  private final LeaseStorage storage;
  private final LeaseSettings settings;
  private final LeaseStoreBinding binding;
  private final TimeSource time;
  private final LeaseEvents events;

  DocumentLeaseProtocol(
      LeaseStorage storage,
      LeaseSettings settings,
      LeaseStoreBinding binding,
      TimeSource time,
      LeaseEvents events) {
    this.storage = Objects.requireNonNull(storage, "storage");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.binding = Objects.requireNonNull(binding, "binding");
    this.time = Objects.requireNonNull(time, "time");
    this.events = Objects.requireNonNull(events, "events");
  }

  @Override
  public Won acquire(StopSignal stop) throws InterruptedException {
    LeaseRead r = read();
    Instant now = time.now();
    if (r.status() == LeaseRead.Status.UNREADABLE) {
      log.atWarn()
          .addKeyValue("lease", storage.describe())
          .setCause(r.error())
          .log("lease unreadable; not contesting it");
      sleep(settings.renewInterval(), stop);
      return null;
    }
    if (r.document()
        .filter(d -> !d.holder().equals(settings.holderId()) && d.liveAt(now))
        .isPresent()) {
      sleep(settings.renewInterval(), stop); // a live foreign holder
      return null;
    }
    long fence;
    try {
      fence = binding.freshFenceEpoch(); // HA-8
    } catch (StateException e) {
      events.error("store_read");
      log.atWarn().setCause(e).log("checkpoint store unreadable; not acquiring the lease");
      sleep(settings.renewInterval(), stop);
      return null;
    }
    long mine = Math.max(r.document().map(LeaseDocument::epoch).orElse(0L), fence) + 1;
    long before = time.ticker().nanoTime();
    try {
      storage.write(lease(mine, now), r.version());
    } catch (LeaseConflictException e) {
      events.error("write");
      log.atInfo().addKeyValue("lease", storage.describe()).log("lease lost race");
      sleep(settings.verifyDelay(), stop);
      return null;
    } catch (StateException e) {
      events.error("write");
      log.atWarn().setCause(e).log("lease write failed");
      sleep(settings.renewInterval(), stop);
      return null;
    }
    if (!sleep(settings.verifyDelay(), stop)) {
      return null;
    }
    LeaseRead v = read();
    if (v.ownedBy(settings.holderId(), mine) && v.document().get().liveAt(time.now())) {
      return new Won(mine, before);
    }
    log.atInfo().addKeyValue("lease", storage.describe()).log("lease lost race");
    sleep(settings.verifyDelay(), stop);
    return null;
  }

  @Override
  public Renewal renew(long epoch, StopSignal p) throws InterruptedException {
    LeaseRead r = read();
    if (foreign(r, epoch)) {
      return Renewal.surrender(Surrender.FOREIGN_HOLDER);
    }
    if (!r.ownedBy(settings.holderId(), epoch)) {
      if (!sleep(settings.verifyDelay(), p)) {
        return Renewal.skipped();
      }
      r = read();
      if (foreign(r, epoch)) {
        return Renewal.surrender(Surrender.FOREIGN_HOLDER);
      }
      if (!r.ownedBy(settings.holderId(), epoch)) {
        log.atWarn()
            .addKeyValue("lease", storage.describe())
            .log("own lease not confirmed; skipping this renewal");
        return Renewal.skipped(); // never write without having read our own lease
      }
    }
    long before = time.ticker().nanoTime();
    try {
      storage.write(lease(epoch, time.now()), r.version());
      return Renewal.renewed(before);
    } catch (LeaseConflictException e) {
      events.error("write");
      return Renewal.surrender(Surrender.CONFLICT); // HA-16: the lease changed since our read
    } catch (StateException e) {
      events.error("write");
      log.atWarn().setCause(e).log("lease renewal failed; retrying until the renew deadline");
      return Renewal.skipped();
    }
  }

  /** HA-11 release: our confirmed lease is rewritten with {@code expires_at} = now. */
  @Override
  public void release(long epoch) {
    LeaseRead r = read();
    if (!r.ownedBy(settings.holderId(), epoch)) {
      return;
    }
    try {
      storage.write(
          new LeaseDocument(settings.holderId(), time.now(), epoch).serialise(), r.version());
      log.atInfo().addKeyValue("lease", storage.describe()).log("lease released");
    } catch (StateException e) {
      events.error("write");
      log.atWarn().setCause(e).log("lease release failed; it expires after ttl");
    }
  }

  @Override
  public String describe() {
    return storage.describe();
  }

  @Override
  public Observation observe() {
    LeaseRead r = read();
    Instant now = time.now();
    return r.document()
        .map(d -> new Observation(java.util.Optional.of(d.holder()), d.liveAt(now)))
        .orElse(Observation.none());
  }

  @Override
  public void close() {
    storage.close();
  }

  private boolean foreign(LeaseRead r, long epoch) {
    return r.status() == LeaseRead.Status.PRESENT && !r.ownedBy(settings.holderId(), epoch);
  }

  private LeaseRead read() {
    LeaseRead r = storage.read();
    if (r.status() == LeaseRead.Status.UNREADABLE) {
      events.error("read");
    }
    return r;
  }

  private byte[] lease(long e, Instant now) {
    return new LeaseDocument(settings.holderId(), now.plus(settings.ttl()), e).serialise();
  }

  private boolean sleep(Duration d, StopSignal stop) throws InterruptedException {
    return time.sleeper().sleep(d, stop);
  }
}
