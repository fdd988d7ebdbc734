package io.sf2loki.state.shard;

import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.state.lease.LeaseProtocol;
import io.sf2loki.state.lease.LeaseProtocol.Observation;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Holds one seat lease so every replica is visible, also one that leads no org yet (SPEC HA-30):
 * the seats are {@code seat-0…seat-(n−1)} leases with the org leases' rules; each renew interval
 * this replica reads every seat into the {@link ReplicaView}, renews its own, or, without one,
 * competes for the lowest seat that shows no live holder. A seat protects nothing (no store is
 * bound to it), so losing one only costs visibility until the next seat is won. Runs on the thread
 * that calls {@link #run}; {@link #release()} is for the closer after that thread ended.
 */
final class SeatHolder {
  private static final Logger log = LoggerFactory.getLogger(SeatHolder.class);

  private final List<LeaseProtocol> seats;
  private final ReplicaView view;
  private final TimeSource time;
  private final Duration renewInterval;
  private int held = -1; // the seat index we hold, or -1
  private long epoch;

  SeatHolder(List<LeaseProtocol> seats, ReplicaView view, TimeSource time, Duration renewInterval) {
    this.seats = List.copyOf(seats);
    this.view = Objects.requireNonNull(view, "view");
    this.time = Objects.requireNonNull(time, "time");
    this.renewInterval = Objects.requireNonNull(renewInterval, "renewInterval");
  }

  /** Key of seat {@code i} in the {@link ReplicaView}. */
  static String key(int i) {
    return "seat-" + i;
  }

  /** Holds a seat until {@code stop} fires. */
  void run(StopSignal stop) throws InterruptedException {
    while (!stop.isStopped()) {
      step(stop);
      time.sleeper().sleep(renewInterval, stop);
    }
  }

  /** One round: read every seat, then renew ours or compete for the lowest free one. */
  void step(StopSignal stop) throws InterruptedException {
    int free = -1;
    for (int i = 0; i < seats.size(); i++) {
      if (i == held) {
        continue;
      }
      Observation o = seats.get(i).observe();
      view.record(key(i), true, o);
      boolean ours = o.holder().filter(view.self()::equals).isPresent();
      if (free < 0 && (!o.live() || ours)) {
        free = i;
      }
    }
    if (held >= 0) {
      LeaseProtocol.Renewal r = seats.get(held).renew(epoch, stop);
      if (r.surrender() == null) {
        view.record(key(held), true, new Observation(java.util.Optional.of(view.self()), true));
        return;
      }
      log.atInfo().addKeyValue("seat", held).log("seat lost; competing for another");
      held = -1;
    }
    if (free >= 0) {
      LeaseProtocol.Won w = seats.get(free).acquire(stop);
      if (w != null) {
        held = free;
        epoch = w.epoch();
        view.record(key(free), true, new Observation(java.util.Optional.of(view.self()), true));
      }
    }
  }

  /** The seat held, or -1 (tests). */
  int held() {
    return held;
  }

  /** Gives our seat up (clean shutdown). */
  void release() {
    if (held >= 0) {
      seats.get(held).release(epoch);
      held = -1;
    }
  }
}
