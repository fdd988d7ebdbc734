package io.sf2loki.core.spi;

import io.sf2loki.core.time.StopSignal;

/**
 * Decides when this replica leads (SPEC HA-1): it calls {@link Leadership#onAcquire()} when the
 * replica becomes leader and {@link Leadership#onLose()} when it stops being leader. Terms are
 * strictly sequential and never overlap within a process.
 */
public interface Coordinator {
  /** The callbacks of HA-1, implemented by the application's term manager. */
  interface Leadership {
    /** This replica became leader: build and start a fresh term (PIPE-20). Returns promptly. */
    void onAcquire();

    /**
     * Leadership was lost: end the term without pushing or committing (HA-4). Returns after the
     * term's threads were joined (PIPE-23).
     */
    void onLose();
  }

  /**
   * Acquires and holds leadership until {@code stop} fires, calling the callbacks on transitions.
   * Returns after {@code stop} fired (a term still running is ended by the caller, draining it).
   *
   * @throws Exception on an unrecoverable coordinator failure
   */
  void run(Leadership leadership, StopSignal stop) throws Exception;

  /**
   * HA-5: gives up leadership now because the term's checkpoint write was fenced; the coordinator
   * calls {@link Leadership#onLose()} and re-enters acquisition. Coordinators without leases (noop)
   * cannot demote and return false.
   *
   * @return whether the coordinator demoted
   */
  default boolean demote() {
    return false;
  }
}
