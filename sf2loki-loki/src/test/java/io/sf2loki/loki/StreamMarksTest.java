package io.sf2loki.loki;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.LogEntry;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** SINK-15: the per-stream high-water mark and its bound. */
class StreamMarksTest {
  private static final Instant T = Instant.parse("2026-12-01T12:00:00Z");
  private static final CheckpointToken TOKEN = new CheckpointToken("k", "v");

  private static LogEntry e(String stream, Instant ts) {
    return LogEntry.of(ts, Map.of("s", stream), "x", Map.of(), TOKEN);
  }

  @Test
  @DisplayName(
      "SINK-15: entries older than the newest delivered minus 90 % of the window are behind;"
          + " untracked streams never are; the mark only moves forward")
  void behindTheWindow() {
    AtomicInteger gauge = new AtomicInteger(-1);
    StreamMarks m = new StreamMarks(10, Duration.ofHours(1), gauge::set);
    assertThat(m.behind(List.of(e("a", T.minus(Duration.ofDays(3)))))).isEmpty();
    m.delivered(List.of(e("a", T), e("a", T.minusSeconds(10))));
    assertThat(m.newest(Map.of("s", "a"))).isEqualTo(T);
    assertThat(gauge).hasValue(1);
    m.delivered(List.of(e("a", T.minus(Duration.ofHours(5)))));
    assertThat(m.newest(Map.of("s", "a"))).isEqualTo(T);

    LogEntry inside = e("a", T.minus(Duration.ofMinutes(54)));
    LogEntry margin = e("a", T.minus(Duration.ofMinutes(54)).minusNanos(1));
    LogEntry old = e("a", T.minus(Duration.ofHours(4)));
    LogEntry other = e("b", T.minus(Duration.ofHours(4)));
    assertThat(m.behind(List.of(inside, margin, old, other))).containsExactly(margin, old);
    assertThat(StreamMarks.routeWindow(Duration.ofMinutes(30))).isEqualTo(Duration.ofMinutes(27));
  }

  @Test
  @DisplayName(
      "SINK-15: at most max_tracked_streams streams, least recently used evicted (then unknown);"
          + " the gauge reports the size")
  void boundedLru() {
    AtomicInteger gauge = new AtomicInteger();
    StreamMarks m = new StreamMarks(2, Duration.ofHours(1), gauge::set);
    m.delivered(List.of(e("a", T)));
    m.delivered(List.of(e("b", T)));
    assertThat(m.known(Map.of("s", "a"))).isTrue(); // touches a: b is now the eldest
    m.delivered(List.of(e("c", T)));
    assertThat(m.size()).isEqualTo(2);
    assertThat(gauge).hasValue(2);
    assertThat(m.known(Map.of("s", "b"))).isFalse();
    assertThat(m.behind(List.of(e("b", T.minus(Duration.ofDays(1)))))).isEmpty();
    assertThat(m.known(Map.of("s", "a"))).isTrue();
    assertThat(m.known(Map.of("s", "c"))).isTrue();
  }

  @Test
  @DisplayName(
      "SINK-15: a mark learned from Loki's reported cutoff routes exactly the entries older than"
          + " the cutoff")
  void learnsFromCutoff() {
    StreamMarks m = new StreamMarks(10, Duration.ofMinutes(30), n -> {});
    m.learn(Map.of(Map.of("s", "a"), T));
    assertThat(m.behind(List.of(e("a", T.minusNanos(1)), e("a", T), e("b", T.minusSeconds(9999)))))
        .extracting(LogEntry::timestamp)
        .containsExactly(T.minusNanos(1));
    m.delivered(List.of(e("a", T.plus(Duration.ofHours(1)))));
    assertThat(m.newest(Map.of("s", "a"))).isEqualTo(T.plus(Duration.ofHours(1)));
    assertThat(
            PartialAcceptance.cutoffs(
                "entry with timestamp 2026-12-01 10:00:00 +0000 UTC ignored, reason: 'entry too far"
                    + " behind, entry timestamp is: 2026-12-01T10:00:00Z, oldest acceptable"
                    + " timestamp is: 2026-12-01T11:30:00Z',\nuser 'fake', total ignored: 1 out of"
                    + " 1 for stream: {s=\"a\"}\n"))
        .isEqualTo(Map.of(Map.of("s", "a"), Instant.parse("2026-12-01T11:30:00Z")));
  }

  @Test
  @DisplayName("SINK-15: a zero window disables the routing")
  void zeroWindowOff() {
    StreamMarks m = new StreamMarks(2, Duration.ZERO, n -> {});
    m.delivered(List.of(e("a", T)));
    assertThat(m.behind(List.of(e("a", T.minus(Duration.ofDays(1)))))).isEmpty();
  }
}
