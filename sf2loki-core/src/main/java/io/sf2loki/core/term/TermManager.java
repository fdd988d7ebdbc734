package io.sf2loki.core.term;

import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.pipeline.Pipeline;
import io.sf2loki.core.spi.CheckpointStore;
import io.sf2loki.core.spi.Coordinator;
import io.sf2loki.core.spi.StateException;
import io.sf2loki.core.time.StopSignal;
import java.util.Optional;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs leadership terms for a {@link Coordinator} (SPEC HA-1…HA-6, PIPE-20…PIPE-23): on acquire it
 * builds a fresh pipeline with fresh sources through the factory and runs it on a term thread it
 * owns; on loss it ends the term without draining (HA-4), joins every thread, resets the store and
 * stands by. A term whose sources all finished ends the process with exit 0 (HA-6); a crashed term
 * ends it with exit 1 (PIPE-12), unless its failure is a fence or conflict the coordinator can
 * demote for (HA-5).
 *
 * <p>Threads: the coordinator's thread calls {@link #onAcquire()}/{@link #onLose()}; one term
 * thread at a time runs the pipeline. State is guarded by {@code this}.
 */
public final class TermManager implements Coordinator.Leadership {
  private static final Logger log = LoggerFactory.getLogger(TermManager.class);

  /** How the process ends. */
  public enum Outcome {
    /** Stopped by the process stop signal (or still running). */
    STOPPED,
    /** A term's sources all finished on their own (HA-6). */
    FINISHED,
    /** A term crashed (PIPE-12). */
    CRASHED
  }

  private final TermFactory factory;
  private final ActiveTerm holder;
  private final CheckpointStore store;
  private final Sf2lokiMetrics metrics;
  private final TermListener listener;
  private final StopSignal processStop;
  private final Predicate<Throwable> demotable;
  private Coordinator coordinator;
  private Term current;
  private Outcome outcome = Outcome.STOPPED;
  private Throwable crash;
  private int terms;

  private record Term(Pipeline pipeline, StopSignal stop, Thread thread) {}

  /**
   * @param factory builds a fresh pipeline and sources per term
   * @param holder process-lifetime holder read by gauges and readiness (OBS-13)
   * @param store the checkpoint store, reset at every term end (STATE-2)
   * @param metrics {@code sf2loki_leader}
   * @param listener readiness transitions
   * @param processStop fired by this manager when a term finished or crashed (HA-6, PIPE-12)
   * @param demotable which term failures demote instead of crashing (HA-5: fence, conflict, lock
   *     failure under a lease coordinator); {@code t -> false} under noop
   */
  public TermManager(
      TermFactory factory,
      ActiveTerm holder,
      CheckpointStore store,
      Sf2lokiMetrics metrics,
      TermListener listener,
      StopSignal processStop,
      Predicate<Throwable> demotable) {
    this.factory = factory;
    this.holder = holder;
    this.store = store;
    this.metrics = metrics;
    this.listener = listener;
    this.processStop = processStop;
    this.demotable = demotable;
    metrics.leader.set(0); // HA-3: 0 from process start
  }

  /**
   * Runs {@code coordinator} until the process stop fires, then drains the running term (PIPE-13)
   * and joins it.
   *
   * @return how the process ends
   * @throws Exception when the coordinator itself fails
   */
  public Outcome run(Coordinator coordinator) throws Exception {
    bind(coordinator);
    try {
      coordinator.run(this, processStop);
    } finally {
      finish();
    }
    return outcome();
  }

  /**
   * For a driver that runs the coordinator itself (HA-29: one manager per org under a sharded
   * coordinator): {@code coordinator} is what {@link Coordinator#demote()} is called on (HA-5).
   * Call before the first {@link #onAcquire()}.
   */
  public synchronized void bind(Coordinator coordinator) {
    this.coordinator = coordinator;
  }

  /**
   * After the coordinator returned: drains the running term, if any (PIPE-13), and joins it.
   * Idempotent.
   */
  public void finish() {
    Term t;
    synchronized (this) {
      t = current;
    }
    if (t != null) {
      t.stop().stop(); // process shutdown: drain (PIPE-13)
      joinUninterruptibly(t.thread());
    }
  }

  /** How the process ends, as far as this manager's terms decide it. */
  public synchronized Outcome outcome() {
    return outcome;
  }

  /** The failure of the crashed term, if any. */
  public synchronized Optional<Throwable> crash() {
    return Optional.ofNullable(crash);
  }

  /** Number of terms started (tests). */
  public synchronized int termsStarted() {
    return terms;
  }

  @Override
  public void onAcquire() {
    Term t;
    synchronized (this) {
      if (current != null) {
        throw new IllegalStateException("terms never overlap (HA-1)");
      }
      if (processStop.isStopped()) {
        return;
      }
      Pipeline pipeline;
      try {
        pipeline = factory.newPipeline();
      } catch (Exception e) {
        termFailed(e);
        return;
      }
      StopSignal stop = new StopSignal();
      terms++;
      t =
          new Term(
              pipeline,
              stop,
              Thread.ofPlatform().name("term-" + terms).unstarted(() -> runTerm(pipeline, stop)));
      current = t;
      holder.install(pipeline);
    }
    metrics.leader.set(1);
    metrics.leaderAcquisitions.add(1); // OBS-15
    listener.termStarted();
    log.atInfo().log("sf2loki ready — streaming to Loki");
    t.thread().start();
  }

  @Override
  public void onLose() {
    Term t;
    synchronized (this) {
      t = current;
    }
    metrics.leader.set(0);
    log.atInfo().log("leadership lost — standing by");
    if (t != null) {
      t.pipeline().loseLeadership();
      joinUninterruptibly(t.thread());
    }
    listener.standby();
  }

  private void runTerm(Pipeline pipeline, StopSignal stop) {
    boolean finished = false;
    Throwable failure = null;
    try {
      finished = pipeline.run(stop);
    } catch (Throwable e) {
      failure = e;
    } finally {
      holder.clear(pipeline);
      listener.termEnded();
      store.reset();
      synchronized (this) {
        current = null;
      }
    }
    if (pipeline.leadershipLost()) {
      return; // HA-4: the loss path owns the transition
    }
    if (failure != null) {
      if (failure instanceof StateException && demotable.test(failure)) {
        log.atWarn().setCause(failure).log("checkpoint write fenced — demoting to standby");
        Coordinator c;
        synchronized (this) {
          c = coordinator;
        }
        if (c != null && c.demote()) {
          return;
        }
      }
      termFailed(failure);
    } else if (finished) {
      synchronized (this) {
        outcome = Outcome.FINISHED;
      }
      log.atInfo().log("all sources finished; shutting down");
      processStop.stop();
    }
  }

  private void termFailed(Throwable failure) {
    synchronized (this) {
      outcome = Outcome.CRASHED;
      crash = failure;
    }
    log.atError().setCause(failure).log("leadership term failed; shutting down");
    processStop.stop();
  }

  private static void joinUninterruptibly(Thread t) {
    boolean interrupted = false;
    while (true) {
      try {
        t.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
