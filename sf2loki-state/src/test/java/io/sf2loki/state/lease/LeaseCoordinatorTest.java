package io.sf2loki.state.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.core.spi.Coordinator;
import io.sf2loki.core.spi.StateConflictException;
import io.sf2loki.core.spi.StateFenceException;
import io.sf2loki.core.spi.StateLockException;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.Sleeper;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The lease rules with injected wall clock, ticker and sleeper: every branch in milliseconds. */
class LeaseCoordinatorTest {
  private static final Instant T0 = Instant.parse("2026-12-02T07:00:00Z");
  private static final Duration TTL = Duration.ofSeconds(6);
  private static final Duration RENEW = Duration.ofSeconds(2);
  private static final Duration VERIFY = Duration.ofMillis(200);

  private FakeTime ft;
  private MemoryLeaseStorage storage;
  private MemoryLeaseStorage.Binding binding;
  private final List<String> events = new ArrayList<>();
  private final List<Duration> sleeps = new ArrayList<>();
  private IntConsumer afterSleep = n -> {};
  private LeaseCoordinator c;
  private final StopSignal stop = new StopSignal();

  @BeforeEach
  void setUp() {
    ft = new FakeTime(T0);
    storage = new MemoryLeaseStorage();
    binding = new MemoryLeaseStorage.Binding();
    Sleeper base = ft.sleeper();
    Sleeper scripted =
        (d, s) -> {
          boolean full = base.sleep(d, s);
          sleeps.add(d);
          afterSleep.accept(sleeps.size());
          return full && !s.isStopped();
        };
    LeaseEvents ev =
        new LeaseEvents() {
          @Override
          public void error(String operation) {
            events.add("error:" + operation);
          }

          @Override
          public void surrendered(String reason) {
            events.add("surrendered:" + reason);
          }
        };
    c =
        new LeaseCoordinator(
            "file_lease",
            storage,
            new LeaseSettings("me", TTL, RENEW, Duration.ofSeconds(5)),
            binding,
            new TimeSource(ft.wall(), ft.ticker(), scripted),
            ev);
  }

  private void foreign(String holder, Instant expires, long epoch) {
    storage.putRaw(new String(new LeaseDocument(holder, expires, epoch).serialise()));
  }

  @Test
  @DisplayName(
      "HA-10/HA-8: an absent lease is written with epoch 1, verified after the verify delay, and won")
  void acquireAbsent() throws Exception {
    assertThat(c.acquire(stop)).isTrue();
    assertThat(c.epoch()).isEqualTo(1);
    assertThat(sleeps).containsExactly(VERIFY);
    assertThat(storage.written()).containsExactly(new LeaseDocument("me", T0.plus(TTL), 1));
    assertThat(c.leading()).isTrue();
  }

  @Test
  @DisplayName("HA-8: the epoch is max(lease epoch, store __fence_epoch__) + 1")
  void epochFloor() throws Exception {
    foreign("old", T0.minusSeconds(1), 4);
    binding.fenceEpoch = 9;
    assertThat(c.acquire(stop)).isTrue();
    assertThat(c.epoch()).isEqualTo(10);
    setUp();
    foreign("old", T0.minusSeconds(1), 12);
    binding.fenceEpoch = 9;
    assertThat(c.acquire(stop)).isTrue();
    assertThat(c.epoch()).isEqualTo(13);
  }

  @Test
  @DisplayName(
      "HA-8/HA-9: a corrupt lease is absent and never fences the new leader out (store epoch + 1)")
  void corruptLeaseUsesStoreEpoch() throws Exception {
    storage.putRaw("{not json");
    binding.fenceEpoch = 5;
    assertThat(c.acquire(stop)).isTrue();
    assertThat(c.epoch()).isEqualTo(6);
  }

  @Test
  @DisplayName(
      "HA-8/OBS-16: the store cannot be read → no acquisition, error store_read, retry after renew_interval")
  void storeUnreadableDoesNotAcquire() throws Exception {
    binding.failStoreReads = true;
    assertThat(c.acquire(stop)).isFalse();
    assertThat(storage.written()).isEmpty();
    assertThat(sleeps).containsExactly(RENEW);
    assertThat(events).containsExactly("error:store_read");
  }

  @Test
  @DisplayName("HA-10: an unreadable lease is never contested: no write, wait renew_interval")
  void unreadableNotContested() throws Exception {
    storage.failReads(1);
    assertThat(c.acquire(stop)).isFalse();
    assertThat(storage.written()).isEmpty();
    assertThat(sleeps).containsExactly(RENEW);
    assertThat(events).containsExactly("error:read");
  }

