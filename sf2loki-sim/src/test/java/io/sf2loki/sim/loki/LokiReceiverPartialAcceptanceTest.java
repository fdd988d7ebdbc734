package io.sf2loki.sim.loki;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.Batch;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.loki.LokiHttpSink;
import io.sf2loki.loki.LokiSinkSettings;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * SINK-16 against the receiver: a sink without marks (as after a restart) pushes into streams Loki
 * already advanced; Loki's partial acceptance (≤ 10 listed, {@code total ignored: k out of n}) is
 * read so that only the refused entries are re-sent, and no row is stored live and late.
 */
class LokiReceiverPartialAcceptanceTest {
  private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
  private static final CheckpointToken TOKEN = new CheckpointToken("k", "v");
  private static final Map<String, String> A = Map.of("job", "sf2loki", "event_type", "Login");
  private static final Map<String, String> B = Map.of("job", "sf2loki", "event_type", "API");

  private final InMemoryMetricReader reader = InMemoryMetricReader.create();
  private final SdkMeterProvider provider =
      SdkMeterProvider.builder().registerMetricReader(reader).build();

  private long counter(String name, String key, String value) {
    long sum = 0;
    for (MetricData m : reader.collectAllMetrics()) {
      if (m.getName().equals(name)) {
        for (var p : m.getLongSumData().getPoints()) {
          if (key == null || value.equals(p.getAttributes().get(AttributeKey.stringKey(key)))) {
            sum += p.getValue();
          }
        }
      }
    }
    return sum;
  }

  private LokiHttpSink sink(LokiReceiver loki, FakeTime t) {
    return sink(loki, t, LokiSinkSettings.LateEntries.RESTAMP);
  }

  private LokiHttpSink sink(LokiReceiver loki, FakeTime t, LokiSinkSettings.LateEntries mode) {
    return new LokiHttpSink(
        LokiSinkSettings.of(URI.create(loki.pushUrl()), "test")
            .withLateEntries(mode)
            .withLateRouting(Duration.ofMinutes(30), 0),
        new Sf2lokiMetrics(provider, "test"),
        t.sleeper(),
        new Random(1),
        Runnable::run,
        t.wall());
  }

  private static LokiReceiver strictLoki(FakeTime t) throws java.io.IOException {
    return LokiReceiver.builder()
        .outOfOrderWindow(Duration.ofMinutes(30))
        .ingesterErrors(true)
        .clock(t.wall())
        .start();
  }

  /** Stream A's newest entry at NOW - 1 h. */
  private static void advanceA(LokiHttpSink sink) throws Exception {
    sink.push(
        new Batch(
            List.of(LogEntry.of(NOW.minus(Duration.ofHours(1)), A, "a-head", Map.of(), TOKEN))),
        false);
  }

