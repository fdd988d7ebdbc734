package io.sf2loki.sim.loki;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Faults of one {@link LokiReceiver}. Thread-safe.
 *
 * <ul>
 *   <li>{@link #add(LokiFault)}: whole-request failures (429 with Retry-After, 5xx ...), FIFO;
 *   <li>{@link #failTenant(String, LokiFault)}: every request of one tenant ({@code X-Scope-OrgID},
 *       {@code fake} without one) answers a fault until {@link #clear()}; the other tenants are
 *       served as usual (SPEC ORG-16 tests);
 *   <li>{@link #maxBodyBytes(long)}: 413 {@code request body too large} above a size;
 *   <li>{@link #rejectLinesContaining(String, String)}: a per-entry 400 validation error (Loki
 *       text) for entries whose line contains a marker; the other entries are stored (Loki's
 *       partial acceptance).
 *   <li>{@link #stall(Duration)}: every push request arriving while the stall is on is held for the
 *       given time (or until {@link #clear()}) before it is handled as usual — stored and answered
 *       late, after a client with a shorter timeout gave up (an overloaded ingester).
 * </ul>
 */
public final class LokiFaultSchedule {
  private final Deque<Slot> queue = new ArrayDeque<>();
  private final Map<String, LokiFault> byTenant = new HashMap<>();
  private long maxBodyBytes = -1;
  private String marker;
  private String markerMessage;
  private long stallNanos = -1;
  private long stallGeneration;
  private long stalledRequests;

  private static final class Slot {
    final LokiFault fault;
    int remaining;

    Slot(LokiFault f) {
      this.fault = f;
      this.remaining = f.times();
    }
  }

  LokiFaultSchedule() {}

  /** Queues a whole-request fault. Returns this schedule. */
  public synchronized LokiFaultSchedule add(LokiFault fault) {
    queue.add(new Slot(Objects.requireNonNull(fault)));
    return this;
  }

  /** Answers {@code fault} to every request of {@code tenant} until {@link #clear()}. */
  public synchronized LokiFaultSchedule failTenant(String tenant, LokiFault fault) {
    byTenant.put(Objects.requireNonNull(tenant), Objects.requireNonNull(fault));
    return this;
  }

  /** Answers 413 for bodies larger than {@code bytes} (compressed size); {@code -1} = off. */
  public synchronized LokiFaultSchedule maxBodyBytes(long bytes) {
    this.maxBodyBytes = bytes;
    return this;
  }

  /**
   * Rejects every entry whose line contains {@code marker} with a 400 whose message is {@code
   * message} ({@code %s} is replaced by the stream's label string), e.g. {@code "max entry size
   * '10' bytes exceeded for stream '%s' while adding an entry with length '20' bytes"}.
   */
  public synchronized LokiFaultSchedule rejectLinesContaining(String marker, String message) {
    this.marker = Objects.requireNonNull(marker);
    this.markerMessage = Objects.requireNonNull(message);
    return this;
  }

  /** As {@link #rejectLinesContaining(String, String)} with a generic validation message. */
  public LokiFaultSchedule rejectLinesContaining(String marker) {
    return rejectLinesContaining(
        marker, "entry for stream '%s' rejected by simulated validation: line contains marker");
  }

  /**
   * Holds each push request that arrives from now on for {@code hold} (measured from its arrival on
   * the monotonic clock) or until {@link #clear()}, whichever comes first; then handles it as
   * usual. Returns this schedule.
   */
  public synchronized LokiFaultSchedule stall(Duration hold) {
    if (hold.isNegative() || hold.isZero()) {
      throw new IllegalArgumentException("hold must be positive");
    }
    this.stallNanos = hold.toNanos();
    return this;
  }

  /** Push requests held by {@link #stall(Duration)} so far. */
  public synchronized long stalledRequests() {
    return stalledRequests;
  }

  /** Removes every fault and limit set here; releases the requests a stall holds. */
  public synchronized void clear() {
    queue.clear();
    byTenant.clear();
    maxBodyBytes = -1;
    marker = null;
    markerMessage = null;
    stallNanos = -1;
    stallGeneration++;
    notifyAll();
  }

  /** Holds the calling request while a stall is on (see {@link #stall(Duration)}). */
  synchronized void awaitStall() throws InterruptedException {
    if (stallNanos < 0) {
      return;
    }
    stalledRequests++;
    long generation = stallGeneration;
    long deadline = System.nanoTime() + stallNanos;
    long left;
    while (generation == stallGeneration && (left = deadline - System.nanoTime()) > 0) {
      wait(Math.max(1, left / 1_000_000));
    }
  }

  synchronized Optional<LokiFault> next(String tenant) {
    LokiFault own = byTenant.get(tenant);
    if (own != null) {
      return Optional.of(own);
    }
    Slot s = queue.peekFirst();
    if (s == null) {
      return Optional.empty();
    }
    if (s.remaining > 0 && --s.remaining == 0) {
      queue.pollFirst();
    }
    return Optional.of(s.fault);
  }

  synchronized long maxBodyBytes() {
    return maxBodyBytes;
  }

  /** The rejection message for {@code line} in stream {@code labels}, or null. */
  synchronized String markerRejection(String line, String labels) {
    return marker != null && line.contains(marker) ? markerMessage.replace("%s", labels) : null;
  }
}
