package io.sf2loki.state.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.core.spi.StateCorruptException;
import io.sf2loki.core.spi.StateException;
import io.sf2loki.core.spi.StateFenceException;
import io.sf2loki.core.spi.StateLockException;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.state.Fencing;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class FileCheckpointStoreTest {
  @TempDir Path dir;

  private Path state() {
    return dir.resolve("state.json");
  }

  private static String read(Path p) throws IOException {
    return Files.readString(p, StandardCharsets.UTF_8);
  }

  @Test
  @DisplayName("STATE-3: a missing file is an empty document and loading does not create it")
  void missingFileIsEmpty() {
    try (var store = new FileCheckpointStore(state())) {
      assertThat(store.load("pubsub:/event/LoginEventStream")).isEmpty();
      assertThat(store.snapshot()).isEmpty();
    }
    assertThat(state()).doesNotExist();
  }

  @Test
  @DisplayName("STATE-1/STATE-4: commitMany writes one flat compact JSON object, verbatim values")
  void commitWritesCompactJson() throws IOException {
    String elf =
        "{\"ids\": [[\"0AT1\", \"2024-05-01T10:00:00.000+0000\"]], \"last_created\": \"x\"}";
    try (var store = new FileCheckpointStore(state())) {
      Map<String, String> values = new LinkedHashMap<>();
      values.put("pubsub:/event/LoginEventStream", "AAAAAAAAAAE=");
      values.put("eventlogfile:Login", elf);
      store.commitMany(values, Set.of());
      assertThat(store.load("eventlogfile:Login")).contains(elf);
    }
    assertThat(read(state()))
        .isEqualTo(
            "{\"pubsub:/event/LoginEventStream\":\"AAAAAAAAAAE=\",\"eventlogfile:Login\":"
                + "\"{\\\"ids\\\": [[\\\"0AT1\\\", \\\"2024-05-01T10:00:00.000+0000\\\"]],"
                + " \\\"last_created\\\": \\\"x\\\"}\"}");
    try (var again = new FileCheckpointStore(state())) {
      assertThat(again.load("eventlogfile:Login")).contains(elf);
    }
  }

  @Test
  @DisplayName("STATE-4: parent directories are created and no temporary file is left behind")
  void atomicReplaceLeavesNoTempFiles() throws IOException {
    Path nested = dir.resolve("a/b/state.json");
    try (var store = new FileCheckpointStore(nested)) {
      store.commitMany(Map.of("k1", "v1"), Set.of());
      store.commitMany(Map.of("k2", "v2"), Set.of());
      store.delete("k1");
    }
    try (Stream<Path> files = Files.list(nested.getParent())) {
      assertThat(files.map(p -> p.getFileName().toString()))
          .containsExactlyInAnyOrder("state.json", "state.json.lock");
    }
    assertThat(read(nested)).isEqualTo("{\"k2\":\"v2\"}");
  }

  @Test
  @DisplayName(
      "STATE-17: temporary files of the document an earlier writer left behind (killed mid-write,"
          + " or its clean-up failed on a disk turned read-only) are removed when the lock is"
          + " taken; other files stay, and a lock-free reader removes nothing")
  void state17_staleTemporaryFilesAreRemovedWhenTheLockIsTaken() throws IOException {
    Path partial = dir.resolve(".state.json.8116409234870321.tmp");
    Files.writeString(partial, "{\"eventlogfile:Login\":\"trunc");
    Files.writeString(dir.resolve(".state.json.lease.42.tmp"), "another file's temporary");
    Files.writeString(dir.resolve(".state.json.tmp"), "not the temporary-file pattern");
    try (var reader = new FileCheckpointStore(state(), FileCheckpointStore.LockMode.NONE)) {
      assertThat(reader.snapshot()).isEmpty();
    }
    assertThat(partial).exists();

    try (var store = new FileCheckpointStore(state())) {
      store.lock();
      try (Stream<Path> files = Files.list(dir)) {
        assertThat(files.map(p -> p.getFileName().toString()))
            .containsExactlyInAnyOrder(
                "state.json.lock", ".state.json.lease.42.tmp", ".state.json.tmp");
      }
    }
  }

  @ParameterizedTest(name = "STATE-3: corrupt content {0}")
  @ValueSource(
      strings = {
        "",
        "not json",
        "[1,2]",
        "\"str\"",
        "{\"a\": 1}",
        "{\"a\": null}",
        "{\"a\":\"b\"} x"
      })
  void corruptFileFailsAndIsNeverOverwritten(String content) throws IOException {
    Files.writeString(state(), content);
    byte[] before = Files.readAllBytes(state());
    try (var store = new FileCheckpointStore(state())) {
      assertThatThrownBy(() -> store.load("k"))
          .isInstanceOf(StateCorruptException.class)
          .hasMessageContaining(state().toString())
          .hasMessageContaining("move it aside");
      assertThatThrownBy(() -> store.commitMany(Map.of("k", "v"), Set.of()))
          .isInstanceOf(StateCorruptException.class);
    }
    assertThat(Files.readAllBytes(state())).isEqualTo(before);
  }

  @Test
  @DisplayName("STATE-3: invalid UTF-8 is corrupt and the bytes stay unchanged")
  void invalidUtf8IsCorrupt() throws IOException {
    byte[] bytes = {'{', '"', 'a', '"', ':', '"', (byte) 0xC3, (byte) 0x28, '"', '}'};
    Files.write(state(), bytes);
    try (var store = new FileCheckpointStore(state())) {
      assertThatThrownBy(() -> store.snapshot())
          .isInstanceOf(StateCorruptException.class)
          .hasMessageContaining("UTF-8");
      assertThatThrownBy(() -> store.delete("a")).isInstanceOf(StateCorruptException.class);
    }
    assertThat(Files.readAllBytes(state())).isEqualTo(bytes);
  }

  @Test
  @DisplayName("STATE-1: load is served from the cache until reset (STATE-2)")
  void loadIsCachedUntilReset() throws IOException {
    Files.writeString(state(), "{\"k\":\"v1\"}");
    try (var store = new FileCheckpointStore(state())) {
      assertThat(store.load("k")).contains("v1");
      Files.writeString(state(), "{\"k\":\"v2\"}");
      assertThat(store.load("k")).contains("v1");
      store.reset();
      assertThat(store.load("k")).contains("v2");
    }
  }

  @Test
  @DisplayName("STATE-6: an external edit to another key survives a commit")
  void externalEditSurvivesCommit() throws IOException {
    try (var store = new FileCheckpointStore(state())) {
      store.commitMany(Map.of("a", "1"), Set.of());
      // same size and possibly same mtime: only the digest can tell
      Files.writeString(state(), "{\"a\":\"1\",\"b\":\"9\"}");
      store.commitMany(Map.of("c", "3"), Set.of());
      assertThat(store.snapshot()).isEqualTo(Map.of("a", "1", "b", "9", "c", "3"));
    }
    assertThat(read(state())).isEqualTo("{\"a\":\"1\",\"b\":\"9\",\"c\":\"3\"}");
  }

  @Test
  @DisplayName("STATE-6: a same-size external edit (digest only) is detected")
  void sameSizeExternalEditDetected() throws IOException {
    try (var store = new FileCheckpointStore(state())) {
      store.commitMany(Map.of("a", "1", "b", "2"), Set.of());
      var mtime = Files.getLastModifiedTime(state());
      Files.writeString(state(), read(state()).replace("\"2\"", "\"7\""));
      Files.setLastModifiedTime(state(), mtime);
      store.commitMany(Map.of("a", "5"), Set.of());
      assertThat(store.load("b")).contains("7");
    }
  }

  @Test
  @DisplayName("STATE-2: delete of a missing key causes no write; delete removes a present key")
  void deleteMissingKeyNoWrite() throws IOException {
    try (var store = new FileCheckpointStore(state())) {
      store.delete("nope");
      assertThat(state()).doesNotExist();
      store.commitMany(Map.of("a", "1", "b", "2"), Set.of());
      var mtime = Files.getLastModifiedTime(state());
      Files.setLastModifiedTime(state(), java.nio.file.attribute.FileTime.fromMillis(1000));
      store.delete("nope");
      assertThat(Files.getLastModifiedTime(state()).toMillis()).isEqualTo(1000);
      store.delete("a");
      assertThat(read(state())).isEqualTo("{\"b\":\"2\"}");
      assertThat(mtime).isNotNull();
    }
  }

  @Test
  @DisplayName("STATE-2: commitMany sets and removes keys in one write")
  void commitManySetsAndRemoves() throws IOException {
    try (var store = new FileCheckpointStore(state())) {
      store.commitMany(Map.of("org=a:x", "1", "x", "2"), Set.of());
      store.commitMany(Map.of("org=a:y", "3"), Set.of("x"));
      assertThat(store.snapshot()).isEqualTo(Map.of("org=a:x", "1", "org=a:y", "3"));
    }
  }

  @Test
  @DisplayName(
      "STATE-7/STATE-12: __fence_epoch__ is hidden and preserved untouched without supplier")
  void fenceEpochHiddenAndPreserved() throws IOException {
    Files.writeString(state(), "{\"__fence_epoch__\":\"7\",\"k\":\"v\"}");
    try (var store = new FileCheckpointStore(state())) {
      assertThat(store.load("__fence_epoch__")).isEqualTo(Optional.empty());
      assertThat(store.snapshot()).containsOnlyKeys("k");
      store.commitMany(Map.of("k", "w"), Set.of());
      assertThatThrownBy(() -> store.commitMany(Map.of("__fence_epoch__", "9"), Set.of()))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(() -> store.delete("__fence_epoch__"))
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThat(read(state())).isEqualTo("{\"__fence_epoch__\":\"7\",\"k\":\"w\"}");
  }

  @Test
  @DisplayName(
      "STATE-7: with fencing the file store checks the on-disk epoch before each write, stores"
          + " its own, and runs the leadership check")
  void state7_fileStoreFencing() throws IOException {
    try (var leader = new FileCheckpointStore(state(), FileCheckpointStore.LockMode.NONE)) {
      leader.fencing(new Fencing(() -> {}, () -> 3));
      leader.commitMany(Map.of("k", "1"), Set.of());
      assertThat(read(state())).isEqualTo("{\"k\":\"1\",\"__fence_epoch__\":\"3\"}");
      // a newer leader wrote epoch 5 on disk; this store's cache still says 3
      Files.writeString(state(), "{\"k\":\"new\",\"__fence_epoch__\":\"5\"}");
      assertThatThrownBy(() -> leader.commitMany(Map.of("k", "stale"), Set.of()))
          .isInstanceOf(StateFenceException.class)
          .hasMessageContaining("epoch 5 > this term's epoch 3");
      assertThat(read(state())).isEqualTo("{\"k\":\"new\",\"__fence_epoch__\":\"5\"}");
      leader.fencing(
          new Fencing(
              () -> {
                throw new StateFenceException("not leader");
              },
              () -> 9));
      assertThatThrownBy(() -> leader.commitMany(Map.of("k", "x"), Set.of()))
          .isInstanceOf(StateFenceException.class)
          .hasMessage("not leader");
      leader.fencing(new Fencing(() -> {}, () -> 5)); // equal epoch: allowed
      leader.commitMany(Map.of("k", "2"), Set.of());
    }
    assertThat(read(state())).isEqualTo("{\"k\":\"2\",\"__fence_epoch__\":\"5\"}");
  }

  @Test
  @DisplayName("STATE-2: snapshot is sorted by key")
  void snapshotSorted() {
    try (var store = new FileCheckpointStore(state())) {
      store.commitMany(Map.of("b", "2", "a", "1", "c", "3"), Set.of());
      assertThat(List.copyOf(store.snapshot().keySet())).containsExactly("a", "b", "c");
    }
  }

  @Test
  @DisplayName("STATE-5: a second store on the same file fails with StateLockException")
  void secondStoreIsLockedOut() throws IOException {
    try (var first = new FileCheckpointStore(state())) {
      first.load("k");
      try (var second = new FileCheckpointStore(state())) {
        assertThatThrownBy(() -> second.load("k"))
            .isInstanceOf(StateLockException.class)
            .hasMessageContaining("another instance running?");
      }
    }
    // released on close: a new store can take it
    try (var third = new FileCheckpointStore(state())) {
      third.commitMany(Map.of("k", "v"), Set.of());
    }
  }

  @Test
  @DisplayName("STATE-5: the sidecar lock file is created with mode 0644")
  void lockFileMode() throws IOException {
    try (var store = new FileCheckpointStore(state())) {
      store.lock();
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(store.lockPath())))
          .isEqualTo("rw-r--r--");
      assertThat(store.lockPath()).isEqualTo(dir.resolve("state.json.lock"));
    }
  }

  @Test
  @DisplayName("STATE-5/CLI-9: a lock-free reader can read while the daemon holds the lock")
  void lockFreeReader() {
    try (var daemon = new FileCheckpointStore(state())) {
      daemon.commitMany(Map.of("k", "v"), Set.of());
      try (var show = new FileCheckpointStore(state(), FileCheckpointStore.LockMode.NONE)) {
        assertThat(show.snapshot()).containsEntry("k", "v");
      }
    }
  }

  @Test
  @DisplayName("STATE-1: operations after close fail")
  void closedStoreFails() {
    var store = new FileCheckpointStore(state());
    store.close();
    store.close();
    assertThatThrownBy(() -> store.load("k")).isInstanceOf(StateException.class);
  }

  @Test
  @DisplayName("STATE-1: concurrent commits are serialised and none is lost")
  void concurrentCommitsSerialised() throws Exception {
    try (var store = new FileCheckpointStore(state());
        ExecutorService pool = Executors.newFixedThreadPool(4)) {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> futures = new java.util.ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int id = t;
        futures.add(
            pool.submit(
                () -> {
                  start.await();
                  for (int i = 0; i < 10; i++) {
                    store.commitMany(Map.of("t" + id + "-" + i, "v"), Set.of());
                  }
                  return null;
                }));
      }
      start.countDown();
      for (Future<?> f : futures) {
        f.get();
      }
      assertThat(store.snapshot()).hasSize(40);
    }
    try (var again = new FileCheckpointStore(state())) {
      assertThat(again.snapshot()).hasSize(40);
    }
  }

  @Test
  @DisplayName(
      "STATE-5/HA-18: under a lease coordinator (term-lock mode) no write without the term's lock;"
          + " the lock is awaited per term and released")
  void termLockAwaitAndRelease() throws Exception {
    FakeTime time = new FakeTime(java.time.Instant.parse("2024-05-01T00:00:00Z"));
    StopSignal stop = new StopSignal();
    try (var previous = new FileCheckpointStore(state());
        var term = new FileCheckpointStore(state(), FileCheckpointStore.LockMode.TERM)) {
      previous.lock();
      assertThatThrownBy(() -> term.commitMany(Map.of("k", "v"), Set.of()))
          .isInstanceOf(StateException.class)
          .hasMessageContaining("not locked");
      // the previous leader never lets go: the wait ends after maxWait with StateLockException
      assertThatThrownBy(
              () ->
                  term.lockAwait(
                      Duration.ofSeconds(30),
                      Duration.ofMillis(100),
                      stop,
                      time.ticker(),
                      time.sleeper()))
          .isInstanceOf(StateLockException.class);
      assertThat(time.sleeps()).hasSize(300);
      previous.close();
      assertThat(
              term.lockAwait(
                  Duration.ofSeconds(30),
                  Duration.ofMillis(100),
                  stop,
                  time.ticker(),
                  time.sleeper()))
          .isTrue();
      term.commitMany(Map.of("k", "v"), Set.of());
      term.unlock();
      assertThat(term.isLocked()).isFalse();
      // another store can now take the lock; the first sees fresh data in its next term
      try (var other = new FileCheckpointStore(state())) {
        other.commitMany(Map.of("k", "w"), Set.of());
      }
      assertThat(term.load("k")).contains("w");
    }
  }

  @Test
  @DisplayName("STATE-5: a lock wait ends at once when the stop signal fires")
  void termLockAwaitStopAware() throws Exception {
    FakeTime time = new FakeTime(java.time.Instant.parse("2024-05-01T00:00:00Z"));
    StopSignal stop = new StopSignal();
    stop.stop();
    try (var previous = new FileCheckpointStore(state());
        var term = new FileCheckpointStore(state(), FileCheckpointStore.LockMode.TERM)) {
      previous.lock();
      assertThat(
              term.lockAwait(
                  Duration.ofSeconds(30),
                  Duration.ofMillis(100),
                  stop,
                  time.ticker(),
                  time.sleeper()))
          .isFalse();
    }
  }

  @Test
  @DisplayName(
      "STATE-5/HA-8/HA-17: a value cached by the epoch read before the lock wait is dropped when"
          + " the lock is taken, so the term resumes from the previous holder's last commit")
  void lockDropsCacheReadBeforeTheWait() throws Exception {
    FakeTime time = new FakeTime(java.time.Instant.parse("2024-05-01T00:00:00Z"));
    try (var previous = new FileCheckpointStore(state(), FileCheckpointStore.LockMode.TERM);
        var next = new FileCheckpointStore(state(), FileCheckpointStore.LockMode.TERM)) {
      StopSignal stop = new StopSignal();
      previous.lockAwait(
          Duration.ZERO, Duration.ofMillis(100), stop, time.ticker(), time.sleeper());
      previous.commitMany(Map.of("seq", "57"), Set.of());
      assertThat(next.freshFenceEpoch()).isZero(); // caches {seq=57}
      previous.commitMany(Map.of("seq", "89"), Set.of()); // the previous term goes on
      previous.unlock();
      assertThat(
              next.lockAwait(
                  Duration.ZERO, Duration.ofMillis(100), stop, time.ticker(), time.sleeper()))
          .isTrue();
      assertThat(next.load("seq")).contains("89");
    }
  }
}
