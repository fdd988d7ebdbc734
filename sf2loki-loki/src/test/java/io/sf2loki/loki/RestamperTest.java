package io.sf2loki.loki;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.core.limits.EntryLimiter;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.time.FakeTime;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class RestamperTest {
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  private static final CheckpointToken TOKEN = new CheckpointToken("k", "v");

  @Test
  @DisplayName("SINK-13: event_time is ISO-8601 UTC with nine fraction digits")
  void eventTimeFormat() {
    assertThat(Restamper.eventTime(Instant.parse("2024-06-05T05:41:17.937Z")))
        .isEqualTo("2024-06-05T05:41:17.937000000Z");
    assertThat(Restamper.eventTime(Instant.ofEpochSecond(1_700_000_000L, 5)))
        .isEqualTo("2023-11-14T22:13:20.000000005Z");
    assertThat(Restamper.eventTime(Instant.EPOCH)).isEqualTo("1970-01-01T00:00:00.000000000Z");
  }

  @Test
  @DisplayName("SINK-13: restamps are max(now, previous + 1 ns) per stream; streams independent")
  void strictlyIncreasingPerStream() {
    FakeTime time = new FakeTime(NOW);
    Restamper r = new Restamper(time.wall());
    Map<String, String> a = Map.of("job", "a");
    Map<String, String> b = Map.of("job", "b");
    assertThat(r.next(a)).isEqualTo(NOW);
    assertThat(r.next(a)).isEqualTo(NOW.plusNanos(1));
    assertThat(r.next(b)).isEqualTo(NOW);
    time.advance(Duration.ofSeconds(1));
    assertThat(r.next(a)).isEqualTo(NOW.plusSeconds(1));
    time.setWall(NOW); // clock steps back
    assertThat(r.next(a)).isEqualTo(NOW.plusSeconds(1).plusNanos(1));
  }

  @Test
  @DisplayName(
      "SINK-13: forgetting idle streams never lets a restamp repeat, even if the clock steps back")
  void pruningKeepsMonotonic() {
    FakeTime time = new FakeTime(NOW);
    Restamper r = new Restamper(time.wall());
    Instant first = r.next(Map.of("s", "0"));
    time.advance(Duration.ofSeconds(1));
    for (int i = 1; i <= 5000; i++) {
      r.next(Map.of("s", Integer.toString(i)));
    }
    time.setWall(NOW.minusSeconds(10));
    assertThat(r.next(Map.of("s", "0"))).isAfter(first);
  }

  @Test
  @DisplayName("SINK-13: restamped form — late label, event_time, unchanged line and checkpoint")
  void restampedForm() {
    Restamper r = new Restamper(new FakeTime(NOW).wall());
    LogEntry e =
        LogEntry.of(
            Instant.parse("2024-06-05T05:41:17.937Z"),
            Map.of("job", "x"),
            "line ü",
            Map.of("level", "INFO"),
            TOKEN);
    LogEntry out = r.restamp(List.of(e)).get(0);
    assertThat(out.timestamp()).isEqualTo(NOW);
    assertThat(out.labels()).isEqualTo(Map.of("job", "x", "late", "true"));
    assertThat(out.structuredMetadata())
        .isEqualTo(Map.of("level", "INFO", "event_time", "2024-06-05T05:41:17.937000000Z"));
    assertThat(out.line()).isEqualTo(e.line());
    assertThat(out.lineBytes()).isEqualTo(e.lineBytes());
    assertThat(out.checkpoint()).isEqualTo(TOKEN);
    assertThat(out.checkpointOnly()).isFalse();
  }

  @Test
  @DisplayName(
      "SINK-13/SINK-14: adding event_time to 128 pairs removes the largest other pair, never level")
  void metadataStaysWithinLimits() {
    Map<String, String> md = new LinkedHashMap<>();
    for (int i = 0; i < EntryLimiter.MAX_METADATA_PAIRS - 2; i++) {
      md.put("k" + i, "v");
    }
    md.put("big", "y".repeat(100));
    md.put("level", "z".repeat(200));
    assertThat(md).hasSize(EntryLimiter.MAX_METADATA_PAIRS);
    Map<String, String> out = Restamper.metadata(md, "2024-01-01T00:00:00.000000000Z");
    assertThat(out).hasSize(EntryLimiter.MAX_METADATA_PAIRS);
    assertThat(out).containsKeys("level", "event_time").doesNotContainKey("big");
    List<String> keys = new ArrayList<>(out.keySet());
    assertThat(keys).contains("k0", "k125");
  }

  @Test
  @DisplayName("SINK-13: settings default to restamp and SPEC batch limits; old constructor kept")
  void settingsDefaults() {
    LokiSinkSettings s = LokiSinkSettings.of(URI.create("http://h/loki/api/v1/push"), "v");
    assertThat(s.lateEntries()).isEqualTo(LokiSinkSettings.LateEntries.RESTAMP);
    assertThat(s.maxEntries()).isEqualTo(1000);
    assertThat(s.maxBytes()).isEqualTo(1_048_576L);
    LokiSinkSettings nine =
        new LokiSinkSettings(
            URI.create("http://h/loki/api/v1/push"), null, null, null, null, null, "v", null, null);
    assertThat(nine).isEqualTo(s);
    assertThat(s.withLateEntries(LokiSinkSettings.LateEntries.DROP).lateEntries())
        .isEqualTo(LokiSinkSettings.LateEntries.DROP);
    assertThat(s.withLateEntries(null).lateEntries())
        .isEqualTo(LokiSinkSettings.LateEntries.RESTAMP);
    LokiSinkSettings limited = s.withBatchLimits(10, 2048).withAuth("t", "tok");
    assertThat(limited.maxEntries()).isEqualTo(10);
    assertThat(limited.maxBytes()).isEqualTo(2048);
    assertThat(limited.toString()).contains("lateEntries=RESTAMP").doesNotContain("tok,");
  }
}
