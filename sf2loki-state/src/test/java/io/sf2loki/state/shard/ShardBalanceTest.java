package io.sf2loki.state.shard;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.core.time.FakeTime;
import io.sf2loki.state.lease.LeaseProtocol.Observation;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The HA-28 sharing rules on an injected ticker: every branch in milliseconds. */
class ShardBalanceTest {
  private static final Duration RENEW = Duration.ofSeconds(2);
  private static final List<String> ORGS = List.of("a", "b", "c", "d", "e", "f");

  private final FakeTime ft = new FakeTime(Instant.parse("2026-12-03T10:00:00Z"));
  private final ReplicaView view = new ReplicaView("me", ft.ticker());

  private ShardBalance balance(int max) {
    return new ShardBalance(ORGS, max, RENEW, view, ft.ticker());
  }

  private void seat(int i, String holder, boolean live) {
    view.record(SeatHolder.key(i), true, new Observation(Optional.of(holder), live));
  }

  @Test
  @DisplayName("HA-28: fair share = ceil(orgs / live replicas), capped by max_orgs_per_replica")
  void ha28_fairShare() {
    assertThat(ShardBalance.fairShare(6, 3, 0)).isEqualTo(2);
    assertThat(ShardBalance.fairShare(6, 4, 0)).isEqualTo(2);
    assertThat(ShardBalance.fairShare(7, 3, 0)).isEqualTo(3);
    assertThat(ShardBalance.fairShare(6, 1, 0)).isEqualTo(6);
    assertThat(ShardBalance.fairShare(6, 0, 0)).isEqualTo(6); // never below one replica (self)
    assertThat(ShardBalance.fairShare(6, 1, 4)).isEqualTo(4);
    assertThat(ShardBalance.fairShare(6, 12, 0)).isEqualTo(1);
  }

  @Test
  @DisplayName(
      "HA-28: below the share any free org may be acquired; at the share only one free for a renew"
          + " interval")
  void ha28_acquireGate() {
    seat(0, "me", true);
    seat(1, "r2", true);
    seat(2, "r3", true);
    ShardBalance b = balance(0);
    assertThat(b.share()).isEqualTo(2);
    assertThat(b.mayAcquire("a")).isTrue();
    b.acquired("a");
    b.acquired("b");
    view.record("c", false, Observation.none());
    assertThat(b.mayAcquire("c")).isFalse(); // at the share, c just seen free
    ft.advance(RENEW.minusMillis(1));
    assertThat(b.mayAcquire("c")).isFalse();
    ft.advance(Duration.ofMillis(1));
    assertThat(b.mayAcquire("c")).isTrue(); // nobody below its share took it for renew_interval
    view.record("c", false, new Observation(Optional.of("r2"), true));
    assertThat(b.mayAcquire("c")).isFalse();
    b.lost("b");
    assertThat(b.mayAcquire("d")).isTrue();
  }

  @Test
  @DisplayName("HA-28, CFG-44: max_orgs_per_replica caps acquisition even for free orgs")
  void ha28_cap() {
    ShardBalance b = balance(2);
    assertThat(b.share()).isEqualTo(2); // alone, capped at 2
    b.acquired("a");
    b.acquired("b");
    view.record("c", false, Observation.none());
    ft.advance(RENEW.multipliedBy(5));
    assertThat(b.mayAcquire("c")).isFalse();
  }

  @Test
  @DisplayName(
      "HA-28: above the share one org per renew interval is handed over, the one acquired last, and"
          + " not competed for again at once")
  void ha28_releaseOnePerInterval() {
    ShardBalance b = balance(0);
    for (String o : ORGS) {
      b.acquired(o);
      ft.advance(Duration.ofMillis(10));
    }
    assertThat(b.toRelease()).isEmpty(); // alone: share 6
    seat(0, "me", true);
    seat(1, "r2", true);
    seat(2, "r3", true); // share 2
    assertThat(b.toRelease()).contains("f");
    b.lost("f");
    assertThat(b.toRelease()).isEmpty(); // one per renew interval
    ft.advance(RENEW.minusMillis(1));
    assertThat(b.toRelease()).isEmpty();
    ft.advance(Duration.ofMillis(1));
    assertThat(b.toRelease()).contains("e");
    b.lost("e");
    ft.advance(RENEW);
    b.toRelease().ifPresent(b::lost); // d
    ft.advance(RENEW);
    b.toRelease().ifPresent(b::lost); // c
    assertThat(b.leading()).containsExactlyInAnyOrder("a", "b");
    ft.advance(RENEW);
    assertThat(b.toRelease()).isEmpty(); // at the share
  }

  @Test
  @DisplayName("HA-28: an org handed over is not competed for again for 2 × renew_interval")
  void ha28_cooldown() {
    seat(0, "me", true);
    seat(1, "r2", true);
    seat(2, "r3", true); // share 2
    ShardBalance b = balance(0);
    b.acquired("a");
    b.acquired("b");
    b.acquired("c");
    assertThat(b.toRelease()).contains("c");
    b.lost("c");
    b.lost("b"); // below the share now
    assertThat(b.mayAcquire("c")).isFalse();
    assertThat(b.mayAcquire("b")).isTrue(); // lost, not handed over
    ft.advance(RENEW.multipliedBy(2).minusMillis(1));
    assertThat(b.mayAcquire("c")).isFalse();
    ft.advance(Duration.ofMillis(1));
    assertThat(b.mayAcquire("c")).isTrue();
  }

  @Test
  @DisplayName(
      "HA-30: a replica named on an expired seat and holding no live seat is dead; its orgs' leases"
          + " no longer count it")
  void ha30_deadReplicas() {
    seat(0, "me", true);
    seat(1, "r2", true);
    view.record("a", false, new Observation(Optional.of("r3"), true)); // r3 leads without a seat
    assertThat(view.live()).containsExactly("me", "r2", "r3");
    seat(1, "r2", false);
    assertThat(view.live()).containsExactly("me", "r3");
    seat(2, "r2", true); // r2 won another seat
    assertThat(view.live()).containsExactly("me", "r2", "r3");
    assertThat(balance(0).share()).isEqualTo(2);
  }

  @Test
  @DisplayName("HA-30: free time runs from the first read without a live holder, on the ticker")
  void ha30_freeTime() {
    assertThat(view.freeForNanos("a")).isEqualTo(-1); // never read
    view.record("a", false, Observation.none());
    ft.advance(Duration.ofMillis(300));
    view.record("a", false, new Observation(Optional.of("r2"), false));
    ft.advance(Duration.ofMillis(200));
    assertThat(view.freeForNanos("a")).isEqualTo(Duration.ofMillis(500).toNanos());
    view.record("a", false, new Observation(Optional.of("r2"), true));
    assertThat(view.freeForNanos("a")).isEqualTo(-1);
    assertThat(view.liveHolder("a")).contains("r2");
  }
}
