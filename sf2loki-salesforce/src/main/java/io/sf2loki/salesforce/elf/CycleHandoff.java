package io.sf2loki.salesforce.elf;

import io.sf2loki.core.model.LogEntry;
import java.util.concurrent.CompletableFuture;

/**
 * The single-slot hand-off of one ELF cycle (SPEC ELF-1, ELF-15) and the cycle's scheduling state.
 * Workers {@link #put} entries; the source's run thread takes them one at a time and emits them to
 * the lane, so lane backpressure stalls every worker at its next hand-off. All state is guarded by
 * this object's monitor; {@link #close()} (stop signal or emitter refusal) wakes every waiter.
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

  /** One scheduling decision. */
  record Next(Step step, LogEntry entry) {}

  private LogEntry slot;
  private boolean closed;
  private boolean throttled;
  private int running;

  /**
   * Worker side: waits while the slot is full, then fills it.
   *
   * @return false when the hand-off was closed (the entry was not handed over)
   */
  synchronized boolean put(LogEntry entry) throws InterruptedException {
    while (slot != null && !closed) {
      wait();
    }
    if (closed) {
      return false;
    }
    slot = entry;
    notifyAll();
    return true;
  }

  /**
   * Worker side: waits (stop-aware) for a CPU-pool task.
   *
   * @return false when the hand-off was closed first
   */
  boolean await(CompletableFuture<?> future) throws InterruptedException {
    future.whenComplete((r, t) -> wake());
    synchronized (this) {
      while (!future.isDone() && !closed) {
        wait();
      }
      return !closed;
    }
  }

  private synchronized void wake() {
    notifyAll();
  }

  /**
   * Run-thread side: the next step. Emits have priority; a type starts when one is waiting, the
   * cycle is not throttled and fewer than {@code concurrency} workers run.
   */
  synchronized Next next(boolean typesWaiting, int concurrency) throws InterruptedException {
    while (true) {
      if (closed) {
        return new Next(Step.STOPPED, null);
      }
      if (slot != null) {
        LogEntry e = slot;
        slot = null;
        notifyAll();
        return new Next(Step.EMIT, e);
      }
      if (typesWaiting && !throttled && running < concurrency) {
        running++;
        return new Next(Step.START, null);
      }
      if (running == 0) {
        return new Next(Step.DONE, null);
      }
      wait();
    }
  }

  /** A worker finished (normally or not). */
  synchronized void workerDone() {
    running--;
    notifyAll();
  }

  /** ELF-15: a worker left the cycle throttled; waiting types are skipped. */
  synchronized void markThrottled() {
    throttled = true;
    notifyAll();
  }

  synchronized boolean throttled() {
    return throttled;
  }

  /** Stops the cycle: every waiter returns. Idempotent. */
  synchronized void close() {
    closed = true;
    notifyAll();
  }

  synchronized boolean closed() {
    return closed;
  }
}
