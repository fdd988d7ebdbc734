package io.sf2loki.app.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.app.config.StateConfig;
import io.sf2loki.state.gcs.GcsStoreSettings;
import io.sf2loki.state.s3.S3StoreSettings;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The backfill cursor codec and document location (BF-2, BF-10, SRC-15). */
class BackfillCursorTest {
  @Test
  @DisplayName(
      "BF-10: the same CreatedDate appends the Id to done_ids, a newer one resets it; the JSON"
          + " is {\"done_ids\": [...], \"last_created\": ...} and parses back")
  void bf10_advanceAndCodec() {
    BackfillCursor c =
        new BackfillCursor("2026-11-01T01:00:00.000+0000", List.of("A"))
            .advance("B", "2026-11-01T01:00:00.000+0000");
    assertThat(c.doneIds()).containsExactly("A", "B");
    assertThat(c.isDone("B", "2026-11-01T01:00:00.000+0000")).isTrue();
    assertThat(c.isDone("B", "2026-11-02T01:00:00.000+0000")).isFalse();
    BackfillCursor n = c.advance("C", "2026-11-02T01:00:00.000+0000");
    assertThat(n.doneIds()).containsExactly("C");
    assertThat(n.toJson())
        .isEqualTo("{\"done_ids\":[\"C\"],\"last_created\":\"2026-11-02T01:00:00.000+0000\"}");
    assertThat(BackfillCursor.parse(n.toJson())).contains(n);
    assertThat(BackfillCursor.parse("not json")).isEmpty();
    assertThat(BackfillCursor.parse("{\"done_ids\":[1]}")).isEmpty();
  }

  @Test
  @DisplayName(
      "BF-2, SRC-15: the backfill document is the -backfill sibling of the daemon's (file, s3"
          + " key, gcs object); keys are backfill:<interval>:<type>, multi-org prefixed")
  void bf2_documentAndKeys() {
    StateConfig c =
        new StateConfig(
            StateConfig.Store.S3,
            new StateConfig.File(Path.of("/var/lib/sf2loki/state.json")),
            new S3StoreSettings(
                "b",
                "sf2loki/state.json",
                Optional.empty(),
                Optional.empty(),
                Duration.ofSeconds(30)),
            new GcsStoreSettings(
                "b",
                "x/state",
                Optional.empty(),
                URI.create(GcsStoreSettings.DEFAULT_ENDPOINT),
                false,
                Duration.ofSeconds(30)),
            Duration.ZERO);
    StateConfig d = BackfillStore.backfillDocument(c);
    assertThat(d.file().path()).isEqualTo(Path.of("/var/lib/sf2loki/state-backfill.json"));
    assertThat(d.s3().key()).isEqualTo("sf2loki/state-backfill.json");
    assertThat(d.gcs().objectName()).isEqualTo("x/state-backfill");
    assertThat(BackfillStore.key(null, "Daily", "Login")).isEqualTo("backfill:Daily:Login");
    assertThat(BackfillStore.key("prod", "Hourly", "API"))
        .isEqualTo("backfill:org=prod:Hourly:API");
  }

  @Test
  @DisplayName(
      "BF-2: a relative state.file.path gives a relative sibling, so both resolve against the"
          + " working directory exactly like the daemon's document; the stderr line shows it absolute")
  void bf2_relativeStatePathResolvesLikeTheDaemons() {
    for (String rel : List.of("state.json", "./sf2loki-sim-state.json", "sub/dir/state.json")) {
      StateConfig c =
          new StateConfig(
              StateConfig.Store.FILE,
              new StateConfig.File(Path.of(rel)),
              null,
              null,
              Duration.ZERO);
      Path daemon = c.file().path().toAbsolutePath().normalize();
      Path backfill = BackfillStore.backfillDocument(c).file().path();
      assertThat(backfill.isAbsolute()).as(rel).isFalse();
      assertThat(backfill.toAbsolutePath().normalize().getParent())
          .as(rel)
          .isEqualTo(daemon.getParent());
      assertThat(Backfill.describeAbsolute(BackfillStore.backfillDocument(c)))
          .isEqualTo(
              daemon
                  .resolveSibling(BackfillStore.name(daemon.getFileName().toString()))
                  .toString());
    }
  }
}
