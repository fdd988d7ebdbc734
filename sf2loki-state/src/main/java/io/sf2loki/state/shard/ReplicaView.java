package io.sf2loki.state.shard;

import io.sf2loki.core.time.Ticker;
import io.sf2loki.state.lease.LeaseProtocol.Observation;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * What this replica last saw of every shard lease (SPEC HA-30): the org leases and the seat leases
 * each replica holds one of. Thread-safe (one lock); fed by the coordinator threads after each
 * read.
 *
 * <ul>
 *   <li>Live replicas: every holder of a live lease, plus this replica; a holder named on an
 *       expired seat that holds no live seat is dead (a replica keeps its seat until it stops).
 *   <li>Free time: how long, on the ticker, a lease has shown no live holder since this replica
 *       first saw it so.
 * </ul>
 */
public final class ReplicaView {
  private record Entry(boolean seat, Observation seen, long freeSinceNanos) {}

  private final String self;
  private final Ticker ticker;
  private final Map<String, Entry> entries = new HashMap<>(); // guarded by this

  /**
   * @param self this replica's holder identity
   * @param ticker monotonic time of the free marks
   */
  public ReplicaView(String self, Ticker ticker) {
    this.self = Objects.requireNonNull(self, "self");
    this.ticker = Objects.requireNonNull(ticker, "ticker");
  }

  /** This replica's identity. */
  public String self() {
    return self;
  }

  /**
   * Records one read of lease {@code key}.
   *
   * @param seat whether {@code key} is a seat lease (else an org lease)
   */
  public synchronized void record(String key, boolean seat, Observation seen) {
    long now = ticker.nanoTime();
    Entry old = entries.get(key);
    boolean free = !seen.live();
    long since = free ? (old != null && !old.seen().live() ? old.freeSinceNanos() : now) : 0;
    entries.put(key, new Entry(seat, seen, since));
  }

  /** The live replicas' identities, this replica included, sorted. */
  public synchronized Set<String> live() {
    Set<String> live = new TreeSet<>();
    Set<String> liveSeat = new HashSet<>();
    Set<String> deadSeat = new HashSet<>();
    for (Entry e : entries.values()) {
      Optional<String> h = e.seen().holder();
      if (h.isEmpty()) {
        continue;
      }
      if (e.seen().live()) {
        live.add(h.get());
        if (e.seat()) {
          liveSeat.add(h.get());
        }
      } else if (e.seat()) {
        deadSeat.add(h.get());
      }
    }
    deadSeat.removeAll(liveSeat);
    live.removeAll(deadSeat);
    live.add(self);
    return live;
  }

  /**
   * How long lease {@code key} has shown no live holder, in nanoseconds; -1 while it has one or
   * before its first read.
   */
  public synchronized long freeForNanos(String key) {
    Entry e = entries.get(key);
    if (e == null || e.seen().live()) {
      return -1;
    }
    return ticker.nanoTime() - e.freeSinceNanos();
  }

  /** The last seen holder of lease {@code key}, when live. */
  public synchronized Optional<String> liveHolder(String key) {
    Entry e = entries.get(key);
    return e == null || !e.seen().live() ? Optional.empty() : e.seen().holder();
  }
}
