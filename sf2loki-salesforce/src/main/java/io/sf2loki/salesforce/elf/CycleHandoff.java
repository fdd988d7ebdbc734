package io.sf2loki.salesforce.elf;

import io.sf2loki.core.model.LogEntry;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The single-slot hand-off of one ELF cycle (SPEC ELF-1, ELF-15) and the cycle's scheduling state.
 * Workers {@link #put} groups of entries (at most one CPU chunk, in file order); the slot holds one
 * group at a time and the source's run thread takes it and emits its entries (one {@code emitAll})
 * to the lane, so lane backpressure stalls every worker at its next hand-off (before its next
 * listing or download). Handing over a chunk instead of a single entry costs one monitor round trip
 * per chunk rather than per row; the bound is unchanged (one group in the slot, one being emitted).
 * The slot, counters and flags are guarded by one lock ({@code closed} is also volatile for {@link
 * #await}) with one condition per kind of waiter, so taking the slot wakes one worker, not every
 * worker and the run thread; {@link #close()} (stop signal or emitter refusal) wakes every waiter.
 */
final class CycleHandoff {
  /** What the run thread should do next. */
  enum Step {
    /** Emit {@link Next#entry()}. */
    EMIT,
    /** Start the next waiting type (a worker slot was reserved). */
    START,
    /** Every worker finished and nothing else may start. */
    DONE,
    /** The hand-off was closed (stop or emitter refusal). */
    STOPPED
  }

  /**
   * One scheduling decision.
   *
   * @param step what to do
   * @param entries for {@link Step#EMIT}: the group to emit, in order; otherwise empty
   */
  record Next(Step step, List<LogEntry> entries) {}

  private final ReentrantLock lock = new ReentrantLock();

  /** Workers waiting for the slot to empty. */
  private final Condition slotFree = lock.newCondition();

  /** The run thread waiting in {@link #next}. */
  private final Condition runnable = lock.newCondition();

  private List<LogEntry> slot;
  private volatile boolean closed;
  private final Set<Thread> awaiting = new HashSet<>();
  private boolean throttled;
  private int running;

  /**
   * Worker side: waits while the slot is full, then fills it with one entry.
   *
   * @return false when the hand-off was closed (the entry was not handed over)
   */
  boolean put(LogEntry entry) throws InterruptedException {
    return put(List.of(entry));
  }

  /**
   * Worker side: waits while the slot is full, then fills it with {@code group} (non-empty, in
   * emission order; not modified afterwards by the caller).
   *
   * @return false when the hand-off was closed (nothing was handed over)
   */
  boolean put(List<LogEntry> group) throws InterruptedException {
    lock.lock();
    try {
      while (slot != null && !closed) {
        slotFree.await();
      }
      if (closed) {
        return false;
      }
      slot = group;
      runnable.signal();
      return true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Worker side: waits (stop-aware) for a CPU-pool task. The task's completion unparks only the
   * waiting worker (no shared lock: the CPU thread never contends with the run thread or the other
   * workers); {@link #close()} unparks every registered waiter.
   *
   * @return false when the hand-off was closed first
   * @throws InterruptedException if the worker is interrupted while waiting
   */
  boolean await(CompletableFuture<?> future) throws InterruptedException {
    Thread me = Thread.currentThread();
    lock.lock();
    try {
      if (closed) {
        return false;
      }
      awaiting.add(me);
    } finally {
      lock.unlock();
    }
    try {
      future.whenComplete((r, t) -> LockSupport.unpark(me));
      while (!future.isDone() && !closed) {
        LockSupport.park(this);
        if (Thread.interrupted()) {
          throw new InterruptedException();
        }
      }
      return !closed;
    } finally {
      lock.lock();
      try {
        awaiting.remove(me);
      } finally {
        lock.unlock();
      }
    }
  }

  /**
   * Run-thread side: the next step. Emits have priority; a type starts when one is waiting, the
   * cycle is not throttled and fewer than {@code concurrency} workers run. Only one thread (the
   * source's run thread) calls it.
   */
  Next next(boolean typesWaiting, int concurrency) throws InterruptedException {
    lock.lock();
    try {
      while (true) {
        if (closed) {
          return new Next(Step.STOPPED, List.of());
        }
        if (slot != null) {
          List<LogEntry> e = slot;
          slot = null;
          slotFree.signal(); // one group fits: wake one worker
          return new Next(Step.EMIT, e);
        }
        if (typesWaiting && !throttled && running < concurrency) {
          running++;
          return new Next(Step.START, List.of());
        }
        if (running == 0) {
          return new Next(Step.DONE, List.of());
        }
        runnable.await();
      }
    } finally {
      lock.unlock();
    }
  }

  /** A worker finished (normally or not). */
  void workerDone() {
    lock.lock();
    try {
      running--;
      runnable.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** ELF-15: a worker left the cycle throttled; waiting types are skipped. */
  void markThrottled() {
    lock.lock();
    try {
      throttled = true;
      runnable.signalAll();
    } finally {
      lock.unlock();
    }
  }

  boolean throttled() {
    lock.lock();
    try {
      return throttled;
    } finally {
      lock.unlock();
    }
  }

  /** Stops the cycle: every waiter returns. Idempotent. */
  void close() {
    lock.lock();
    try {
      closed = true;
      slotFree.signalAll();
      runnable.signalAll();
      for (Thread t : awaiting) {
        LockSupport.unpark(t);
      }
    } finally {
      lock.unlock();
    }
  }

  boolean closed() {
    return closed;
  }
}
