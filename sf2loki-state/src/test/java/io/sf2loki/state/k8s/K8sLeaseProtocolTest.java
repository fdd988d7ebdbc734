package io.sf2loki.state.k8s;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.sf2loki.core.spi.Coordinator;
import io.sf2loki.core.spi.StateFenceException;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.Sleeper;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.state.lease.LeaseCoordinator;
import io.sf2loki.state.lease.LeaseCoordinator.Surrender;
import io.sf2loki.state.lease.LeaseProtocol.Renewal;
import io.sf2loki.state.lease.LeaseProtocol.Won;
import io.sf2loki.state.lease.LeaseSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

/**
 * The {@code k8s_lease} rules (SPEC HA-12…HA-15, HA-8, HA-5, HA-7) against fabric8's CRUD mock
 * server (409 on a stale {@code resourceVersion} or a duplicate create), with injected wall clock,
 * ticker and sleeper: no real waits.
 */
@EnableKubernetesMockClient(crud = true)
class K8sLeaseProtocolTest {
  private static final Instant T0 = Instant.parse("2026-12-02T07:00:00Z");
  private static final Duration DURATION = Duration.ofSeconds(6);
  private static final Duration RENEW = Duration.ofSeconds(2);

  KubernetesMockServer server;

  private K8sLeaseFixture k;
  private FakeTime ft;
  private final List<Duration> sleeps = new ArrayList<>();
  private IntConsumer afterSleep = n -> {};
  private TimeSource time;
  private final K8sLeaseFixture.Binding binding = new K8sLeaseFixture.Binding();
  private final K8sLeaseFixture.Events events = new K8sLeaseFixture.Events();
  private final StopSignal stop = new StopSignal();
  private K8sLeaseProtocol p;

  @BeforeEach
  void setUp(TestInfo info) {
    k = new K8sLeaseFixture(server, "lease-" + info.getTestMethod().orElseThrow().getName());
    ft = new FakeTime(T0);
    Sleeper base = ft.sleeper();
    time =
        new TimeSource(
            ft.wall(),
            ft.ticker(),
            (d, s) -> {
              boolean full = base.sleep(d, s);
              sleeps.add(d);
              afterSleep.accept(sleeps.size());
              return full && !s.isStopped();
            });
    p = protocol("me");
  }

  @AfterEach
  void tearDown() {
    k.client.close();
  }

  private K8sLeaseProtocol protocol(String id) {
    return new K8sLeaseProtocol(k.leaseClient(), settings(id), binding, time, events);
  }

  private static LeaseSettings settings(String id) {
    return new LeaseSettings(id, DURATION, RENEW, Duration.ofSeconds(5));
  }

  private LeaseCoordinator coordinator() {
    return new LeaseCoordinator("k8s_lease", p, settings("me"), binding, time, events);
  }

  @Test
  @DisplayName(
      "HA-12/HA-14/HA-8: an absent Lease is created with holderIdentity, renewTime,"
          + " leaseDurationSeconds and leaseTransitions = epoch 1; no verify delay")
  void absentIsCreated() throws Exception {
    Won w = p.acquire(stop);
    assertThat(w).isNotNull();
    assertThat(w.epoch()).isEqualTo(1);
    Lease l = k.stored();
    assertThat(l.getSpec().getHolderIdentity()).isEqualTo("me");
    assertThat(l.getSpec().getLeaseTransitions()).isEqualTo(1);
    assertThat(l.getSpec().getLeaseDurationSeconds()).isEqualTo(6);
    assertThat(l.getSpec().getRenewTime().toInstant()).isEqualTo(T0);
    assertThat(sleeps).isEmpty();
  }

  @Test
  @DisplayName("HA-8: the epoch is max(leaseTransitions, store __fence_epoch__) + 1")
  void epochFloor() throws Exception {
    k.put("", 4, true, 6);
    binding.fenceEpoch = 9;
    assertThat(p.acquire(stop).epoch()).isEqualTo(10);
    k.put("", 12, true, 6);
    assertThat(protocol("other").acquire(stop).epoch()).isEqualTo(13);
    assertThat(k.stored().getSpec().getLeaseTransitions()).isEqualTo(13);
  }

  @Test
  @DisplayName(
      "HA-14: a read error counts as absent; the create then answers 409 → lost race, wait"
          + " renew_interval, the live holder untouched")
  void createConflictIsLostRace() throws Exception {
    k.put("other", 3, true, 6);
    k.server
        .expect()
        .get()
        .withPath(k.leasePath())
        .andReturn(500, K8sLeaseFixture.status(500))
        .once();
    assertThat(p.acquire(stop)).isNull();
    assertThat(events.seen).containsExactly("error:read", "error:write");
    assertThat(sleeps).containsExactly(RENEW);
    assertThat(k.stored().getSpec().getHolderIdentity()).isEqualTo("other");
  }

