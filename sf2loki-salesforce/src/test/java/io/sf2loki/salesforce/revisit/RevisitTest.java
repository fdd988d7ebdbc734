package io.sf2loki.salesforce.revisit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.core.time.FakeTime;
import io.sf2loki.salesforce.testing.MetricsProbe;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The shared revisit core: dedup bound, interval gate, range (SPEC OBJ-13…OBJ-15). */
class RevisitTest {
  private static final Instant NOW = Instant.parse("2024-05-01T12:00:00Z");
  private static final Map<String, String> OBJ = Map.of("source", "s", "object", "o");

  @Test
  @DisplayName(
      "OBJ-15: the dedup memory holds at most max_keys keys; the oldest instant is evicted whole"
          + " and becomes the floor")
  void obj15_boundEvictsOldestInstant() {
    ShippedKeys k = new ShippedKeys(3);
    k.remember("a", NOW.minusSeconds(30));
    k.remember("b", NOW.minusSeconds(30));
    k.remember("c", NOW.minusSeconds(20));
    assertThat(k.size()).isEqualTo(3);
    assertThat(k.floor()).isNull();

    k.remember("d", NOW.minusSeconds(10)); // 4 > 3: both keys at −30 s go
    assertThat(k.size()).isEqualTo(2);
    assertThat(k.contains("a")).isFalse();
    assertThat(k.contains("b")).isFalse();
    assertThat(k.contains("c")).isTrue();
    assertThat(k.floor()).isEqualTo(NOW.minusSeconds(30));
    assertThat(k.evicted()).isEqualTo(2);

    k.remember("late", NOW.minusSeconds(40)); // at or below the floor: not kept
    assertThat(k.contains("late")).isFalse();
    k.remember("c", NOW.minusSeconds(5)); // a key seen again moves, never counts twice
    assertThat(k.size()).isEqualTo(2);

    k.pruneBefore(NOW.minusSeconds(8)); // the window moved past d and the floor
    assertThat(k.floor()).isNull();
    assertThat(k.contains("c")).isTrue();
    assertThat(k.contains("d")).isFalse();
    k.pruneBefore(NOW);
    assertThat(k.size()).isZero();
  }

  @Test
  @DisplayName("OBJ-15: a memory of 20000 keys never grows past its bound under 100000 keys")
  void obj15_boundUnderLoad() {
    ShippedKeys k = new ShippedKeys(20_000);
    for (int i = 0; i < 100_000; i++) {
      k.remember("k" + i, NOW.plusMillis(i / 3));
      assertThat(k.size()).isLessThanOrEqualTo(20_000);
    }
    assertThat(k.size()).isGreaterThanOrEqualTo(19_998);
    assertThat(k.evicted()).isEqualTo(100_000 - k.size());
    assertThat(k.contains("k99999")).isTrue();
    assertThat(k.contains("k0")).isFalse();
  }

  @Test
  @DisplayName(
      "OBJ-14: at most one revisit per revisit_interval on a fake ticker; the first is due at"
          + " once")
  void obj14_intervalGate() {
    FakeTime t = new FakeTime(NOW);
    RevisitGate g = new RevisitGate(t.ticker(), Duration.ofMinutes(5));
    List<Integer> entered = new ArrayList<>();
    for (int minute = 0; minute <= 20; minute++) {
      if (g.tryEnter()) {
        entered.add(minute);
      }
      assertThat(g.tryEnter()).isFalse(); // never twice at the same instant
      t.advance(Duration.ofMinutes(1));
    }
    assertThat(entered).containsExactly(0, 5, 10, 15, 20);
  }

