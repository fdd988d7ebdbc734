package io.sf2loki.app.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.app.config.StateConfig;
import io.sf2loki.core.spi.CheckpointStore;
import io.sf2loki.core.testing.InMemoryCheckpointStore;
import io.sf2loki.state.file.FileCheckpointStore;
import io.sf2loki.state.s3.S3StoreSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** BF-2's 1.x fallback: the local backfill file read once while the object document is absent. */
class LocalFallbackStoreTest {
  @TempDir Path dir;

  private static final String LOGIN = "backfill:Daily:Login";
  private static final String API = "backfill:Daily:API";
  private static final String CURSOR_1 = "{\"done_ids\":[\"A\"],\"last_created\":\"2026-11-01\"}";
  private static final String CURSOR_2 = "{\"done_ids\":[\"B\"],\"last_created\":\"2026-11-02\"}";
  private static final String CURSOR_3 = "{\"done_ids\":[\"C\"],\"last_created\":\"2026-11-03\"}";

  /** The 1.x local file {@code state-backfill.json} with the given cursors. */
  private Path legacyFile(Map<String, String> cursors) {
    Path p = dir.resolve("state-backfill.json");
    try (FileCheckpointStore f = new FileCheckpointStore(p)) {
      f.commitMany(cursors, Set.of());
    }
    return p;
  }

  @Test
  @DisplayName(
      "BF-2: with s3/gcs and no backfill object yet, the local <stem>-backfill file beside"
          + " state.file.path answers; the first commit moves its cursors into the object store")
  void bf2_localFileReadWhileObjectDocumentAbsent() {
    Path local = legacyFile(Map.of(LOGIN, CURSOR_1, API, CURSOR_2));
    StateConfig s3 =
        new StateConfig(
            StateConfig.Store.S3,
            new StateConfig.File(dir.resolve("state.json")),
            new S3StoreSettings(
                "b",
                "sf2loki/state.json",
                Optional.empty(),
                Optional.empty(),
                Duration.ofSeconds(30)),
            null,
            Duration.ZERO);
    // the fallback is the file a file-store backfill would use: the sibling of state.file.path
    assertThat(BackfillStore.backfillDocument(s3).file().path()).isEqualTo(local);
    assertThat(BackfillStore.backfillDocument(s3).s3().key())
        .isEqualTo("sf2loki/state-backfill.json");

    InMemoryCheckpointStore object = new InMemoryCheckpointStore();
    CheckpointStore store = LocalFallbackStore.wrap(object, local);

    assertThat(store.load(LOGIN)).contains(CURSOR_1);
    assertThat(store.load(API)).contains(CURSOR_2);
    assertThat(object.writes()).isEmpty(); // reading writes nothing (a dry run stays read-only)

    store.commitMany(Map.of(LOGIN, CURSOR_3), Set.of());
    assertThat(object.snapshot())
        .containsExactlyInAnyOrderEntriesOf(Map.of(LOGIN, CURSOR_3, API, CURSOR_2));
    assertThat(object.writes()).hasSize(1);

    // next run: the object document exists, the local file is no longer read
    assertThat(LocalFallbackStore.wrap(object, local)).isSameAs(object);
  }

  @Test
  @DisplayName("BF-2: an existing backfill object document wins; no local file means no fallback")
  void bf2_objectDocumentWinsAndMissingFileIgnored() {
    Path local = legacyFile(Map.of(LOGIN, CURSOR_1));
    InMemoryCheckpointStore object = new InMemoryCheckpointStore(Map.of(API, CURSOR_2));
    CheckpointStore store = LocalFallbackStore.wrap(object, local);
    assertThat(store).isSameAs(object);
    assertThat(store.load(LOGIN)).isEmpty();

    InMemoryCheckpointStore empty = new InMemoryCheckpointStore();
    assertThat(LocalFallbackStore.wrap(empty, dir.resolve("absent-backfill.json"))).isSameAs(empty);
    assertThat(Files.exists(dir.resolve("absent-backfill.json"))).isFalse();
  }
}
