package io.sf2loki.state.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.core.spi.Coordinator;
import io.sf2loki.core.spi.StateFenceException;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.state.Fencing;
import io.sf2loki.state.file.FileCheckpointStore;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HA-26: a term start stamps the store's {@code __fence_epoch__} before the term loads checkpoints,
 * so a deleted lease file cannot hand a new leader an epoch at or below the old holder's.
 */
class LeaseTermStampTest {
  private static final Instant T0 = Instant.parse("2026-12-02T07:00:00Z");

  @TempDir Path dir;

  @Test
  @DisplayName(
      "HA-26/STATE-7: the store holds the term's epoch before onAcquire; after the lease is deleted the"
          + " next epoch exceeds it and the old holder's commit is fenced")
  void termStartStampsFenceEpoch() throws Exception {
    FakeTime ft = new FakeTime(T0);
    TimeSource time = new TimeSource(ft.wall(), ft.ticker(), ft.sleeper());
    MemoryLeaseStorage storage = new MemoryLeaseStorage();
    // an expired foreign lease at epoch 4: this replica takes epoch 5
    storage.putRaw(new String(new LeaseDocument("old", T0.minusSeconds(1), 4).serialise()));
    FileCheckpointStore store =
        new FileCheckpointStore(dir.resolve("state.json"), FileCheckpointStore.LockMode.TERM);
    LeaseCoordinator c =
        new LeaseCoordinator(
            "file_lease",
            storage,
            new LeaseSettings(
                "me", Duration.ofSeconds(6), Duration.ofSeconds(2), Duration.ofSeconds(5)),
            LeaseStoreBinding.of(store, time),
            time,
            new LeaseEvents() {
              @Override
              public void error(String operation) {}

              @Override
              public void surrendered(String reason) {}
            });
    StopSignal stop = new StopSignal();
    AtomicLong fenceAtAcquire = new AtomicLong(-1);
    c.run(
        new Coordinator.Leadership() {
          @Override
          public void onAcquire() {
            fenceAtAcquire.set(store.freshFenceEpoch()); // what the term would load against
            stop.stop();
          }

          @Override
          public void onLose() {}
        },
        stop);
    assertThat(c.epoch()).isEqualTo(5);
    assertThat(fenceAtAcquire.get()).isEqualTo(5); // stamped before any commit of the term
    // The lease is deleted while held: a new replica reads no lease, so its epoch comes from the
    // store alone (HA-8) and must exceed the stamped 5.
    storage.delete();
    long next = Math.max(0, store.freshFenceEpoch()) + 1;
    assertThat(next).isGreaterThan(c.epoch());
    // The new replica stamps its epoch at term start; the old holder (epoch 5) is then fenced.
    store.fencing(new Fencing(() -> {}, () -> next));
    store.commitMany(Map.of(), Set.of());
    store.fencing(new Fencing(() -> {}, () -> 5));
    assertThatThrownBy(() -> store.commitMany(Map.of("lane", "41"), Set.of()))
        .isInstanceOf(StateFenceException.class);
    assertThat(store.snapshot()).doesNotContainKey("lane");
    c.close();
    store.close();
  }
}