  @Test
  @DisplayName(
      "HA-10: a live foreign holder → wait renew_interval; once expired (now ≥ expires_at) it is taken over")
  void liveForeignThenExpired() throws Exception {
    foreign("other", T0.plusSeconds(2), 3);
    assertThat(c.acquire(stop)).isFalse();
    assertThat(sleeps).containsExactly(RENEW);
    assertThat(storage.written()).isEmpty();
    // FakeTime advanced by the 2 s wait: now == expires_at → expired
    assertThat(c.acquire(stop)).isTrue();
    assertThat(c.epoch()).isEqualTo(4);
  }

  @Test
  @DisplayName(
      "HA-10: another replica overwriting during the verify delay → lost race, wait the verify delay")
  void lostRaceOnVerify() throws Exception {
    storage.afterWrite(
        s -> s.putRaw(new String(new LeaseDocument("rival", T0.plus(TTL), 1).serialise())));
    assertThat(c.acquire(stop)).isFalse();
    assertThat(sleeps).containsExactly(VERIFY, VERIFY);
    assertThat(c.leading()).isFalse();
  }

  @Test
  @DisplayName(
      "HA-16: a refused conditional acquisition write → lost race (no blind retry), wait the verify delay")
  void conflictOnAcquire() throws Exception {
    storage.conflictNextWrite();
    assertThat(c.acquire(stop)).isFalse();
    assertThat(sleeps).containsExactly(VERIFY);
    assertThat(events).containsExactly("error:write");
  }

  @Test
  @DisplayName("HA-10: a failed acquisition write → wait renew_interval, counted")
  void writeFailureOnAcquire() throws Exception {
    storage.failWrites(1);
    assertThat(c.acquire(stop)).isFalse();
    assertThat(sleeps).containsExactly(RENEW);
    assertThat(events).containsExactly("error:write");
  }

  @Test
  @DisplayName(
      "HA-11: a confirmed lease is rewritten with the same epoch and expires_at = now + ttl")
  void renewConfirmed() throws Exception {
    assertThat(c.acquire(stop)).isTrue();
    ft.advance(RENEW);
    assertThat(c.renewOnce(stop)).isNull();
    assertThat(storage.current()).isEqualTo(new LeaseDocument("me", ft.now().plus(TTL), 1));
  }

  @Test
  @DisplayName("HA-11: a foreign holder surrenders")
  void renewForeign() throws Exception {
    assertThat(c.acquire(stop)).isTrue();
    foreign("other", T0.plusSeconds(60), 2);
    assertThat(c.renewOnce(stop)).isEqualTo(LeaseCoordinator.Surrender.FOREIGN_HOLDER);
  }

  @Test
  @DisplayName(
      "HA-11: absent → wait the verify delay and re-read; own → renew; still absent → skip, never write")
  void renewAbsent() throws Exception {
    assertThat(c.acquire(stop)).isTrue();
    int before = storage.written().size();
    storage.delete();
    assertThat(c.renewOnce(stop)).isNull();
    assertThat(storage.written()).hasSize(before);
    assertThat(sleeps.getLast()).isEqualTo(VERIFY);
    // unreadable then own: renews
    storage.delete();
    storage.afterWrite(s -> {});
    sleeps.clear();
    afterSleep =
        n -> storage.putRaw(new String(new LeaseDocument("me", T0.plus(TTL), 1).serialise()));
    assertThat(c.renewOnce(stop)).isNull();
    assertThat(storage.written()).hasSize(before + 1);
  }

  @Test
  @DisplayName("HA-11: unreadable → verify delay → foreign → surrender")
  void renewUnreadableThenForeign() throws Exception {
    assertThat(c.acquire(stop)).isTrue();
    storage.failReads(1);
    afterSleep = n -> foreign("other", T0.plusSeconds(60), 2);
    assertThat(c.renewOnce(stop)).isEqualTo(LeaseCoordinator.Surrender.FOREIGN_HOLDER);
  }

  @Test
  @DisplayName("HA-16: a refused conditional renewal surrenders")
  void renewConflict() throws Exception {
    assertThat(c.acquire(stop)).isTrue();
    storage.conflictNextWrite();
    assertThat(c.renewOnce(stop)).isEqualTo(LeaseCoordinator.Surrender.CONFLICT);
  }

