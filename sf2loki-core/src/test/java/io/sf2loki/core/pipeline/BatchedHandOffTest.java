package io.sf2loki.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.shape.Utf8SizedMap;
import io.sf2loki.core.spi.EntryEmitter;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The batched hand-off: {@code EntryEmitter.emitAll}, {@code LaneQueue.putAll / pollBatch}. */
class BatchedHandOffTest {
  private static final long WAIT_MS = 5_000;
  private final InMemoryMetricReader reader = InMemoryMetricReader.create();
  private final SdkMeterProvider provider =
      SdkMeterProvider.builder().registerMetricReader(reader).build();
  private final Sf2lokiMetrics metrics = new Sf2lokiMetrics(provider, "test");
  private final FakeTime time = new FakeTime(Instant.parse("2026-11-29T12:00:00Z"));

  @AfterEach
  void close() {
    provider.close();
  }

  private static final CheckpointToken SHARED = new CheckpointToken("k", "12345"); // 5 bytes

  /** Cost 64 + 1 (line) + 2 ("a","b") = 67, plus the shared token (5) once. */
  private static LogEntry entry(int i) {
    return LogEntry.of(
        Instant.parse("2026-11-29T11:59:00Z"),
        Map.of("a", "b"),
        "" + (char) ('a' + i),
        null,
        SHARED);
  }

