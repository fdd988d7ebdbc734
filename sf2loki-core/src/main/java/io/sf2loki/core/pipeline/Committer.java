package io.sf2loki.core.pipeline;

import io.opentelemetry.api.metrics.LongCounter;
import io.sf2loki.core.egress.BudgetValue;
import io.sf2loki.core.egress.EgressGovernor;
import io.sf2loki.core.liveness.ProgressWatch;
import io.sf2loki.core.spi.CheckpointStore;
import io.sf2loki.core.spi.StateException;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The term's committer (SPEC PIPE-9): the pending key → value maps of both lanes and of the egress
 * governor are merged in arrival order (a later value wins per key; keys of the abandoned-key set
 * are filtered out, PIPE-16) and written with one store write, at most once per {@code
 * state.min_write_interval}. Lanes never wait for the write ({@link #submit} only merges); a batch
 * counts as committed, and the {@link CommitListener} runs, when the write covering it succeeded. A
 * store outage (STATE-16) is waited out with backoff while the lanes are held; any other failed
 * write ends the term (PIPE-12). After leadership loss every commit is skipped silently (HA-4).
 *
 * <p>Threads: {@link #run()} is the writer loop, on one thread owned by {@link Pipeline}; {@link
 * #submit}, {@link #finish} and {@link #suppress} may be called from any thread. State is guarded
 * by {@link #lock}.
 */
public final class Committer {
  private static final Logger log = LoggerFactory.getLogger(Committer.class);
  private final CheckpointStore store;
  private final AbandonedKeys abandoned;
  private final CommitListener listener;
  private final Duration minWriteInterval;
  private final TimeSource time;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private final StopSignal finishing = new StopSignal();
  private Map<String, String> pending = new LinkedHashMap<>();
  private String lastBudget; // the latest egress:budget capture seen (EGR-6)
  private boolean finished;
  private volatile boolean suppressed;
  private long lastWriteNanos;
  private boolean wroteOnce;
  private long writes;
  private final StoreOutage outage;
  private final StopSignal termStop;

  /**
   * @param store the checkpoint store
   * @param abandoned the term's abandoned-key set
   * @param listener notified after each successful write (PIPE-10 gauges)
   * @param minWriteInterval least time between two writes ({@code state.min_write_interval}, ≥ 0)
   * @param time ticker for the interval and the sleeper that waits it out
   */
  public Committer(
      CheckpointStore store,
      AbandonedKeys abandoned,
      CommitListener listener,
      Duration minWriteInterval,
      TimeSource time) {
    this(store, abandoned, listener, minWriteInterval, time, null, new StopSignal());
  }

  /**
   * @param writeErrors {@code sf2loki_checkpoint_write_errors} (STATE-16), or null
   * @param termStop the term's stop: releases lanes held by a store outage (STATE-16)
   */
  public Committer(
      CheckpointStore store,
      AbandonedKeys abandoned,
      CommitListener listener,
      Duration minWriteInterval,
      TimeSource time,
      LongCounter writeErrors,
      StopSignal termStop) {
    this.store = store;
    this.abandoned = abandoned;
    this.listener = listener;
    this.minWriteInterval = minWriteInterval;
    this.time = time;
    this.outage = new StoreOutage(writeErrors, time.ticker());
    this.termStop = termStop;
    termStop.onStop(this::wakeAll);
  }

  private void wakeAll() {
    lock.lock();
    try {
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** How long the checkpoint store has been failing (STATE-16); empty when healthy. */
  public Optional<Duration> storeFailingFor() {
    lock.lock();
    try {
      return outage.failingFor();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Merges one commit (for each key the last value; PIPE-9) into the pending map. Never blocks on
   * the store.
   */
  public void submit(Map<String, String> values) {
    if (values.isEmpty() || suppressed) {
      return;
    }
    lock.lock();
    try {
      if (finished) {
        throw new IllegalStateException("commit after the committer finished");
      }
      values.forEach(
          (k, v) -> {
            if (!abandoned.contains(k)) {
              String value = v;
              if (EgressGovernor.BUDGET_KEY.equals(k)) {
                // EGR-6: of two lanes' captures the later one wins, whatever their arrival order
                value = BudgetValue.later(lastBudget, v);
                lastBudget = value;
              }
              pending.remove(k); // re-insert so arrival order is kept
              pending.put(k, value);
            }
          });
      changed.signalAll();
      // STATE-16: while the store fails, the lane that just pushed waits here, so at most one
      // batch per lane is delivered beyond the last committed checkpoint
      while (outage.failing() && !finished && !suppressed && !termStop.isStopped()) {
        try (ProgressWatch.Waiting w = ProgressWatch.waiting()) { // FEAT-21: a lane held here
          changed.await();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Ends the writer loop: with {@code writePending} the loop first writes what is pending (term end
   * by stop or finite run); without it (leadership loss) pending values are discarded.
   */
  public void finish(boolean writePending) {
    lock.lock();
    try {
      finished = true;
      if (!writePending) {
        pending.clear();
      }
      changed.signalAll();
    } finally {
      lock.unlock();
    }
    finishing.stop();
  }

  /** Skips every later commit silently (HA-4: the new leader owns the checkpoints). */
  public void suppress() {
    suppressed = true;
    lock.lock();
    try {
      pending.clear();
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Number of store writes done (tests). */
  public long writes() {
    lock.lock();
    try {
      return writes;
    } finally {
      lock.unlock();
    }
  }

  /**
   * The writer loop; returns after {@link #finish} once nothing is left to write.
   *
   * @throws InterruptedException when cancelled
   * @throws io.sf2loki.core.spi.StateException when a store write fails (ends the term)
   */
  public void run() throws InterruptedException {
    while (true) {
      Map<String, String> batch;
      lock.lockInterruptibly();
      try {
        while (pending.isEmpty() && !finished) {
          changed.await();
        }
        if (pending.isEmpty()) {
          return;
        }
        long wait =
            wroteOnce ? lastWriteNanos + minWriteInterval.toNanos() - time.ticker().nanoTime() : 0;
        if (wait > 0 && !finished) {
          lock.unlock();
          try {
            time.sleeper().sleep(Duration.ofNanos(wait), finishing);
          } finally {
            lock.lock();
          }
          continue;
        }
        batch = new LinkedHashMap<>(pending);
        pending = new LinkedHashMap<>();
      } finally {
        lock.unlock();
      }
      try {
        write(batch);
      } catch (RuntimeException e) {
        if (!StoreOutage.waitable(e)) {
          throw e;
        }
        waitOutOutage(batch, (StateException) e);
      }
    }
  }

  /**
   * STATE-16: puts {@code batch} back under the values submitted since and waits the backoff; a
   * failure once the term is finishing ends it (the uncommitted tail is re-read next run).
   */
  private void waitOutOutage(Map<String, String> batch, StateException e)
      throws InterruptedException {
    Duration wait;
    lock.lock();
    try {
      if (suppressed) {
        pending.clear(); // HA-4: the new leader owns the checkpoints
        return;
      }
      Map<String, String> merged = new LinkedHashMap<>(batch);
      pending.forEach(
          (k, v) -> {
            merged.remove(k);
            merged.put(k, v);
          });
      pending = merged;
      wait = outage.failed(e);
      if (finished) {
        throw e;
      }
    } finally {
      lock.unlock();
    }
    time.sleeper().sleep(wait, finishing);
  }

  private void write(Map<String, String> batch) {
    batch.keySet().removeIf(abandoned::contains);
    if (batch.isEmpty() || suppressed) {
      return;
    }
    store.commitMany(batch, Set.of());
    lock.lock();
    try {
      outage.succeeded();
      changed.signalAll();
      writes++;
      wroteOnce = true;
      lastWriteNanos = time.ticker().nanoTime();
    } finally {
      lock.unlock();
    }
    try {
      listener.committed(batch);
    } catch (RuntimeException ex) {
      log.atDebug().setCause(ex).log("commit listener failed");
    }
  }

  /** For each key the last value of {@code entries}' tokens (PIPE-9). */
  static Map<String, String> lastValues(Iterable<io.sf2loki.core.model.LogEntry> entries) {
    Map<String, String> last = new LinkedHashMap<>();
    for (io.sf2loki.core.model.LogEntry e : entries) {
      last.put(e.checkpoint().key(), e.checkpoint().value());
    }
    return last;
  }
}