  @Test
  @DisplayName("HA-14: a create refused with 409 (another replica created it first) → lost race")
  void createRaceLost() throws Exception {
    k.server
        .expect()
        .post()
        .withPath(k.collectionPath())
        .andReturn(409, K8sLeaseFixture.status(409))
        .once();
    assertThat(p.acquire(stop)).isNull();
    assertThat(events.seen).containsExactly("error:write");
    assertThat(sleeps).containsExactly(RENEW);
  }

  @Test
  @DisplayName(
      "HA-13/HA-14: a live foreign holder → wait renew_interval; stale once lease_duration passed"
          + " since this replica first saw its resourceVersion → taken over with epoch + 1")
  void staleByObservedTime() throws Exception {
    k.put("other", 3, true, 6);
    int waits = 0;
    Won w;
    while ((w = p.acquire(stop)) == null) {
      waits++;
    }
    assertThat(waits).isEqualTo(3); // observed at 0 s; 2 s, 4 s live; stale at 6 s
    assertThat(w.epoch()).isEqualTo(4);
    assertThat(k.stored().getSpec().getHolderIdentity()).isEqualTo("me");
    assertThat(k.stored().getSpec().getLeaseTransitions()).isEqualTo(4);
  }

  @Test
  @DisplayName(
      "HA-13: wall-clock skew never causes a takeover: an ancient renewTime and a wall clock a day"
          + " ahead are ignored, and every renewal (new resourceVersion) restarts the observation")
  void wallClockSkewIgnored() throws Exception {
    k.put("other", 3, true, 6); // renewTime 2020
    ft.setWall(T0.plus(Duration.ofDays(1)));
    assertThat(p.acquire(stop)).isNull();
    for (int i = 0; i < 10; i++) { // 20 s of ticker time, far beyond lease_duration
      k.put("other", 3, true, 6); // the holder renews: a new resourceVersion
      assertThat(p.acquire(stop)).isNull();
    }
    assertThat(k.stored().getSpec().getHolderIdentity()).isEqualTo("other");
  }

  @Test
  @DisplayName(
      "HA-13: an empty holder, a missing renewTime or leaseDurationSeconds is claimable at once")
  void claimableAtOnce() throws Exception {
    k.put("", 1, true, 6);
    assertThat(p.acquire(stop)).isNotNull();
    k.put("other", 2, false, 6);
    assertThat(protocol("b").acquire(stop).epoch()).isEqualTo(3);
    k.put("other", 3, true, null);
    assertThat(protocol("c").acquire(stop).epoch()).isEqualTo(4);
    assertThat(sleeps).isEmpty();
  }

  @Test
  @DisplayName("HA-8: the store cannot be read → no acquisition, WARN, retry after renew_interval")
  void storeUnreadable() throws Exception {
    binding.failStoreReads = true;
    assertThat(p.acquire(stop)).isNull();
    assertThat(k.stored()).isNull();
    assertThat(events.seen).containsExactly("error:store_read");
    assertThat(sleeps).containsExactly(RENEW);
  }

  @Test
  @DisplayName(
      "HA-15: a renewal rewrites renewTime with the latest resourceVersion and the same epoch")
  void renew() throws Exception {
    Won w = p.acquire(stop);
    String rv = k.stored().getMetadata().getResourceVersion();
    ft.advance(RENEW);
    Renewal r = p.renew(w.epoch(), stop);
    assertThat(r.wasRenewed()).isTrue();
    assertThat(r.renewedAtNanos()).isEqualTo(RENEW.toNanos());
    Lease l = k.stored();
    assertThat(l.getMetadata().getResourceVersion()).isNotEqualTo(rv);
    assertThat(l.getSpec().getLeaseTransitions()).isEqualTo(1);
    assertThat(l.getSpec().getRenewTime().toInstant()).isEqualTo(T0.plus(RENEW));
  }

  @Test
  @DisplayName("HA-15: a foreign holder on renew surrenders")
  void renewForeign() throws Exception {
    Won w = p.acquire(stop);
    k.put("other", 2, true, 6);
    assertThat(p.renew(w.epoch(), stop).surrender()).isEqualTo(Surrender.FOREIGN_HOLDER);
  }

  @Test
  @DisplayName("HA-15: a 409 on the renewal's replace surrenders (conflict)")
  void renewConflict() throws Exception {
    Won w = p.acquire(stop);
    k.server
        .expect()
        .put()
        .withPath(k.leasePath())
        .andReturn(409, K8sLeaseFixture.status(409))
        .once();
    assertThat(p.renew(w.epoch(), stop).surrender()).isEqualTo(Surrender.CONFLICT);
    assertThat(events.seen).containsExactly("error:write");
  }

  @Test
  @DisplayName(
      "HA-15: a Lease deleted while leading surrenders: 404 on the read, or on the replace")
  void renewDeleted() throws Exception {
    Won w = p.acquire(stop);
    k.resource().delete();
    assertThat(p.renew(w.epoch(), stop).surrender()).isEqualTo(Surrender.CONFLICT);
    assertThat(k.stored()).isNull(); // never re-created while holding
    Won w2 = p.acquire(stop);
    k.server
        .expect()
        .put()
        .withPath(k.leasePath())
        .andReturn(404, K8sLeaseFixture.status(404))
        .once();
    assertThat(p.renew(w2.epoch(), stop).surrender()).isEqualTo(Surrender.CONFLICT);
  }

