package io.sf2loki.core.org;

import io.sf2loki.core.liveness.ProgressWatch;
import io.sf2loki.core.pipeline.CommitListener;
import io.sf2loki.core.spi.CheckpointStore;
import io.sf2loki.core.time.StopSignal;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The {@link CommitWait} of a multi-org deployment (SPEC ORG-13): a process-lifetime {@link
 * CommitListener} (the daemon adds it to every term's commit listeners) that wakes waiters after
 * each committer write; a waiter compares the store's values with the ones it needs. The store is
 * read outside this object's lock, so a committer that calls {@link #committed} never waits for a
 * store read. Thread-safe.
 */
public final class CommittedKeys implements CommitWait, CommitListener {
  private final CheckpointStore store;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private long writes; // guarded by lock

  /**
   * @param store the store the committer writes to (read here only)
   */
  public CommittedKeys(CheckpointStore store) {
    this.store = Objects.requireNonNull(store, "store");
  }

  @Override
  public void committed(Map<String, String> written) {
    signal();
  }

  private void signal() {
    lock.lock();
    try {
      writes++;
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  @Override
  public boolean await(Map<String, String> values, StopSignal stop) throws InterruptedException {
    if (values.isEmpty()) {
      return true;
    }
    Runnable unregister = stop.onStopUntilRemoved(this::signal);
    try (ProgressWatch.Waiting w = ProgressWatch.waiting()) { // FEAT-21: waiting on the pipeline
      while (!stop.isStopped()) {
        long seen = writes();
        if (stored(values)) {
          return true;
        }
        lock.lockInterruptibly();
        try {
          while (writes == seen && !stop.isStopped()) {
            changed.await();
          }
        } finally {
          lock.unlock();
        }
      }
      return false;
    } finally {
      unregister.run();
    }
  }

  private long writes() {
    lock.lock();
    try {
      return writes;
    } finally {
      lock.unlock();
    }
  }

  private boolean stored(Map<String, String> values) {
    for (Map.Entry<String, String> e : values.entrySet()) {
      if (!store.load(e.getKey()).equals(Optional.of(e.getValue()))) {
        return false;
      }
    }
    return true;
  }
}
