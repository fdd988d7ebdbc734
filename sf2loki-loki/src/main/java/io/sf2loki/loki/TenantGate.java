package io.sf2loki.loki;

import io.sf2loki.core.time.Sleeper;
import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Collections;
import java.util.Objects;
import java.util.Set;
import java.util.WeakHashMap;

/**
 * The {@code Retry-After} gate of one Loki tenant, shared by every lane pushing through the sink
 * (SPEC SINK-17).
 *
 * <p>A response carrying {@code Retry-After: N} (delta seconds; SINK-9 caps N at 60 s) closes the
 * gate until N seconds after it arrived (a later, longer announcement extends it; a shorter one
 * never shortens it). {@link #enter} waits, stop-aware, on the injected {@link Sleeper} until the
 * gate is open. After an announcement the gate lets one request through at a time (a probe): the
 * others wait for its answer, so two lanes never both run into the next window: they are woken by
 * the probe's {@link #exit} or by a stop signal firing (no polling, no real-time wait). The probing
 * ends with the first answer that announces no {@code Retry-After}. Thread-safe.
 */
final class TenantGate {
  /** What {@link #enter} granted; pass it to {@link #exit}. */
  enum Pass {
    /** An ordinary request. */
    OPEN,
    /** The single request allowed while probing. */
    PROBE,
    /** Stop fired while waiting: send nothing. */
    STOPPED
  }

  /** The outcome of one {@link #enter}: the pass and whether the caller had to wait. */
  record Entry(Pass pass, boolean waited) {}

  /** No announcement served. */
  static final long NONE = -1;

  private final InstantSource clock;
  private final Sleeper sleeper;

  /** Guarded by this. */
  private Instant closedUntil = Instant.MIN;

  private long announcement;
  private boolean probing;
  private boolean probeBusy;

  /** Stop signals whose firing wakes the probe waiters; each gets one listener. Guarded by this. */
  private final Set<StopSignal> watched = Collections.newSetFromMap(new WeakHashMap<>());

  /** Runs, holding the gate's monitor, just before a lane waits for the probe (tests). */
  private Runnable probeWaitHook = () -> {};

  TenantGate(InstantSource clock, Sleeper sleeper) {
    this.clock = Objects.requireNonNull(clock);
    this.sleeper = Objects.requireNonNull(sleeper);
  }

  /**
   * Waits until a request may be sent: until the window is over (one sleep on the injected sleeper
   * per announcement; a sleep that ran its full duration serves the window even when the clock did
   * not move, as with a test's fake sleeper), then, while probing, until no other probe is in
   * flight.
   *
   * @param served the announcement the caller has already waited out itself (from {@link #exit}),
   *     or {@link #NONE}
   * @param stop cuts a wait short ({@link Pass#STOPPED}); an open gate lets a request pass even
   *     after stop (PIPE-14's single attempt)
   * @param closed the sink's own close signal, likewise
   */
  Entry enter(long served, StopSignal stop, StopSignal closed) throws InterruptedException {
    boolean waited = false;
    long done = served;
    while (true) {
      Duration remaining;
      long id;
      synchronized (this) {
        remaining = Duration.between(clock.instant(), closedUntil);
        id = announcement;
        if (id == done || !remaining.isPositive()) {
          if (!probing) {
            return new Entry(Pass.OPEN, waited);
          }
          if (!probeBusy) {
            probeBusy = true;
            return new Entry(Pass.PROBE, waited);
          }
          watch(stop); // before the check: a stop firing after it notifies this wait
          watch(closed);
          if (stop.isStopped() || closed.isStopped()) {
            return new Entry(Pass.STOPPED, waited);
          }
          waited = true;
          probeWaitHook.run();
          wait(); // the probe's exit or a stop notifies
          continue;
        }
      }
      waited = true;
      if (!sleeper.sleep(remaining, stop) || closed.isStopped()) {
        return new Entry(Pass.STOPPED, true);
      }
      done = id;
    }
  }

  /**
   * Records the answer to a request sent with {@code pass}.
   *
   * @param retryAfter the answer's {@code Retry-After} (zero when none or no answer)
   * @return the announcement this answer made when it closed or extended the window (the caller
   *     then waits it out itself and passes it to its next {@link #enter}), else {@link #NONE}
   */
  synchronized long exit(Pass pass, Duration retryAfter) {
    long made = NONE;
    if (retryAfter.isPositive()) {
      Instant until = clock.instant().plus(retryAfter);
      if (until.isAfter(closedUntil)) {
        closedUntil = until;
        made = ++announcement;
      }
      probing = true;
    } else if (pass == Pass.PROBE || !probing) {
      probing = false;
    }
    if (pass == Pass.PROBE) {
      probeBusy = false;
    }
    notifyAll();
    return made;
  }

  /** Guarded by this. A stop signal is watched once for the gate's life (weakly held). */
  private void watch(StopSignal signal) {
    if (watched.add(signal)) {
      signal.onStop(this::wake);
    }
  }

  private synchronized void wake() {
    notifyAll();
  }

  /** Sets what runs, holding the monitor, just before a lane waits for the probe (tests). */
  synchronized void onProbeWait(Runnable hook) {
    probeWaitHook = Objects.requireNonNull(hook);
  }

  /** The instant before which no request is sent (for tests and logs). */
  synchronized Instant closedUntil() {
    return closedUntil;
  }
}
