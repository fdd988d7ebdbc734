package io.sf2loki.sim.org;

import java.time.InstantSource;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Faults queued per endpoint (and per EventLogFile id for downloads) of one {@link SimOrg}.
 * Thread-safe. Faults of one queue are applied in the order they were added; a per-file download
 * fault takes precedence over an endpoint-wide {@link SimEndpoint#LOGFILE} fault.
 */
public final class FaultSchedule {
  private final Map<SimEndpoint, Deque<Slot>> byEndpoint = new EnumMap<>(SimEndpoint.class);
  private final Map<String, Deque<Slot>> byFile = new HashMap<>();

  private static final class Slot {
    final Fault fault;
    int remaining;

    Slot(Fault fault) {
      this.fault = fault;
      this.remaining = fault.times();
    }
  }

  private final InstantSource clock;

  FaultSchedule(InstantSource clock) {
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Queues {@code fault} for the next calls of {@code endpoint}. Returns this schedule. */
  public synchronized FaultSchedule add(SimEndpoint endpoint, Fault fault) {
    byEndpoint
        .computeIfAbsent(Objects.requireNonNull(endpoint), e -> new ArrayDeque<>())
        .add(new Slot(Objects.requireNonNull(fault)));
    return this;
  }

  /** Same as {@link #add(SimEndpoint, Fault)} with the endpoint's short name (e.g. "logfile"). */
  public FaultSchedule add(String endpoint, Fault fault) {
    return add(SimEndpoint.of(endpoint), fault);
  }

  /**
   * Queues {@code fault} for the next downloads of the EventLogFile {@code fileId} only, e.g.
   * {@code failDownload(id, Fault.status(500).times(2))}.
   */
  public synchronized FaultSchedule failDownload(String fileId, Fault fault) {
    byFile
        .computeIfAbsent(Objects.requireNonNull(fileId), e -> new ArrayDeque<>())
        .add(new Slot(Objects.requireNonNull(fault)));
    return this;
  }

  /** Removes every queued fault, including {@link Fault#untilCleared()} ones. */
  public synchronized void clear() {
    byEndpoint.clear();
    byFile.clear();
  }

  /** Removes the faults queued for {@code endpoint} (not the per-file ones). */
  public synchronized void clear(SimEndpoint endpoint) {
    byEndpoint.remove(endpoint);
  }

  /** Takes one use of the next fault for this call, if any. */
  synchronized Optional<Fault> next(SimEndpoint endpoint, String fileId) {
    if (fileId != null) {
      Optional<Fault> f = take(byFile.get(fileId));
      if (f.isPresent()) {
        return f;
      }
    }
    return take(byEndpoint.get(endpoint));
  }

  private Optional<Fault> take(Deque<Slot> q) {
    if (q == null) {
      return Optional.empty();
    }
    while (!q.isEmpty() && q.peekFirst().fault.expiredAt(clock.instant())) {
      q.pollFirst();
    }
    if (q.isEmpty()) {
      return Optional.empty();
    }
    Slot s = q.peekFirst();
    if (s.remaining > 0) {
      s.remaining--;
      if (s.remaining == 0) {
        q.pollFirst();
      }
    }
    return Optional.of(s.fault);
  }
}
