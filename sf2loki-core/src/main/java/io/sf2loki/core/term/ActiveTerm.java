package io.sf2loki.core.term;

import io.sf2loki.core.pipeline.LaneStatus;
import io.sf2loki.core.pipeline.Pipeline;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Process-lifetime holder of the running term's pipeline (SPEC OBS-13): metric callbacks and
 * readiness predicates read through it, so they never capture a per-term object. Cleared at term
 * end. Thread-safe.
 */
public final class ActiveTerm {
  private final AtomicReference<Pipeline> current = new AtomicReference<>();
  private final AtomicBoolean everStarted = new AtomicBoolean();

  void install(Pipeline p) {
    current.set(p);
    everStarted.set(true);
  }

  void clear() {
    current.set(null);
  }

  /** Whether a term has started at least once (readiness leaves {@code not ready}). */
  public boolean everStarted() {
    return everStarted.get();
  }

  /** Whether a term is running now. */
  public boolean running() {
    return current.get() != null;
  }

  /** Entries queued in the running term, 0 when none runs. */
  public long queueDepth() {
    Pipeline p = current.get();
    return p == null ? 0 : p.queueDepth();
  }

  /**
   * How long the running term's sink has been failing (PIPE-11), on the monotonic ticker (SRC-26);
   * empty when healthy or when no term runs.
   */
  public Optional<Duration> sinkFailingFor() {
    Pipeline p = current.get();
    return p == null ? Optional.empty() : p.failingFor();
  }

  /** How long the running term's checkpoint store has been failing (STATE-16). */
  public Optional<Duration> storeFailingFor() {
    Pipeline p = current.get();
    return p == null ? Optional.empty() : p.storeFailingFor();
  }

  /** The running term's egress-pause readiness reason (EGR-8), empty when none runs. */
  public Optional<String> egressPausedReason() {
    Pipeline p = current.get();
    return p == null ? Optional.empty() : p.egressPausedReason();
  }

  /** The running term's lanes (FEAT-3; no lock taken), empty when no term runs. */
  public List<LaneStatus> laneStatus() {
    Pipeline p = current.get();
    return p == null ? List.of() : p.laneStatus();
  }

  /** The running term's sink-failing mark (PIPE-11). */
  public Optional<Instant> sinkFailingSince() {
    Pipeline p = current.get();
    return p == null ? Optional.empty() : p.failingSince();
  }
}