  private static List<LogEntry> entries(int n) {
    List<LogEntry> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(entry(i));
    }
    return out;
  }

  /** Starts {@code putAll} on a virtual thread. */
  private static CompletableFuture<Integer> putAllAsync(LaneQueue q, List<LogEntry> entries) {
    CompletableFuture<Integer> f = new CompletableFuture<>();
    Thread.ofVirtual()
        .start(
            () -> {
              try {
                f.complete(q.putAll(entries));
              } catch (Throwable e) {
                f.completeExceptionally(e);
              }
            });
    return f;
  }

  /** Waits until the queue holds {@code size} entries and the producer is parked on the bound. */
  private static void awaitBlockedAt(LaneQueue q, int size, CompletableFuture<Integer> f)
      throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
    while (q.size() < size && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    assertThat(q.size()).isEqualTo(size);
    assertThat(f).isNotDone();
  }

  @Test
  @DisplayName("PIPE-3: putAll honours the entry bound per entry and keeps the order")
  void pipe3_putAllEntryBound() throws Exception {
    LaneQueue q = new LaneQueue(2, 0, 1, new StopSignal());
    List<LogEntry> in = entries(7);
    CompletableFuture<Integer> f = putAllAsync(q, in);
    List<LogEntry> out = new ArrayList<>();
    while (out.size() < in.size()) {
      List<LogEntry> got = new ArrayList<>();
      int n = q.pollBatch(got, 100, Long.MAX_VALUE, TimeUnit.MILLISECONDS.toNanos(WAIT_MS));
      assertThat(n).isBetween(1, 2).isEqualTo(got.size()); // never more than the bound
      out.addAll(got);
    }
    assertThat(f.get(WAIT_MS, TimeUnit.MILLISECONDS)).isEqualTo(7);
    assertThat(out).containsExactlyElementsOf(in);
    assertThat(q.chargedBytes()).isZero();
  }

  @Test
  @DisplayName(
      "PIPE-3: putAll waits on the byte budget mid-run, charges the shared token once and releases every charge on poll")
  void pipe3_putAllByteBudget() throws Exception {
    LaneQueue q = new LaneQueue(100, 200, 1, new StopSignal());
    CompletableFuture<Integer> f = putAllAsync(q, entries(6));
    // 67 + 5 = 72, 139, 206 >= 200: the fourth entry waits
    awaitBlockedAt(q, 3, f);
    assertThat(q.chargedBytes()).isEqualTo(3 * 67 + 5);
    List<LogEntry> got = new ArrayList<>();
    assertThat(q.pollBatch(got, 1, Long.MAX_VALUE, 0)).isEqualTo(1);
    while (got.size() < 6) {
      q.pollBatch(got, 100, Long.MAX_VALUE, TimeUnit.MILLISECONDS.toNanos(WAIT_MS));
    }
    assertThat(f.get(WAIT_MS, TimeUnit.MILLISECONDS)).isEqualTo(6);
    assertThat(q.chargedBytes()).isZero();
  }

  @Test
  @DisplayName(
      "PIPE-3, PIPE-21: stop during putAll returns the accepted count; the rest hold no charge")
  void pipe21_putAllPartialOnStop() throws Exception {
    StopSignal stop = new StopSignal();
    LaneQueue q = new LaneQueue(2, 0, 1, stop);
    CompletableFuture<Integer> f = putAllAsync(q, entries(5));
    awaitBlockedAt(q, 2, f);
    stop.stop();
    assertThat(f.get(WAIT_MS, TimeUnit.MILLISECONDS)).isEqualTo(2);
    assertThat(q.size()).isEqualTo(2);
    assertThat(q.chargedBytes()).isEqualTo(2 * 67 + 5);
    assertThat(q.putAll(entries(3))).isZero(); // after stop nothing is taken
    assertThat(q.drainAll()).hasSize(2);
    assertThat(q.chargedBytes()).isZero();
  }

  @Test
  @DisplayName(
      "PIPE-5: pollBatch takes at most maxCount and stops at the entry that reaches the byte room")
  void pipe5_pollBatchLimits() throws Exception {
    LaneQueue q = new LaneQueue(100, 0, 1, new StopSignal());
    assertThat(q.putAll(entries(5))).isEqualTo(5);
    q.put(LogEntry.checkpointOnly(new CheckpointToken("k", "end")));
    List<LogEntry> got = new ArrayList<>();
    assertThat(q.pollBatch(got, 2, Long.MAX_VALUE, 0)).isEqualTo(2);
    // each real entry counts line + 64 = 65: 65 < 100, 130 >= 100 -> two entries
    assertThat(q.pollBatch(got, 100, 100, 0)).isEqualTo(2);
    // a room smaller than one entry still yields one entry
    assertThat(q.pollBatch(got, 100, 1, 0)).isEqualTo(1);
    // checkpoint-only entries add no bytes
    assertThat(q.pollBatch(got, 100, 1, 0)).isEqualTo(1);
    assertThat(got.get(5).checkpointOnly()).isTrue();
    assertThat(q.chargedBytes()).isZero();
    assertThat(q.pollBatch(got, 100, Long.MAX_VALUE, 0)).isZero(); // timeout: nothing queued
    q.producerFinished();
    assertThat(q.pollBatch(got, 100, Long.MAX_VALUE, Long.MAX_VALUE)).isZero(); // closed, empty
  }

  @Test
  @DisplayName(
      "SRC-2: the default emitAll stops at the first refused entry and reports the accepted count")
  void src2_defaultEmitAllStopsAtRefusal() throws Exception {
    List<LogEntry> accepted = new ArrayList<>();
    EntryEmitter twoOnly =
        e -> {
          if (accepted.size() == 2) {
            return false;
          }
          accepted.add(e);
          return true;
        };
    assertThat(twoOnly.emitAll(entries(4))).isEqualTo(2);
    assertThat(accepted).hasSize(2);
    assertThat(twoOnly.emitAll(List.of())).isZero();
  }

  @Test
  @DisplayName(
      "PIPE-4: LaneEmitter.emitAll merges static labels and counts only the enqueued entries; a stop mid-run holds no charge")
  void pipe4_laneEmitterEmitAll() throws Exception {
    StopSignal stop = new StopSignal();
    LaneQueue q = new LaneQueue(3, 0, 1, stop);
    LaneEmitter emitter =
        new LaneEmitter(
            q, Map.of("job", "sf2loki"), metrics, time.timeSource(), LaneEmitter.newAttrCache());
    Map<String, String> own = Map.of("source", "eventlogfile", "event_type", "Login");
    List<LogEntry> in = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      in.add(LogEntry.of(Instant.parse("2026-11-29T11:59:00Z"), own, "l" + i, null, SHARED));
    }
    in.add(1, LogEntry.checkpointOnly(new CheckpointToken("k", "cp")));
    CompletableFuture<Integer> f = new CompletableFuture<>();
    Thread.ofVirtual()
        .start(
            () -> {
              try {
                f.complete(emitter.emitAll(in));
              } catch (Throwable e) {
                f.completeExceptionally(e);
              }
            });
    awaitBlockedAt(q, 3, f);
    stop.stop();
    assertThat(f.get(WAIT_MS, TimeUnit.MILLISECONDS)).isEqualTo(3);
    List<LogEntry> queued = q.drainAll();
    assertThat(queued.get(0).labels())
        .containsEntry("job", "sf2loki")
        .containsEntry("event_type", "Login");
    assertThat(queued.get(1).checkpointOnly()).isTrue();
    assertThat(counter("sf2loki_events_ingested")).isEqualTo(2); // two real entries enqueued
    assertThat(q.chargedBytes()).isZero();
  }

  @Test
  @DisplayName("PIPE-3: a Utf8SizedMap carries the UTF-8 bytes of its keys and values")
  void pipe3_sizedMapCost() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("user_id", "005x");
    m.put("name", "Zoë \uD83D\uDE00"); // ë = 2 bytes, the emoji pair = 4
    Utf8SizedMap sized = Utf8SizedMap.wrap(m);
    assertThat(sized.utf8Bytes()).isEqualTo(7 + 4 + 4 + 9);
    assertThat(EntryCost.mapBytes(sized)).isEqualTo(EntryCost.mapBytes(Map.copyOf(m)));
    assertThat(sized).isEqualTo(m).hasSize(2).hasSameHashCodeAs(m);
    assertThat(sized.keySet()).containsExactly("user_id", "name"); // the source order
    assertThat(sized.get("name")).isEqualTo(m.get("name"));
    assertThat(sized.get("absent")).isNull();
    assertThat(sized.containsKey("user_id")).isTrue();
    assertThat(Utf8SizedMap.wrap(sized)).isSameAs(sized);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> sized.put("x", "y"))
        .isInstanceOf(UnsupportedOperationException.class);
  }

  private long counter(String name) {
    long sum = 0;
    for (MetricData m : reader.collectAllMetrics()) {
      if (m.getName().equals(name)) {
        for (var p : m.getLongSumData().getPoints()) {
          assertThat(p.getAttributes().get(AttributeKey.stringKey("event_type")))
              .isEqualTo("Login");
          sum += p.getValue();
        }
      }
    }
    return sum;
  }
}
