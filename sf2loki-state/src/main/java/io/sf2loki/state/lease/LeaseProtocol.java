package io.sf2loki.state.lease;

import io.sf2loki.core.time.StopSignal;

/**
 * The back-end rules of one lease coordinator: how an acquisition attempt, a renewal and a release
 * are made (HA-10/HA-11 for lease documents, HA-13…HA-15 for Kubernetes Leases). The {@link
 * LeaseCoordinator} owns everything they share: the term loop, the renew deadline, fencing (HA-7),
 * the term lock (HA-17), demotion (HA-5) and the surrender metrics (OBS-17). Called from the
 * coordinator thread only, except {@link #release} (also from the closer, after that thread ended).
 */
public interface LeaseProtocol extends AutoCloseable {
  /**
   * A won acquisition.
   *
   * @param epoch the term's epoch (HA-8), written into the lease
   * @param renewedAtNanos the ticker reading taken before the winning write: the renew deadline
   *     runs from here
   */
  record Won(long epoch, long renewedAtNanos) {}

  /**
   * The outcome of one renewal.
   *
   * @param surrender why to give the lease up, or null while it is held
   * @param renewedAtNanos the ticker reading taken before a successful write, or {@code
   *     Long.MIN_VALUE} when nothing was renewed (skipped or surrendered)
   */
  record Renewal(LeaseCoordinator.Surrender surrender, long renewedAtNanos) {
    /** Written at {@code atNanos}. */
    public static Renewal renewed(long atNanos) {
      return new Renewal(null, atNanos);
    }

    /** Not renewed this time; tolerated until the renew deadline. */
    public static Renewal skipped() {
      return new Renewal(null, Long.MIN_VALUE);
    }

    /** Give the lease up. */
    public static Renewal surrender(LeaseCoordinator.Surrender why) {
      return new Renewal(why, Long.MIN_VALUE);
    }

    /** Whether the lease was written. */
    public boolean wasRenewed() {
      return surrender == null && renewedAtNanos != Long.MIN_VALUE;
    }
  }

  /**
   * The lease-document rules (HA-9…HA-11, HA-16) over {@code storage}, for coordinators built
   * outside this package (the sharded coordinator's org and seat leases, HA-27, HA-30).
   */
  static LeaseProtocol document(
      LeaseStorage storage,
      LeaseSettings settings,
      LeaseStoreBinding binding,
      io.sf2loki.core.time.TimeSource time,
      LeaseEvents events) {
    return new DocumentLeaseProtocol(storage, settings, binding, time, events);
  }

  /**
   * What one read of the lease shows about its holder (HA-30: the sharded coordinator learns the
   * live replicas from the leases).
   *
   * @param holder the named holder, empty when none (absent, released, unreadable)
   * @param live whether that holder's lease is live by this back end's staleness rule (HA-10 {@code
   *     expires_at}, HA-13 observed time); false without a holder
   */
  record Observation(java.util.Optional<String> holder, boolean live) {
    /** No holder known. */
    public static Observation none() {
      return new Observation(java.util.Optional.empty(), false);
    }
  }

  /**
   * Reads the lease once without writing it (HA-30). A read failure is no holder. Called from the
   * coordinator thread only.
   */
  Observation observe();

  /**
   * One acquisition attempt, including the waits its rules prescribe after a failed attempt.
   *
   * @return the won term, or null (lost, held by another replica, unreadable, or stopped)
   */
  Won acquire(StopSignal stop) throws InterruptedException;

  /** One renewal of the lease won at {@code epoch}. */
  Renewal renew(long epoch, StopSignal stop) throws InterruptedException;

  /** Gives up the lease won at {@code epoch} if it is still ours; failures are logged only. */
  void release(long epoch);

  /** Where the lease lives, e.g. a path or {@code namespace/name}; no secrets. */
  String describe();

  @Override
  void close();
}