  @Test
  @DisplayName(
      "HA-15/HA-7: other errors are tolerated until lease_duration − renew_interval, then the"
          + " replica surrenders and the store's leadership check fences")
  void renewDeadline() throws Exception {
    LeaseCoordinator c = coordinator();
    Recorder r = new Recorder();
    r.onAcquire =
        () ->
            k.server
                .expect()
                .put()
                .withPath(k.leasePath())
                .andReturn(500, K8sLeaseFixture.status(500))
                .always();
    afterSleep =
        n -> {
          if (r.lost > 0) {
            stop.stop();
          }
        };
    c.run(r, stop);
    assertThat(r.acquired).isEqualTo(1);
    assertThat(r.lost).isEqualTo(1);
    assertThat(r.lostAtNanos).isEqualTo(DURATION.minus(RENEW).toNanos());
    assertThat(events.seen).contains("error:write", "surrendered:renew_deadline");
    assertThatThrownBy(() -> binding.fencing.leadershipCheck().run())
        .isInstanceOf(StateFenceException.class);
  }

  @Test
  @DisplayName(
      "HA-15: on clean shutdown the holder clears holderIdentity with a conditional replace;"
          + " another replica then acquires at once with the next epoch")
  void releaseOnClose() throws Exception {
    LeaseCoordinator c = coordinator();
    Recorder r = new Recorder();
    r.onAcquire = stop::stop;
    c.run(r, stop);
    assertThat(c.epoch()).isEqualTo(1);
    c.close();
    Lease l = k.stored();
    assertThat(l.getSpec().getHolderIdentity()).isNull();
    assertThat(l.getSpec().getLeaseTransitions()).isEqualTo(1);
    assertThat(protocol("b").acquire(new StopSignal()).epoch()).isEqualTo(2);
  }

  @Test
  @DisplayName("HA-5: demote() ends the term, releases the Lease and re-acquires with epoch + 1")
  void demote() throws Exception {
    LeaseCoordinator c = coordinator();
    Recorder r = new Recorder();
    r.onAcquire =
        () -> {
          if (r.acquired == 1) {
            assertThat(c.demote()).isTrue();
          } else {
            stop.stop();
          }
        };
    c.run(r, stop);
    assertThat(r.acquired).isEqualTo(2);
    assertThat(events.seen).contains("surrendered:demoted");
    assertThat(k.stored().getSpec().getLeaseTransitions()).isEqualTo(2);
    assertThat(k.stored().getSpec().getHolderIdentity()).isEqualTo("me");
  }

  @Test
  @DisplayName(
      "HA-12/HA-14: a 409 storm — 8 replicas race for the same Lease, 12 rounds: exactly one"
          + " wins each round, the others get 409 or see the winner; epochs strictly increase, one"
          + " replica per epoch")
  void conflictStorm() throws Exception {
    TimeSource shared = ft.timeSource(); // thread-safe fake time
    List<K8sLeaseProtocol> replicas = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      replicas.add(
          new K8sLeaseProtocol(k.leaseClient(), settings("r" + i), binding, shared, events));
    }
    Map<Long, String> holderOfEpoch = new HashMap<>();
    try (ExecutorService pool = Executors.newFixedThreadPool(replicas.size())) {
      for (int round = 1; round <= 12; round++) {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<Won>> tries = new ArrayList<>();
        for (K8sLeaseProtocol r : replicas) {
          tries.add(
              pool.submit(
                  () -> {
                    go.await();
                    return r.acquire(new StopSignal());
                  }));
        }
        go.countDown();
        List<Integer> winners = new ArrayList<>();
        Won won = null;
        for (int i = 0; i < tries.size(); i++) {
          Won w = tries.get(i).get();
          if (w != null) {
            winners.add(i);
            won = w;
          }
        }
        assertThat(winners).as("round %d winners", round).hasSize(1);
        String winner = "r" + winners.getFirst();
        assertThat(won.epoch()).isEqualTo(round);
        assertThat(holderOfEpoch.put(won.epoch(), winner)).isNull();
        assertThat(k.stored().getSpec().getHolderIdentity()).isEqualTo(winner);
        assertThat(k.stored().getSpec().getLeaseTransitions()).isEqualTo(round);
        replicas.get(winners.getFirst()).release(won.epoch()); // claimable at once for the next
      }
    }
    assertThat(events.seen).contains("error:write"); // the 409s were real
  }

  /** Records the HA-1 callbacks and the fake ticker at each loss. */
  private final class Recorder implements Coordinator.Leadership {
    int acquired;
    int lost;
    long lostAtNanos;
    Runnable onAcquire = () -> {};

    @Override
    public void onAcquire() {
      acquired++;
      onAcquire.run();
    }

    @Override
    public void onLose() {
      lost++;
      lostAtNanos = ft.nanoTime();
    }
  }
}