  @Test
  @DisplayName(
      "HA-11/HA-7: failing renewals are tolerated until ttl − renew_interval, then surrender; the store's leadership check fences from then on")
  void renewDeadline() throws Exception {
    Recorder r = new Recorder();
    storage.afterWrite(
        s -> {
          if (s.written().size() == 1) {
            s.failWrites(100); // every renewal fails
          }
        });
    afterSleep =
        n -> {
          if (r.lost > 0) {
            stop.stop();
          }
        };
    c.run(r, stop);
    assertThat(r.acquired).isEqualTo(1);
    assertThat(r.lost).isEqualTo(1);
    // the deadline runs from the ticker reading taken before the acquiring write
    assertThat(r.lostAtNanos).isEqualTo(TTL.minus(RENEW).toNanos());
    assertThat(events).contains("surrendered:renew_deadline");
    assertThat(c.leading()).isFalse();
    assertThatThrownBy(() -> binding.fencing.leadershipCheck().run())
        .isInstanceOf(StateFenceException.class);
    assertThat(binding.termsEnded).isEqualTo(1);
  }

  @Test
  @DisplayName(
      "HA-7/HA-18: while held the store's fencing passes and carries the epoch; past the renew deadline it fences")
  void fencingInstalled() throws Exception {
    Recorder r = new Recorder();
    afterSleep =
        n -> {
          if (r.acquired == 1) {
            binding.fencing.leadershipCheck().run();
            assertThat(binding.fencing.epoch().getAsLong()).isEqualTo(1);
            stop.stop();
          }
        };
    c.run(r, stop);
    assertThat(r.acquired).isEqualTo(1);
    assertThat(r.lost).isZero(); // stop while leading: no onLose, the caller drains
    ft.advance(TTL);
    assertThatThrownBy(() -> binding.fencing.leadershipCheck().run())
        .isInstanceOf(StateFenceException.class);
  }

  @Test
  @DisplayName(
      "HA-11: renewals every renew_interval keep the lease; clean shutdown releases it (expires_at = now)")
  void holdRenewsAndReleases() throws Exception {
    Recorder r = new Recorder();
    afterSleep =
        n -> {
          if (storage.written().size() == 4) {
            stop.stop();
          }
        };
    c.run(r, stop);
    List<LeaseDocument> w = storage.written();
    assertThat(w).extracting(LeaseDocument::epoch).containsOnly(1L);
    assertThat(w.get(1).expiresAt()).isEqualTo(w.get(0).expiresAt().plus(RENEW));
    assertThat(w.get(2).expiresAt()).isEqualTo(w.get(1).expiresAt().plus(RENEW));
    c.close();
    assertThat(storage.current()).isEqualTo(new LeaseDocument("me", ft.now(), 1));
    assertThat(binding.termsEnded).isEqualTo(1);
  }

  @Test
  @DisplayName(
      "HA-5: demote() from the term ends the term, releases the lease and re-acquires with a higher epoch")
  void demoteReleasesAndReacquires() throws Exception {
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
    assertThat(r.lost).isEqualTo(1);
    assertThat(events).contains("surrendered:demoted");
    assertThat(storage.written())
        .extracting(LeaseDocument::epoch)
        .containsSubsequence(1L, 1L, 2L); // acquire, release (expires now), re-acquire
    assertThat(storage.written().get(1).expiresAt())
        .isEqualTo(storage.written().get(0).expiresAt().minus(TTL).plus(VERIFY));
    assertThat(c.demote()).isTrue(); // still in term 2
  }

  @Test
  @DisplayName(
      "HA-28: relinquish() ends the term as on loss, releases the lease (reason rebalance) and"
          + " re-enters acquisition")
  void ha28_relinquishReleases() throws Exception {
    Recorder r = new Recorder();
    r.onAcquire =
        () -> {
          if (r.acquired == 1) {
            assertThat(c.relinquish()).isTrue();
            assertThat(c.leading()).isFalse(); // fencing fails at once (HA-7)
          } else {
            stop.stop();
          }
        };
    c.run(r, stop);
    assertThat(r.acquired).isEqualTo(2);
    assertThat(r.lost).isEqualTo(1);
    assertThat(events).contains("surrendered:rebalance");
    assertThat(storage.written())
        .extracting(LeaseDocument::epoch)
        .containsSubsequence(1L, 1L, 2L); // acquire, release (expires now), re-acquire
    assertThat(c.relinquish()).isTrue(); // in term 2
    setUp();
    assertThat(c.relinquish()).isFalse(); // no term
  }