  /** {@code n} rows of a stream, one minute apart from {@code start}, in shuffled batch order. */
  private static List<LogEntry> rows(Map<String, String> labels, Instant start, int n, String p) {
    List<LogEntry> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(LogEntry.of(start.plusSeconds(60L * i), labels, p + i, Map.of(), TOKEN));
    }
    java.util.Collections.shuffle(out, new Random(7));
    return out;
  }

  private static long inBoth(LokiReceiver loki) {
    Set<String> live =
        loki.entries().stream()
            .filter(e -> !e.labels().containsKey("late"))
            .map(ReceivedEntry::line)
            .collect(Collectors.toSet());
    return loki.entries(Map.of("late", "true")).stream()
        .filter(e -> live.contains(e.line()))
        .count();
  }

  @Test
  @DisplayName(
      "SINK-6, SINK-16: a restart without marks meets partial acceptance (17 and 3 of each"
          + " stream refused, 10 listed); only the refused entries are restamped; 0 rows in both")
  void restartMeetsPartialAcceptance() throws Exception {
    FakeTime t = new FakeTime(NOW);
    try (LokiReceiver loki = strictLoki(t)) {
      // the previous process advanced both streams to NOW - 1 h
      try (LokiHttpSink before = sink(loki, t)) {
        before.push(
            new Batch(
                List.of(
                    LogEntry.of(NOW.minus(Duration.ofHours(1)), A, "a-head", Map.of(), TOKEN),
                    LogEntry.of(NOW.minus(Duration.ofHours(1)), B, "b-head", Map.of(), TOKEN))),
            false);
      }
      long requestsBefore = loki.requestCount();
      long receivedBefore = loki.receivedEntries();
      // a restarted sink: rows from 1 h 47 min to 1 h 18 min ago (A: 17 behind the window) and
      // from 1 h 33 min ago (B: 3 behind), one batch, batch order shuffled
      List<LogEntry> batch = new ArrayList<>();
      batch.addAll(rows(A, NOW.minus(Duration.ofMinutes(107)), 30, "a"));
      batch.addAll(rows(B, NOW.minus(Duration.ofMinutes(93)), 30, "b"));
      try (LokiHttpSink after = sink(loki, t)) {
        var r = after.push(new Batch(batch), false);
        assertThat(r.droppedByReason()).isEmpty();
      }
      assertThat(loki.entries(Map.of("late", "true"))).hasSize(17 + 3);
      assertThat(inBoth(loki)).isZero();
      assertThat(loki.totalEntries()).isEqualTo(2 + 60);
      // each untracked stream alone (SINK-16), then one follow-up request of restamped entries
      assertThat(loki.requestCount() - requestsBefore).isEqualTo(3);
      assertThat(loki.receivedEntries() - receivedBefore).isEqualTo(60 + 20);
      assertThat(counter("sf2loki_loki_entries_resent", "mode", "targeted")).isEqualTo(20);
      assertThat(counter("sf2loki_loki_partial_acceptance_fallbacks", null, null)).isZero();
      assertThat(counter("sf2loki_loki_entries_restamped", "stage", "rejected")).isEqualTo(20);
      // the stored rows of each live stream arrived in timestamp order (SINK-6)
      List<Instant> a =
          loki.entries(A).stream()
              .filter(e -> !e.labels().containsKey("late") && !e.line().equals("a-head"))
              .map(ReceivedEntry::timestamp)
              .toList();
      assertThat(a).isSorted();
    }
  }

  @Test
  @DisplayName(
      "SINK-15: with marks, the same late rows go to the late stream before any push: no 400,"
          + " one entry received per row")
  void marksRouteBeforeThePush() throws Exception {
    FakeTime t = new FakeTime(NOW);
    try (LokiReceiver loki = strictLoki(t);
        LokiHttpSink sink = sink(loki, t)) {
      advanceA(sink);
      sink.push(new Batch(rows(A, NOW.minus(Duration.ofMinutes(107)), 30, "a")), false);
      assertThat(loki.requests()).allSatisfy(q -> assertThat(q.status()).isEqualTo(204));
      assertThat(loki.receivedEntries()).isEqualTo(31);
      // routed: older than the newest (11:00) minus 90 % of 30 min (the safety margin): 10:13…10:32
      assertThat(loki.entries(Map.of("late", "true"))).hasSize(20);
      assertThat(inBoth(loki)).isZero();
      assertThat(counter("sf2loki_loki_entries_restamped", "stage", "routed")).isEqualTo(20);
    }
  }

  @Test
  @DisplayName(
      "SINK-15: under late_entries: drop the routed entries are dropped and counted as"
          + " too_far_behind, never pushed")
  void dropModeRoutesToDrop() throws Exception {
    FakeTime t = new FakeTime(NOW);
    try (LokiReceiver loki = strictLoki(t);
        LokiHttpSink sink = sink(loki, t, LokiSinkSettings.LateEntries.DROP)) {
      advanceA(sink);
      var r = sink.push(new Batch(rows(A, NOW.minus(Duration.ofMinutes(107)), 30, "a")), false);
      assertThat(r.droppedByReason()).isEqualTo(Map.of("too_far_behind", 20));
      assertThat(loki.receivedEntries()).isEqualTo(1 + 10);
      assertThat(loki.entries(Map.of("late", "true"))).isEmpty();
      assertThat(counter("sf2loki_loki_entries_restamped", null, null)).isZero();
    }
  }
}
