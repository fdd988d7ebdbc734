package io.sf2loki.state.lease;

import io.sf2loki.core.spi.CheckpointStore;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.state.Fencing;
import io.sf2loki.state.file.FileCheckpointStore;
import io.sf2loki.state.object.ObjectCheckpointStore;
import java.time.Duration;

/**
 * What a lease coordinator needs from the checkpoint store, whatever its back end (SPEC HA-7, HA-8,
 * STATE-5): the stored epoch read fresh, the fencing hook, and the file store's per-term sidecar
 * lock.
 */
public interface LeaseStoreBinding {
  /**
   * HA-8: the store's {@code __fence_epoch__}, read fresh (0 when absent).
   *
   * @throws io.sf2loki.core.spi.StateException when the store cannot be read
   */
  long freshFenceEpoch();

  /** HA-7: installs the leadership check and epoch on the store. */
  void install(Fencing fencing);

  /**
   * STATE-5: prepares the store for a term (the file store waits for its sidecar lock).
   *
   * @param maxWait how long to wait this time
   * @return false when {@code stop} fired first
   * @throws io.sf2loki.core.spi.StateLockException when the lock is still held after {@code
   *     maxWait}
   */
  boolean beginTerm(Duration maxWait, StopSignal stop) throws InterruptedException;

  /** STATE-5, HA-4: releases what {@link #beginTerm} took; idempotent. */
  void endTerm();

  /**
   * HA-26: writes this term's epoch into the store's {@code __fence_epoch__} now, before the term
   * loads any checkpoint, so a previous leader still running (its lease deleted or overwritten) is
   * fenced at its next write instead of sharing or preceding this term's epoch.
   *
   * @throws io.sf2loki.core.spi.StateFenceException when the store already carries a greater epoch
   * @throws io.sf2loki.core.spi.StateConflictException when an object store changed since it was
   *     read (412)
   * @throws io.sf2loki.core.spi.StateException when the store cannot be written
   */
  void claimEpoch();

  /**
   * No store behind the lease (HA-30's seat leases): epoch floor 0, nothing installed, locked or
   * claimed.
   */
  static LeaseStoreBinding none() {
    return new LeaseStoreBinding() {
      @Override
      public long freshFenceEpoch() {
        return 0;
      }

      @Override
      public void install(Fencing fencing) {}

      @Override
      public boolean beginTerm(Duration maxWait, StopSignal stop) {
        return !stop.isStopped();
      }

      @Override
      public void endTerm() {}

      @Override
      public void claimEpoch() {}
    };
  }

  /**
   * The binding for the daemon's store.
   *
   * @param store a {@link FileCheckpointStore} (in {@code LockMode.TERM}) or an {@link
   *     ObjectCheckpointStore}
   * @param time ticker and sleeper for the lock wait
   * @throws IllegalArgumentException for any other store
   */
  static LeaseStoreBinding of(CheckpointStore store, TimeSource time) {
    if (store instanceof FileCheckpointStore f) {
      return new LeaseStoreBinding() {
        @Override
        public long freshFenceEpoch() {
          return f.freshFenceEpoch();
        }

        @Override
        public void install(Fencing fencing) {
          f.fencing(fencing);
        }

        @Override
        public boolean beginTerm(Duration maxWait, StopSignal stop) throws InterruptedException {
          return f.lockAwait(
              maxWait, FileCheckpointStore.DEFAULT_LOCK_RETRY, stop, time.ticker(), time.sleeper());
        }

        @Override
        public void endTerm() {
          f.unlock();
        }

        @Override
        public void claimEpoch() {
          f.claimEpoch();
        }
      };
    }
    if (store instanceof ObjectCheckpointStore o) {
      return new LeaseStoreBinding() {
        @Override
        public long freshFenceEpoch() {
          return o.freshFenceEpoch();
        }

        @Override
        public void install(Fencing fencing) {
          o.fencing(fencing);
        }

        @Override
        public boolean beginTerm(Duration maxWait, StopSignal stop) {
          return !stop.isStopped();
        }

        @Override
        public void endTerm() {}

        @Override
        public void claimEpoch() {
          o.claimEpoch();
        }
      };
    }
    throw new IllegalArgumentException(
        "a lease coordinator needs a file or object checkpoint store, not "
            + store.getClass().getName());
  }
}