  @Test
  @DisplayName(
      "OBJ-13, OBJ-14: the range is [server now − window, watermark); nothing when off, when the"
          + " watermark is older than the window, or before the interval passed")
  void obj13_rangeAndGate() {
    FakeTime t = new FakeTime(NOW);
    try (MetricsProbe m = new MetricsProbe()) {
      Revisit off = new Revisit("s", "o", RevisitSettings.OFF, t.ticker(), m.metrics);
      assertThat(off.begin(NOW, NOW.minusSeconds(60))).isEmpty();
      off.remember("x", NOW, NOW);
      assertThat(off.shipped("x")).isFalse();

      Revisit r = new Revisit("s", "o", RevisitSettings.DEFAULTS, t.ticker(), m.metrics);
      assertThat(r.begin(NOW, NOW.minus(Duration.ofMinutes(31)))).isEmpty(); // gate not used
      assertThat(r.begin(NOW, null)).isEmpty();
      assertThat(r.begin(NOW, NOW.minusSeconds(60)))
          .contains(
              new Revisit.Range(NOW.minus(Duration.ofMinutes(30)), false, NOW.minusSeconds(60)));
      assertThat(r.begin(NOW, NOW.minusSeconds(60))).isEmpty();
      t.advance(Duration.ofMinutes(5));
      assertThat(r.begin(NOW.plus(Duration.ofMinutes(5)), NOW)).isPresent();

      Revisit.Range range = new Revisit.Range(NOW.minusSeconds(10), true, NOW);
      assertThat(range.contains(NOW.minusSeconds(10))).isFalse();
      assertThat(range.contains(NOW.minusSeconds(9))).isTrue();
      assertThat(range.contains(NOW)).isFalse();
      assertThat(range.contains(null)).isFalse();
    }
  }

  @Test
  @DisplayName(
      "OBJ-15: a full memory shortens the range to above its floor, counted as"
          + " sf2loki_revisit_incomplete{reason=max_keys}; a full listing counts listing_limit")
  void obj15_fullMemoryShortensRange() {
    FakeTime t = new FakeTime(NOW);
    try (MetricsProbe m = new MetricsProbe()) {
      Revisit r =
          new Revisit(
              "s",
              "o",
              new RevisitSettings(Duration.ofMinutes(30), Duration.ofMinutes(5), 2),
              t.ticker(),
              m.metrics);
      r.remember("a", NOW.minusSeconds(300), NOW);
      r.remember("b", NOW.minusSeconds(200), NOW);
      r.remember("c", NOW.minusSeconds(100), NOW); // evicts a: floor = −300 s
      r.remember("old", NOW.minus(Duration.ofHours(1)), NOW); // outside the window: ignored
      assertThat(r.keys().size()).isEqualTo(2);
      assertThat(r.begin(NOW, NOW.minusSeconds(60)))
          .contains(new Revisit.Range(NOW.minusSeconds(300), true, NOW.minusSeconds(60)));
      r.listed(2);
      r.listed(1);
      r.fetched();
      r.unkeyed(3);
      r.recovered("z", NOW.minusSeconds(90), NOW, true);
      r.recovered("y", NOW.minusSeconds(80), NOW, false); // dropped by a transform: not counted
      m.collect();
      assertThat(m.counter("sf2loki_revisit_incomplete", Map.of("reason", "max_keys")))
          .isEqualTo(1);
      assertThat(m.counter("sf2loki_revisit_incomplete", Map.of("reason", "listing_limit")))
          .isEqualTo(1);
      assertThat(m.counter("sf2loki_revisit_incomplete", Map.of("reason", "unkeyed"))).isEqualTo(1);
      assertThat(m.counter("sf2loki_revisit_queries", Map.of("kind", "listing"))).isEqualTo(2);
      assertThat(m.counter("sf2loki_revisit_queries", Map.of("kind", "fetch"))).isEqualTo(1);
      assertThat(m.counter("sf2loki_late_rows_recovered", OBJ)).isEqualTo(1);
      assertThat(r.shipped("y")).isTrue();
    }
  }

  @Test
  @DisplayName("OBJ-13: fetch chunks hold at most 200 keys; settings are validated")
  void obj13_chunksAndValidation() {
    List<Integer> items = new ArrayList<>();
    for (int i = 0; i < 401; i++) {
      items.add(i);
    }
    assertThat(Revisit.chunks(items)).extracting(List::size).containsExactly(200, 200, 1);
    assertThat(Revisit.chunks(List.of())).isEmpty();
    assertThat(RevisitSettings.DEFAULTS.enabled()).isTrue();
    assertThat(RevisitSettings.OFF.enabled()).isFalse();
    assertThatThrownBy(() -> new RevisitSettings(Duration.ofMinutes(1), Duration.ZERO, 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new RevisitSettings(Duration.ofMinutes(-1), Duration.ofMinutes(1), 1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new RevisitSettings(Duration.ofMinutes(1), Duration.ofMinutes(1), 0))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
