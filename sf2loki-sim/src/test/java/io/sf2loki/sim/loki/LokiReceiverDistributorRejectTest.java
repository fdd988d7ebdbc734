package io.sf2loki.sim.loki;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.opentelemetry.api.metrics.MeterProvider;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.Batch;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.Lane;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.pipeline.CommitListener;
import io.sf2loki.core.pipeline.Pipeline;
import io.sf2loki.core.pipeline.PipelineSettings;
import io.sf2loki.core.spi.PushResult;
import io.sf2loki.core.testing.InMemoryCheckpointStore;
import io.sf2loki.core.testing.ListSource;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.loki.LokiHttpSink;
import io.sf2loki.loki.LokiSinkSettings;
import io.sf2loki.loki.LokiSinkSettings.LateEntries;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * SINK-19 against the receiver: Loki's distributor stores the valid entries of a request and
 * answers 400 with grouped validation errors for the others. The sink must commit what Loki stored
 * and handle only the refused entries — never re-send a stored entry (the receiver counts collapsed
 * duplicates and every entry it received).
 */
class LokiReceiverDistributorRejectTest {
  private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
  private static final Map<String, String> A = Map.of("job", "sf2loki", "event_type", "Login");
  private static final Map<String, String> B = Map.of("job", "sf2loki", "event_type", "API");

  private final FakeTime time = new FakeTime(NOW);

  private static LogEntry entry(Map<String, String> labels, Instant ts, String line) {
    return LogEntry.of(ts, labels, line, Map.of(), new CheckpointToken("k", line));
  }

  private LokiHttpSink sink(LokiReceiver loki, LateEntries mode) {
    return new LokiHttpSink(
        LokiSinkSettings.of(URI.create(loki.pushUrl()), "test").withLateEntries(mode),
        new Sf2lokiMetrics(MeterProvider.noop(), "test"),
        time.sleeper(),
        new Random(1),
        Runnable::run,
        time.wall());
  }

  private static void assertNothingResent(LokiReceiver loki, int entries) {
    assertThat(loki.duplicatesDropped()).as("stored entries re-sent").isZero();
    assertThat(loki.receivedEntries()).as("entries received").isEqualTo(entries);
  }

  @Test
  @DisplayName(
      "SINK-19: a 400 naming one too-long line (distributor text) drops that line and commits the"
          + " rest without re-sending it")
  void sink19_lineTooLongNotResent() throws Exception {
    try (LokiReceiver loki = LokiReceiver.builder().maxLineBytes(100).start();
        LokiHttpSink sink = sink(loki, LateEntries.RESTAMP)) {
      List<LogEntry> entries = new ArrayList<>();
      for (int i = 0; i < 20; i++) {
        entries.add(entry(A, NOW.plusMillis(i), i == 7 ? "x".repeat(150) : "line " + i));
      }
      PushResult r = sink.push(new Batch(entries), false);
      assertThat(r.droppedByReason()).isEqualTo(Map.of("line_too_long", 1));
      assertThat(loki.entries()).hasSize(19);
      assertThat(loki.requestCount()).isEqualTo(1);
      assertNothingResent(loki, 20);
    }
  }