  @Test
  @DisplayName("HA-5: demotion is for fence, conflict and lock failures only")
  void demotable() {
    assertThat(LeaseCoordinator.demotable(new StateFenceException("f"))).isTrue();
    assertThat(LeaseCoordinator.demotable(new StateConflictException("c"))).isTrue();
    assertThat(LeaseCoordinator.demotable(new StateLockException("l", null))).isTrue();
    assertThat(LeaseCoordinator.demotable(new io.sf2loki.core.spi.StateException("io"))).isFalse();
    assertThat(c.demote()).isFalse(); // not leading
  }

  @Test
  @DisplayName(
      "STATE-5/HA-7: a term lock still held after lock_wait surrenders the lease (released) and retries")
  void lockWaitExpires() throws Exception {
    LeaseCoordinator locked =
        new LeaseCoordinator(
            "file_lease",
            storage,
            new LeaseSettings("me", TTL, RENEW, Duration.ofSeconds(3)),
            new MemoryLeaseStorage.Binding() {
              @Override
              public boolean beginTerm(Duration maxWait, StopSignal s) {
                ft.advance(maxWait);
                throw new StateLockException("held elsewhere", null);
              }
            },
            new TimeSource(ft.wall(), ft.ticker(), ft.sleeper()),
            new LeaseEvents() {
              @Override
              public void error(String operation) {}

              @Override
              public void surrendered(String reason) {
                events.add("surrendered:" + reason);
                stop.stop();
              }
            });
    Recorder r = new Recorder();
    locked.run(r, stop);
    assertThat(r.acquired).isZero();
    assertThat(events).containsExactly("surrendered:lock");
    assertThat(storage.current().expiresAt())
        .isEqualTo(T0.plusMillis(3200)); // released at lock_wait's end
  }

  @Test
  @DisplayName("HA-26: the term's epoch is in the store before the term starts (onAcquire)")
  void epochClaimedBeforeTerm() throws Exception {
    binding.fenceEpoch = 3;
    Recorder r = new Recorder();
    long[] seen = new long[1];
    r.onAcquire =
        () -> {
          seen[0] = binding.fenceEpoch;
          stop.stop();
        };
    c.run(r, stop);
    assertThat(r.acquired).isEqualTo(1);
    assertThat(c.epoch()).isEqualTo(4);
    assertThat(seen[0]).isEqualTo(4);
  }

  @Test
  @DisplayName(
      "HA-26/OBS-17: a store fenced at a greater epoch when the term claims it → conflict surrender, lease released, no term")
  void fencedClaimSurrenders() throws Exception {
    binding.claimFailure = new StateFenceException("fenced at 9");
    Recorder r = new Recorder();
    afterSleep =
        n -> {
          if (events.contains("surrendered:conflict")) {
            stop.stop();
          }
        };
    c.run(r, stop);
    assertThat(r.acquired).isZero();
    assertThat(events).contains("surrendered:conflict");
    assertThat(storage.current().expiresAt()).isBeforeOrEqualTo(ft.now()); // released
    assertThat(binding.termsEnded).isEqualTo(binding.termsBegun);
  }

  @Test
  @DisplayName(
      "HA-26/OBS-16: an unwritable store when the term claims it → error store_write, lease released, no term")
  void unwritableClaimReleases() throws Exception {
    binding.claimFailure = new io.sf2loki.core.spi.StateException("disk full");
    Recorder r = new Recorder();
    afterSleep =
        n -> {
          if (events.contains("error:store_write")) {
            stop.stop();
          }
        };
    c.run(r, stop);
    assertThat(r.acquired).isZero();
    assertThat(events).contains("error:store_write");
    assertThat(storage.current().expiresAt()).isBeforeOrEqualTo(ft.now());
    assertThat(c.leading()).isFalse();
  }

  @Test
  @DisplayName(
      "HA-26/STATE-16: a term lock that cannot be opened (read-only or full state disk) when the"
          + " term begins → error store_write, lease released, no term, no crash (found by the"
          + " FEAT-22 chaos suite)")
  void unopenableTermLockReleases() throws Exception {
    binding.beginFailure =
        new io.sf2loki.core.spi.StateException(
            "cannot open state lock /s/state.json.lock: Read-only file system");
    Recorder r = new Recorder();
    afterSleep =
        n -> {
          if (events.contains("error:store_write")) {
            stop.stop();
          }
        };
    c.run(r, stop);
    assertThat(r.acquired).isZero();
    assertThat(events).contains("error:store_write");
    assertThat(storage.current().expiresAt()).isBeforeOrEqualTo(ft.now());
    assertThat(c.leading()).isFalse();
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
