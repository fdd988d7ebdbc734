package io.sf2loki.state.lease;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.core.spi.StateException;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.state.CheckpointDocument;
import io.sf2loki.state.file.FileCheckpointStore;
import io.sf2loki.state.object.ObjectBackend;
import io.sf2loki.state.object.ObjectCheckpointStore;
import io.sf2loki.state.object.PreconditionFailedException;
import io.sf2loki.state.object.StoreRetry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * HA-26 with real stores: the lease is deleted while its holder has not committed yet; the next
 * leader must get a greater epoch, and the old holder's late commit must be refused.
 */
class EpochClaimTest {
  private static final Instant T0 = Instant.parse("2026-12-02T07:00:00Z");
  private final FakeTime ft = new FakeTime(T0);
  private final TimeSource time = new TimeSource(ft.wall(), ft.ticker(), ft.sleeper());
  private final StopSignal stop = new StopSignal();
  private final MemoryLeaseStorage lease = new MemoryLeaseStorage();

  private LeaseCoordinator coordinator(String id, LeaseStoreBinding binding) {
    LeaseCoordinator c =
        new LeaseCoordinator(
            "s3_lease",
            lease,
            new LeaseSettings(
                id, Duration.ofSeconds(6), Duration.ofSeconds(2), Duration.ofSeconds(5)),
            binding,
            time,
            LeaseEvents.none());
    binding.install(new io.sf2loki.state.Fencing(() -> {}, c::epoch));
    return c;
  }

  @Test
  @DisplayName(
      "HA-26/STATE-7: object store — a deleted lease never yields a second leader in the same epoch; the old holder's late commit is refused")
  void objectStore() throws Exception {
    MemoryBackend backend = new MemoryBackend();
    ObjectCheckpointStore storeA =
        new ObjectCheckpointStore(backend, StoreRetry.standard(ft.sleeper(), stop));
    ObjectCheckpointStore storeB =
        new ObjectCheckpointStore(backend, StoreRetry.standard(ft.sleeper(), stop));
    LeaseCoordinator a = coordinator("a", LeaseStoreBinding.of(storeA, time));
    LeaseCoordinator b = coordinator("b", LeaseStoreBinding.of(storeB, time));

    assertThat(a.acquire(stop) && a.beginTerm(stop)).isTrue();
    assertThat(storeA.load("seq")).isEmpty(); // A's term loaded; nothing committed yet
    lease.delete();
    assertThat(b.acquire(stop) && b.beginTerm(stop)).isTrue();

    assertThat(b.epoch()).isGreaterThan(a.epoch());
    assertThatThrownBy(() -> storeA.commitMany(Map.of("seq", "10"), Set.of()))
        .isInstanceOf(StateException.class);
    storeB.commitMany(Map.of("seq", "5"), Set.of());
    @SuppressWarnings("unchecked")
    Map<String, String> stored =
        new com.fasterxml.jackson.databind.ObjectMapper().readValue(backend.body, Map.class);
    assertThat(stored).containsEntry("seq", "5");
    assertThat(stored).containsEntry(CheckpointDocument.FENCE_EPOCH_KEY, Long.toString(b.epoch()));
  }

  @Test
  @DisplayName(
      "HA-26/STATE-7: file store — the term's epoch is on disk before the term loads, so the next leader's epoch is greater")
  void fileStore(@TempDir Path dir) throws Exception {
    Path state = dir.resolve("state.json");
    FileCheckpointStore storeA = new FileCheckpointStore(state, FileCheckpointStore.LockMode.TERM);
    LeaseCoordinator a = coordinator("a", LeaseStoreBinding.of(storeA, time));
    assertThat(a.acquire(stop) && a.beginTerm(stop)).isTrue();
    assertThat(Files.readString(state, StandardCharsets.UTF_8))
        .contains("\"" + CheckpointDocument.FENCE_EPOCH_KEY + "\"")
        .contains("\"" + a.epoch() + "\"");
    lease.delete();
    FileCheckpointStore storeB = new FileCheckpointStore(state, FileCheckpointStore.LockMode.TERM);
    LeaseCoordinator b = coordinator("b", LeaseStoreBinding.of(storeB, time));
    assertThat(b.acquire(stop)).isTrue();
    assertThat(b.epoch()).isGreaterThan(a.epoch());
    storeA.close();
    storeB.close();
  }

  @Test
  @DisplayName(
      "HA-26 (corrected): file store — a second replica claiming the epoch already claimed (both"
          + " computed it after a lost HA-10 race) is fenced; the store keeps the first claim")
  void ha26_fileStoreRefusesAnEpochAlreadyClaimed(@TempDir Path dir) throws Exception {
    Path state = dir.resolve("state.json");
    FileCheckpointStore first = new FileCheckpointStore(state, FileCheckpointStore.LockMode.TERM);
    first.fencing(new io.sf2loki.state.Fencing(() -> {}, () -> 1));
    assertThat(first.lockAwait(Duration.ZERO, Duration.ZERO, stop, ft.ticker(), ft.sleeper()))
        .isTrue();
    first.claimEpoch();
    first.unlock();
    FileCheckpointStore second = new FileCheckpointStore(state, FileCheckpointStore.LockMode.TERM);
    second.fencing(new io.sf2loki.state.Fencing(() -> {}, () -> 1));
    assertThat(second.lockAwait(Duration.ZERO, Duration.ZERO, stop, ft.ticker(), ft.sleeper()))
        .isTrue();

    assertThatThrownBy(second::claimEpoch)
        .isInstanceOf(io.sf2loki.core.spi.StateFenceException.class)
        .hasMessageContaining("epoch 1");
    assertThat(second.freshFenceEpoch()).isEqualTo(1);
    first.close();
    second.close();
  }

  @Test
  @DisplayName(
      "HA-26 (corrected): object store — a second claim of an epoch already claimed is fenced")
  void ha26_objectStoreRefusesAnEpochAlreadyClaimed() {
    MemoryBackend backend = new MemoryBackend();
    ObjectCheckpointStore first =
        new ObjectCheckpointStore(backend, StoreRetry.standard(ft.sleeper(), stop));
    first.fencing(new io.sf2loki.state.Fencing(() -> {}, () -> 3));
    first.claimEpoch();
    ObjectCheckpointStore second =
        new ObjectCheckpointStore(backend, StoreRetry.standard(ft.sleeper(), stop));
    second.fencing(new io.sf2loki.state.Fencing(() -> {}, () -> 3));

    assertThatThrownBy(second::claimEpoch)
        .isInstanceOf(io.sf2loki.core.spi.StateFenceException.class)
        .hasMessageContaining("epoch 3");
    assertThat(backend.version).isEqualTo(1);
  }

  /** An object back end with S3's conditional-write semantics (If-Match / If-None-Match: *). */
  static final class MemoryBackend implements ObjectBackend {
    byte[] body;
    int version;

    @Override
    public synchronized Optional<Stored> read() {
      return body == null ? Optional.empty() : Optional.of(new Stored(body, "v" + version));
    }

    @Override
    public synchronized String write(byte[] b, String expectedVersion) {
      boolean matches =
          expectedVersion == null ? body == null : ("v" + version).equals(expectedVersion);
      if (!matches) {
        throw new PreconditionFailedException("memory: precondition failed", 412);
      }
      body = b.clone();
      return "v" + ++version;
    }

    @Override
    public synchronized void delete(String expectedVersion) {
      body = null;
    }

    @Override
    public String describe() {
      return "memory://state.json";
    }

    @Override
    public void close() {}
  }
}