  @Test
  @DisplayName(
      "SINK-19, SINK-13: too-old entries named by the distributor are dropped under drop, the"
          + " others are committed from the first request")
  void sink19_tooOldDropModeNotResent() throws Exception {
    try (LokiReceiver loki =
            LokiReceiver.builder().rejectOlderThan(Duration.ofDays(7)).clock(time.wall()).start();
        LokiHttpSink sink = sink(loki, LateEntries.DROP)) {
      List<LogEntry> entries = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        Instant ts = i % 4 == 1 ? NOW.minus(Duration.ofDays(8)).plusSeconds(i) : NOW.plusMillis(i);
        entries.add(entry(A, ts, "row " + i));
      }
      PushResult r = sink.push(new Batch(entries), false);
      assertThat(r.droppedByReason()).isEqualTo(Map.of("too_old", 3));
      assertThat(loki.entries()).hasSize(9);
      assertThat(loki.requestCount()).isEqualTo(1);
      assertNothingResent(loki, 12);
    }
  }

  @Test
  @DisplayName(
      "SINK-19, SINK-13: too-old entries named by the distributor are restamped under restamp;"
          + " only they are sent again")
  void sink19_tooOldRestampedOnly() throws Exception {
    try (LokiReceiver loki =
            LokiReceiver.builder().rejectOlderThan(Duration.ofDays(7)).clock(time.wall()).start();
        LokiHttpSink sink = sink(loki, LateEntries.RESTAMP)) {
      List<LogEntry> entries = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        Instant ts = i < 2 ? NOW.minus(Duration.ofDays(9)).plusSeconds(i) : NOW.plusMillis(i);
        entries.add(entry(A, ts, "row " + i));
      }
      PushResult r = sink.push(new Batch(entries), false);
      assertThat(r.droppedByReason()).isEmpty();
      assertThat(loki.entries(Map.of("late", "true")))
          .extracting(ReceivedEntry::line)
          .containsExactly("row 0", "row 1");
      assertThat(loki.entries()).hasSize(10);
      assertThat(loki.requestCount()).isEqualTo(2); // the batch, then the restamped follow-up
      assertNothingResent(loki, 12);
    }
  }

  @Test
  @DisplayName(
      "SINK-19: entries refused with a per-entry message of unknown reason are dropped by count"
          + " (bad_request); the stored rest is not re-sent")
  void sink19_unknownPerEntryReasonNotResent() throws Exception {
    try (LokiReceiver loki = LokiReceiver.start();
        LokiHttpSink sink = sink(loki, LateEntries.RESTAMP)) {
      loki.faults().rejectLinesContaining("POISON");
      List<LogEntry> entries = new ArrayList<>();
      for (int i = 0; i < 16; i++) {
        String line = i == 3 || i == 11 ? "a POISON line " + i : "fine " + i;
        entries.add(entry(A, NOW.plusMillis(i), line));
      }
      PushResult r = sink.push(new Batch(entries), false);
      assertThat(r.droppedByReason()).isEqualTo(Map.of("bad_request", 2));
      assertThat(loki.entries())
          .hasSize(14)
          .extracting(ReceivedEntry::line)
          .noneMatch(l -> l.contains("POISON"));
      assertThat(loki.requestCount()).isEqualTo(1);
      assertNothingResent(loki, 16);
    }
  }

  @Test
  @DisplayName(
      "SINK-19: with several streams in one request, the refused entries of one stream are"
          + " dropped and no entry of either stream is re-sent")
  void sink19_twoStreamsNotResent() throws Exception {
    try (LokiReceiver loki = LokiReceiver.builder().maxLineBytes(100).start();
        LokiHttpSink sink = sink(loki, LateEntries.RESTAMP)) {
      // first push makes both streams tracked (SINK-15), so the next batch is one request
      sink.push(new Batch(List.of(entry(A, NOW, "a0"), entry(B, NOW, "b0"))), false);
      List<LogEntry> entries = new ArrayList<>();
      for (int i = 1; i <= 8; i++) {
        entries.add(entry(A, NOW.plusMillis(i), i == 5 ? "y".repeat(120) : "a" + i));
        entries.add(entry(B, NOW.plusMillis(i), i == 2 ? "z".repeat(130) : "b" + i));
      }
      PushResult r = sink.push(new Batch(entries), false);
      assertThat(r.droppedByReason()).isEqualTo(Map.of("line_too_long", 2));
      assertThat(loki.entries()).hasSize(16);
      assertThat(loki.requestCount()).isEqualTo(3); // one per untracked stream, then one
      assertNothingResent(loki, 18);
    }
  }

  @Test
  @DisplayName(
      "SINK-19, PIPE-8, PIPE-1: through the lane, refused entries are dropped visibly (metric and"
          + " WARN) and the checkpoint moves past the batch; nothing is re-sent")
  void sink19_laneCommitsAndCountsTheDrop() throws Exception {
    InMemoryMetricReader reader = InMemoryMetricReader.create();
    ListAppender<ILoggingEvent> logs = new ListAppender<>();
    Logger sinkLog = (Logger) LoggerFactory.getLogger(LokiHttpSink.class);
    logs.start();
    sinkLog.addAppender(logs);
    InMemoryCheckpointStore store = new InMemoryCheckpointStore();
    try (SdkMeterProvider provider =
            SdkMeterProvider.builder().registerMetricReader(reader).build();
        LokiReceiver loki = LokiReceiver.start()) {
      loki.faults().rejectLinesContaining("POISON");
      Sf2lokiMetrics metrics = new Sf2lokiMetrics(provider, "test");
      List<LogEntry> entries = new ArrayList<>();
      for (int i = 0; i < 10; i++) {
        String line = i == 2 || i == 7 ? "POISON " + i : "row " + i;
        entries.add(
            LogEntry.of(
                NOW.plusMillis(i), A, line, Map.of(), new CheckpointToken("elf:Login", "c" + i)));
      }
      LokiHttpSink sink =
          new LokiHttpSink(
              LokiSinkSettings.of(URI.create(loki.pushUrl()), "test"),
              metrics,
              time.sleeper(),
              new Random(1));
      Pipeline p =
          new Pipeline(
              new PipelineSettings(
                  100,
                  1_048_576,
                  Duration.ofSeconds(1),
                  100,
                  0,
                  Duration.ofSeconds(5),
                  Duration.ofSeconds(1),
                  Duration.ofSeconds(30),
                  Map.of(),
                  Duration.ZERO),
              List.of(new ListSource("elf", Lane.BULK, entries)),
              sink,
              store,
              metrics,
              time.timeSource(),
              UnaryOperator.identity(),
              CommitListener.none());
      try (sink) {
        assertThat(p.run(new StopSignal())).isTrue();
      }
      assertThat(store.snapshot()).containsEntry("elf:Login", "c9");
      long dropped = 0;
      for (MetricData m : reader.collectAllMetrics()) {
        if (m.getName().equals("sf2loki_loki_entries_dropped")) {
          for (var pt : m.getLongSumData().getPoints()) {
            if ("bad_request".equals(pt.getAttributes().get(Sf2lokiMetrics.REASON))) {
              dropped += pt.getValue();
            }
          }
        }
      }
      assertThat(dropped).isEqualTo(2);
      assertThat(logs.list)
          .anySatisfy(
              e -> {
                assertThat(e.getLevel()).isEqualTo(Level.WARN);
                assertThat(e.getFormattedMessage()).contains("dropping by count");
              });
      assertThat(loki.entries()).hasSize(8);
      assertNothingResent(loki, 10);
    } finally {
      sinkLog.detachAppender(logs);
    }
  }
}
