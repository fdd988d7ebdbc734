package io.sf2loki.core.term;

import io.sf2loki.core.pipeline.LaneStatus;
import io.sf2loki.core.pipeline.Pipeline;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * Process-lifetime holder of the running terms' pipelines (SPEC OBS-13): metric callbacks and
 * readiness predicates read through it, so they never capture a per-term object. A pipeline is
 * removed at its term's end. One term runs at a time per coordinator; under {@code
 * coordinate.per_org} (HA-27) one per org this replica leads, and every read aggregates them
 * (HA-32): depths add up, the longest failure and the first pause in start order win, lanes are
 * listed per term. Thread-safe.
 */
public final class ActiveTerm {
  private final List<Pipeline> current = new CopyOnWriteArrayList<>();
  private final AtomicBoolean everStarted = new AtomicBoolean();

  void install(Pipeline p) {
    current.add(p);
    everStarted.set(true);
  }

  void clear(Pipeline p) {
    current.remove(p);
  }

  /** Whether a term has started at least once (readiness leaves {@code not ready}). */
  public boolean everStarted() {
    return everStarted.get();
  }

  /** Whether a term is running now. */
  public boolean running() {
    return !current.isEmpty();
  }

  /** Entries queued in the running terms, 0 when none runs. */
  public long queueDepth() {
    long sum = 0;
    for (Pipeline p : current) {
      sum += p.queueDepth();
    }
    return sum;
  }

  /**
   * How long a running term's sink has been failing (PIPE-11), on the monotonic ticker (SRC-26);
   * the longest over the running terms; empty when healthy or when no term runs.
   */
  public Optional<Duration> sinkFailingFor() {
    return longest(Pipeline::failingFor);
  }

  /** How long a running term's checkpoint store has been failing (STATE-16), the longest. */
  public Optional<Duration> storeFailingFor() {
    return longest(Pipeline::storeFailingFor);
  }

  /** The first running term's egress-pause readiness reason (EGR-8), empty when none. */
  public Optional<String> egressPausedReason() {
    for (Pipeline p : current) {
      Optional<String> r = p.egressPausedReason();
      if (r.isPresent()) {
        return r;
      }
    }
    return Optional.empty();
  }

  /** The running terms' lanes (FEAT-3; no lock taken), empty when no term runs. */
  public List<LaneStatus> laneStatus() {
    List<LaneStatus> out = new ArrayList<>();
    for (Pipeline p : current) {
      out.addAll(p.laneStatus());
    }
    return out;
  }

  /** The earliest sink-failing mark of the running terms (PIPE-11). */
  public Optional<Instant> sinkFailingSince() {
    return current.stream()
        .map(Pipeline::failingSince)
        .flatMap(Optional::stream)
        .min(Comparator.naturalOrder());
  }

  private Optional<Duration> longest(Function<Pipeline, Optional<Duration>> f) {
    return current.stream().map(f).flatMap(Optional::stream).max(Comparator.naturalOrder());
  }
}
