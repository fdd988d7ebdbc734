package io.sf2loki.state.shard;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.state.lease.LeaseEvents;
import io.sf2loki.state.lease.LeaseProtocol;
import io.sf2loki.state.lease.LeaseSettings;
import io.sf2loki.state.lease.LeaseStoreBinding;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** HA-30 seats and HA-28's gate over in-memory lease documents, on one injected clock. */
class SeatHolderTest {
  private static final Duration TTL = Duration.ofSeconds(6);
  private static final Duration RENEW = Duration.ofSeconds(2);

  private final FakeTime ft = new FakeTime(Instant.parse("2026-12-03T10:00:00Z"));
  private final TimeSource time = ft.timeSource();
  private final List<MemLeaseStorage> seats =
      List.of(new MemLeaseStorage("s0"), new MemLeaseStorage("s1"), new MemLeaseStorage("s2"));
  private final StopSignal stop = new StopSignal();

  private static LeaseSettings settings(String id) {
    return new LeaseSettings(id, TTL, RENEW, Duration.ofSeconds(5));
  }

  private LeaseProtocol protocol(MemLeaseStorage s, String id) {
    return LeaseProtocol.document(
        s, settings(id), LeaseStoreBinding.none(), time, LeaseEvents.none());
  }

  private record Replica(ReplicaView view, SeatHolder seat) {}

  private Replica replica(String id) {
    ReplicaView view = new ReplicaView(id, ft.ticker());
    List<LeaseProtocol> ps = new ArrayList<>();
    seats.forEach(s -> ps.add(protocol(s, id)));
    return new Replica(view, new SeatHolder(ps, view, time, RENEW));
  }

  @Test
  @DisplayName(
      "HA-30: each replica holds the lowest free seat; a dead replica's seat expires and it drops"
          + " out of the live set; a newcomer takes the seat")
  void ha30_seats() throws Exception {
    Replica a = replica("a");
    Replica b = replica("b");
    a.seat().step(stop);
    b.seat().step(stop);
    assertThat(a.seat().held()).isZero();
    assertThat(b.seat().held()).isEqualTo(1);
    a.seat().step(stop);
    assertThat(a.view().live()).containsExactly("a", "b");
    assertThat(b.view().live()).containsExactly("a", "b");

    ft.advance(TTL); // a dies: no more steps; b keeps renewing
    b.seat().step(stop);
    assertThat(b.view().live()).containsExactly("b");
    assertThat(seats.get(1).current().holder()).isEqualTo("b");

    Replica c = replica("c");
    c.seat().step(stop);
    assertThat(c.seat().held()).isZero(); // a's expired seat
    b.seat().step(stop);
    assertThat(b.view().live()).containsExactly("b", "c");

    c.seat().release();
    assertThat(c.seat().held()).isEqualTo(-1);
    assertThat(seats.get(0).current().liveAt(ft.now())).isFalse();
  }

  @Test
  @DisplayName(
      "HA-28: a closed gate reads the lease but never writes it and waits renew_interval; an open"
          + " gate competes")
  void ha28_gatedAcquisition() throws Exception {
    MemLeaseStorage org = new MemLeaseStorage("org-a");
    ReplicaView view = new ReplicaView("a", ft.ticker());
    ShardBalance balance = new ShardBalance(List.of("x"), 1, RENEW, view, ft.ticker());
    GatedProtocol gated =
        new GatedProtocol("x", protocol(org, "a"), view, balance, time.sleeper(), RENEW);
    balance.acquired("other-org"); // at the cap of 1
    int before = ft.sleeps().size();
    assertThat(gated.acquire(stop)).isNull();
    assertThat(org.current()).isNull();
    assertThat(ft.sleeps().subList(before, ft.sleeps().size())).containsExactly(RENEW);
    assertThat(view.freeForNanos("x")).isGreaterThanOrEqualTo(0);

    balance.lost("other-org");
    assertThat(gated.acquire(stop)).isNotNull();
    assertThat(org.current().holder()).isEqualTo("a");
    assertThat(gated.observe().holder()).isEqualTo(Optional.of("a"));

    GatedProtocol other =
        new GatedProtocol(
            "x",
            protocol(org, "b"),
            new ReplicaView("b", ft.ticker()),
            new ShardBalance(
                List.of("x"), 0, RENEW, new ReplicaView("b", ft.ticker()), ft.ticker()),
            time.sleeper(),
            RENEW);
    assertThat(other.acquire(stop)).isNull(); // a live holder: nothing to compete for
    assertThat(org.current().holder()).isEqualTo("a");
  }
}
