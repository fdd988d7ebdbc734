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
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The real sink against the sim receiver enforcing Loki's time limits (SINK-13, FEAT-18). */
class LokiReceiverRestampTest {
  private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
  private static final CheckpointToken TOKEN = new CheckpointToken("k", "v");
  private static final Map<String, String> LABELS = Map.of("job", "sf2loki", "source", "elf");

  private static LogEntry entry(Instant ts, String line) {
    return LogEntry.of(ts, LABELS, line, Map.of("level", "INFO"), TOKEN);
  }

  private static LokiReceiver.Builder strictLoki(FakeTime lokiTime) {
    return LokiReceiver.builder()
        .outOfOrderWindow(Duration.ofHours(1))
        .rejectOlderThan(Duration.ofHours(168))
        .creationGracePeriod(Duration.ofMinutes(10))
        .ingesterErrors(true)
        .clock(lokiTime.wall());
  }

  private static LokiHttpSink sink(LokiReceiver loki, FakeTime sinkTime) {
    return sink(loki, sinkTime, LokiSinkSettings.OUT_OF_ORDER_WINDOW.durationDefault());
  }

  /** {@code window} zero disables SINK-15's pre-push routing: late entries meet Loki's 400. */
  private static LokiHttpSink sink(LokiReceiver loki, FakeTime sinkTime, Duration window) {
    return new LokiHttpSink(
        LokiSinkSettings.of(URI.create(loki.pushUrl()), "test").withLateRouting(window, 0),
        new Sf2lokiMetrics(MeterProvider.noop(), "test"),
        sinkTime.sleeper(),
        new Random(1),
        Runnable::run,
        sinkTime.wall());
  }

  @Test
  @DisplayName(
      "SINK-13: too-far-behind and too-old entries are restamped into a late=\"true\" stream with"
          + " event_time; the live stream's newest entry never moves")
  void restampedIntoLateStream() throws Exception {
    FakeTime time = new FakeTime(NOW);
    try (LokiReceiver loki = strictLoki(time).start();
        LokiHttpSink sink = sink(loki, time, Duration.ZERO)) {
      sink.push(new Batch(List.of(entry(NOW.minusSeconds(60), "live"))), false);
      Instant behind = NOW.minus(Duration.ofHours(2)).plusNanos(5);
      PushResult r =
          sink.push(
              new Batch(
                  List.of(
                      entry(behind, "late-1"),
                      entry(behind, "late-2"),
                      entry(NOW.minus(Duration.ofHours(200)), "ancient"),
                      LogEntry.checkpointOnly(TOKEN))),
              false);

      assertThat(r.droppedByReason()).isEmpty();
      assertThat(loki.entries(Map.of("late", "true")))
          .extracting(ReceivedEntry::line, ReceivedEntry::timestamp)
          // SINK-6 (corrected): the request carries the stream in timestamp order, so the
          // restamps follow it (ancient first; equal timestamps keep batch order)
          .containsExactly(
              org.assertj.core.groups.Tuple.tuple("ancient", NOW),
              org.assertj.core.groups.Tuple.tuple("late-1", NOW.plusNanos(1)),
              org.assertj.core.groups.Tuple.tuple("late-2", NOW.plusNanos(2)));
      assertThat(loki.entries(Map.of("late", "true")))
          .extracting(e -> e.structuredMetadata().get("event_time"))
          .containsExactly(
              "2025-12-24T04:00:00.000000000Z",
              "2026-01-01T10:00:00.000000005Z",
              "2026-01-01T10:00:00.000000005Z");
      assertThat(loki.streams())
          .containsExactly(LABELS, Map.of("job", "sf2loki", "source", "elf", "late", "true"));
      assertThat(loki.entries(LABELS).stream().filter(e -> !e.labels().containsKey("late")))
          .extracting(ReceivedEntry::line)
          .containsExactly("live");
      assertThat(loki.requests())
          .anySatisfy(
              q ->
                  assertThat(q.responseBody())
                      .startsWith("entry with timestamp 2026-01-01 10:00:00.000000005 +0000 UTC")
                      .contains("total ignored: "));
    }
  }

  @Test
  @DisplayName(
      "SINK-13: a restamp the receiver rejects again (sink clock ahead of Loki's grace period) is"
          + " dropped as too_new, never restamped twice")
  void restampRejectedAgain() throws Exception {
    FakeTime lokiTime = new FakeTime(NOW);
    FakeTime sinkTime = new FakeTime(NOW.plus(Duration.ofHours(1)));
    try (LokiReceiver loki = strictLoki(lokiTime).start();
        LokiHttpSink sink = sink(loki, sinkTime)) {
      sink.push(new Batch(List.of(entry(NOW, "live"))), false);
      int before = loki.requestCount();
      PushResult r =
          sink.push(new Batch(List.of(entry(NOW.minus(Duration.ofHours(3)), "late"))), false);
      assertThat(r.droppedByReason()).isEqualTo(Map.of("too_new", 1));
      // SINK-15 (new rule): the late entry is routed late before any push, so the only request
      // is its restamped form (before SINK-15: a refused live push, then the restamp)
      assertThat(loki.requestCount() - before).isEqualTo(1);
      assertThat(loki.totalEntries()).isEqualTo(1);
    }
  }
}
