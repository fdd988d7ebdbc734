package io.sf2loki.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The lane queue measures its busy-lane window on the injected ticker (SRC-26, PIPE-5). */
class LaneQueueTickerTest {
  private static LogEntry entry(String v) {
    return LogEntry.of(
        Instant.EPOCH, Map.of("a", "b"), "line", Map.of(), new CheckpointToken("k", v));
  }

  @Test
  @DisplayName(
      "SRC-26, PIPE-5: the busy-lane window starts at a put and ends 10 ms later on the injected"
          + " ticker, not on System.nanoTime")
  void src26_busyWindowOnInjectedTicker() throws Exception {
    FakeTime time = new FakeTime(Instant.parse("2026-12-02T00:00:00Z"));
    time.advance(Duration.ofDays(400)); // far from any System.nanoTime reading
    LaneQueue q = new LaneQueue(100, 0, 1, new StopSignal(), time.ticker());
    assertThat(q.isBusy()).as("no put yet").isFalse();

    assertThat(q.put(entry("1"))).isTrue();
    assertThat(q.isBusy()).isTrue();
    time.advance(Duration.ofNanos(LaneQueue.BUSY_NANOS - 1));
    assertThat(q.isBusy()).as("1 ns short of the window").isTrue();
    time.advance(Duration.ofNanos(1));
    assertThat(q.isBusy()).as("window over on the ticker").isFalse();

    assertThat(q.putAll(List.of(entry("2"), entry("3")))).isEqualTo(2);
    assertThat(q.isBusy()).as("putAll starts a new window").isTrue();
    List<LogEntry> out = new ArrayList<>();
    assertThat(q.pollBatch(out, 10, Long.MAX_VALUE, 0)).isEqualTo(3);
    assertThat(out).extracting(e -> e.checkpoint().value()).containsExactly("1", "2", "3");
  }
}
