package io.sf2loki.sim.loki;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.metrics.MeterProvider;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.Batch;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.spi.PushResult;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.loki.LokiHttpSink;
import io.sf2loki.loki.LokiSinkSettings;
import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The real sink splitting against the sim receiver's Loki-like 413 and 400 answers (SINK-10). */
class LokiReceiverSplitTest {
  private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
  private static final Map<String, String> LABELS = Map.of("job", "sf2loki", "source", "elf");

  private static LogEntry entry(int i, String line) {
    return LogEntry.of(
        NOW.plusMillis(i), LABELS, line, Map.of(), new CheckpointToken("k", "v" + i));
  }

  /** Incompressible text so the snappy body stays about as large as the line. */
  private static String noise(int chars, long seed) {
    Random r = new Random(seed);
    StringBuilder sb = new StringBuilder(chars);
    for (int i = 0; i < chars; i++) {
      sb.append((char) ('!' + r.nextInt(90)));
    }
    return sb.toString();
  }

  private static LokiHttpSink sink(LokiReceiver loki) {
    FakeTime time = new FakeTime(NOW);
    return new LokiHttpSink(
        LokiSinkSettings.of(URI.create(loki.pushUrl()), "test"),
        new Sf2lokiMetrics(MeterProvider.noop(), "test"),
        time.sleeper(),
        new Random(1),
        Runnable::run,
        time.wall());
  }

  @Test
  @DisplayName(
      "SINK-10, PIPE-8: a 413 on a batch with one oversized entry delivers all others and drops exactly that one as oversized_413")
  void sink10_413DropsOnlyTheOversizedEntry() throws Exception {
    try (LokiReceiver loki = LokiReceiver.start();
        LokiHttpSink sink = sink(loki)) {
      loki.faults().maxBodyBytes(20_000);
      List<LogEntry> entries = new ArrayList<>();
      for (int i = 0; i < 9; i++) {
        entries.add(entry(i, i == 6 ? noise(60_000, i) : "small line " + i));
      }
      PushResult r = sink.push(new Batch(entries), false);
      assertThat(r.droppedByReason()).containsExactlyEntriesOf(Map.of("oversized_413", 1));
      assertThat(loki.entries())
          .extracting(ReceivedEntry::line)
          .hasSize(8)
          .doesNotContain(entries.get(6).line());
    }
  }

  @Test
  @DisplayName(
      "SINK-10, PIPE-8: a 400 on one poison entry delivers all others and drops exactly that one as bad_request")
  void sink10_400PoisonEntry() throws Exception {
    try (LokiReceiver loki = LokiReceiver.start();
        LokiHttpSink sink = sink(loki)) {
      loki.faults().rejectLinesContaining("POISON");
      List<LogEntry> entries = new ArrayList<>();
      for (int i = 0; i < 7; i++) {
        entries.add(entry(i, i == 3 ? "a POISON line" : "fine " + i));
      }
      PushResult r = sink.push(new Batch(entries), false);
      assertThat(r.droppedByReason()).containsExactlyEntriesOf(Map.of("bad_request", 1));
      assertThat(loki.entries())
          .extracting(ReceivedEntry::line)
          .hasSize(6)
          .doesNotContain("a POISON line");
    }
  }
}
