package io.sf2loki.salesforce.elf;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.salesforce.elf.ElfCursor.WindowEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ElfCursorTest {
  private static final String DEF = "2024-04-30T10:00:00Z";
  private final ElfCursorCodec codec = new ElfCursorCodec();

  @Test
  @DisplayName("ELF-4: canonical object form with id pairs")
  void elf4_objectForm() {
    Optional<ElfCursor> c =
        codec.parse(
            "{\"ids\": [[\"0AT1\", \"2024-05-01T10:00:00.000+0000\"]], \"last_created\":"
                + " \"2024-05-01T10:00:00.000+0000\"}",
            DEF);
    assertThat(c)
        .contains(
            new ElfCursor(
                "2024-05-01T10:00:00.000+0000",
                List.of(new WindowEntry("0AT1", "2024-05-01T10:00:00.000+0000"))));
  }

  @Test
  @DisplayName("ELF-4: legacy bare id strings and missing last_created (default)")
  void elf4_legacyIds() {
    assertThat(codec.parse("{\"ids\": [\"0AT1\", [\"0AT2\", \"x\"]]}", DEF))
        .contains(
            new ElfCursor(
                DEF, List.of(new WindowEntry("0AT1", null), new WindowEntry("0AT2", "x"))));
  }

  @Test
  @DisplayName("ELF-4: a bare timestamp (plain or JSON string) means last_created, empty window")
  void elf4_bareTimestamp() {
    assertThat(codec.parse("2024-05-01T10:00:00.000+0000", DEF))
        .contains(new ElfCursor("2024-05-01T10:00:00.000+0000", List.of()));
    assertThat(codec.parse("\"2024-05-01T10:00:00Z\"", DEF))
        .contains(new ElfCursor("2024-05-01T10:00:00Z", List.of()));
  }

  @Test
  @DisplayName("ELF-4: garbage is rejected (caller falls back to the default)")
  void elf4_garbage() {
    assertThat(codec.parse("not a cursor", DEF)).isEmpty();
    assertThat(codec.parse("[1, 2]", DEF)).isEmpty();
    assertThat(codec.parse("{\"ids\": 5}", DEF)).isEmpty();
    assertThat(codec.parse("{\"ids\": [[1, 2]]}", DEF)).isEmpty();
    assertThat(codec.parse("{\"last_created\": 5}", DEF)).isEmpty();
    assertThat(codec.parse("42", DEF)).isEmpty();
  }

  @Test
  @DisplayName(
      "ELF-4/SRC-18: an object whose last_created is not a timestamp is rejected, never put into"
          + " SOQL (it would stall the type with HTTP 400 or inject SOQL)")
  void elf4_objectWithBadLastCreated() {
    assertThat(
            codec.parse("{\"ids\": [], \"last_created\": \"2026-13-45T99:00:00.000+0000\"}", DEF))
        .isEmpty();
    assertThat(codec.parse("{\"last_created\": \"yesterday\"}", DEF)).isEmpty();
    assertThat(
            codec.parse("{\"last_created\": \"2024-05-01T10:00:00Z OR EventType != null\"}", DEF))
        .isEmpty();
    assertThat(codec.parse("{\"last_created\": \"\"}", DEF)).isEmpty();
  }

  @Test
  @DisplayName("ELF-6: skip rule — legacy, same CreatedDate, not later; a later CreatedDate is new")
  void elf6_skipRule() {
    ElfCursor c =
        new ElfCursor(
            "2024-05-01T10:00:00.000+0000",
            List.of(
                new WindowEntry("LEG", null),
                new WindowEntry("A", "2024-05-01T10:00:00.000+0000")));
    assertThat(c.alreadyProcessed("LEG", "2030-01-01T00:00:00.000+0000")).isTrue();
    assertThat(c.alreadyProcessed("A", "2024-05-01T10:00:00.000+0000")).isTrue();
    assertThat(c.alreadyProcessed("A", "2024-05-01T10:00:00.000Z")).isTrue();
    assertThat(c.alreadyProcessed("A", "2024-05-01T09:00:00.000+0000")).isTrue();
    assertThat(c.alreadyProcessed("A", "2024-05-01T11:00:00.000+0000")).isFalse();
    assertThat(c.alreadyProcessed("B", "2024-05-01T10:00:00.000+0000")).isFalse();
  }

  @Test
  @DisplayName("ELF-11: window keeps same-CreatedDate pairs plus the 200 most recent older ones")
  void elf11_windowMaintenance() {
    List<WindowEntry> w = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      w.add(
          new WindowEntry(
              "old" + i, String.format("2024-01-01T00:%02d:%02d.000+0000", i / 60, i % 60)));
    }
    String t = "2024-05-01T10:00:00.000+0000";
    w.add(new WindowEntry("same1", t));
    ElfCursor c = new ElfCursor(t, w).advance("old5", "2024-05-01T11:00:00.000+0000");
    assertThat(c.lastCreated()).isEqualTo("2024-05-01T11:00:00.000+0000");
    // old5 moved to the end; 299 old + same1 are "older" → 200 most recent kept
    assertThat(c.window()).hasSize(201);
    assertThat(c.window().get(200))
        .isEqualTo(new WindowEntry("old5", "2024-05-01T11:00:00.000+0000"));
    assertThat(c.window()).contains(new WindowEntry("same1", t));
    assertThat(c.window()).doesNotContain(new WindowEntry("old0", w.get(0).createdDate()));
    ElfCursor d = c.advance("x", "2024-05-01T11:00:00.000+0000");
    assertThat(d.window()).hasSize(202); // both pairs at last_created kept besides 200 older
  }
}
