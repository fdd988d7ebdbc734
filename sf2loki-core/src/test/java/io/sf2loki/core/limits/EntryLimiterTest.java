package io.sf2loki.core.limits;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.LogEntry;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class EntryLimiterTest {
  private static final CheckpointToken TOKEN = new CheckpointToken("k", "v");
  private final InMemoryMetricReader reader = InMemoryMetricReader.create();
  private final SdkMeterProvider provider =
      SdkMeterProvider.builder().registerMetricReader(reader).build();
  private final Sf2lokiMetrics metrics = new Sf2lokiMetrics(provider, "test");

  @AfterEach
  void close() {
    provider.close();
  }

  private static LogEntry entry(String source, String line, Map<String, String> md) {
    return LogEntry.of(Instant.EPOCH, Map.of("job", "sf2loki", "source", source), line, md, TOKEN);
  }

  private long truncated(String source) {
    long sum = 0;
    for (MetricData m : reader.collectAllMetrics()) {
      if (m.getName().equals("sf2loki_lines_truncated")) {
        for (LongPointData p : m.getLongSumData().getPoints()) {
          if (source.equals(p.getAttributes().get(Sf2lokiMetrics.SOURCE))) {
            sum += p.getValue();
          }
        }
      }
    }
    return sum;
  }

  private static int bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8).length;
  }

  @Test
  @DisplayName("SINK-7: over-cap line is cut, marker ends it, result never exceeds the cap")
  void sink7CutWithMarker() {
    EntryLimiter limiter = new EntryLimiter(100, metrics);
    String line = "x".repeat(500);
    LogEntry out = limiter.apply(entry("eventlogfile", line, Map.of()));
    String marker = "\u2026[truncated, original 500 bytes]";
    assertThat(out.line()).endsWith(marker);
    assertThat(bytes(out.line())).isEqualTo(100);
    assertThat(out.lineBytes()).isEqualTo(100);
    assertThat(out.line()).startsWith("x".repeat(100 - bytes(marker)));
    assertThat(truncated("eventlogfile")).isEqualTo(1);
  }

  @Test
  @DisplayName("SINK-7: line within the cap and cap ≤ 0 leave the entry untouched and uncounted")
  void sink7NoCut() {
    LogEntry e = entry("pubsub", "y".repeat(100), Map.of());
    assertThat(new EntryLimiter(100, metrics).apply(e)).isSameAs(e);
    assertThat(new EntryLimiter(0, metrics).apply(entry("pubsub", "y".repeat(10_000), Map.of())))
        .extracting(LogEntry::lineBytes)
        .isEqualTo(10_000);
    assertThat(new EntryLimiter(-1, metrics).apply(e)).isSameAs(e);
    assertThat(truncated("pubsub")).isZero();
    LogEntry cp = LogEntry.checkpointOnly(TOKEN);
    assertThat(new EntryLimiter(1, metrics).apply(cp)).isSameAs(cp);
  }

  @Test
  @DisplayName("SINK-7: cap smaller than the marker → cut to the cap without marker")
  void sink7CapBelowMarker() {
    LogEntry out = new EntryLimiter(10, metrics).apply(entry("x", "abcdefghijklmnop", Map.of()));
    assertThat(out.line()).isEqualTo("abcdefghij");
  }

  @ParameterizedTest
  @ValueSource(ints = {40, 41, 42, 43, 44, 45, 46, 47, 60, 61, 62, 63})
  @DisplayName("SINK-7: multi-byte characters are never split (2-, 3- and 4-byte sequences)")
  void sink7CharacterBoundaries(int cap) {
    String line = "é€😀".repeat(30); // 2 + 3 + 4 bytes per repetition
    EntryLimiter limiter = new EntryLimiter(cap, metrics);
    for (String source : new String[] {"eventlogfile", "apexlog"}) {
      LogEntry out = limiter.apply(entry(source, line, Map.of()));
      byte[] b = out.line().getBytes(StandardCharsets.UTF_8);
      assertThat(b.length).isLessThanOrEqualTo(cap);
      assertThat(new String(b, StandardCharsets.UTF_8)).isEqualTo(out.line());
      assertThat(out.line()).doesNotContain("\uFFFD").doesNotContain("?");
      for (int i = 0; i < out.line().length(); i++) {
        char c = out.line().charAt(i);
        if (Character.isHighSurrogate(c)) {
          assertThat(Character.isLowSurrogate(out.line().charAt(i + 1))).isTrue();
        }
      }
    }
  }

  @Test
  @DisplayName("SINK-7: apexlog lines keep head and tail around the marker")
  void sink7ApexHeadAndTail() {
    String line = "HEAD" + "m".repeat(1000) + "TAIL-EXCEPTION";
    LogEntry out = new EntryLimiter(200, metrics).apply(entry("apexlog", line, Map.of()));
    String marker = EntryLimiter.marker(bytes(line));
    assertThat(out.line()).startsWith("HEAD").endsWith("TAIL-EXCEPTION").contains(marker);
    assertThat(out.line()).doesNotEndWith(marker);
    assertThat(bytes(out.line())).isLessThanOrEqualTo(200);
    int budget = 200 - bytes(marker);
    assertThat(out.line().indexOf(marker)).isEqualTo(budget / 2);
    assertThat(truncated("apexlog")).isEqualTo(1);
  }

  @Test
  @DisplayName(
      "SINK-7/SINK-14: idempotent — a limited entry is returned unchanged and not recounted")
  void idempotent() {
    EntryLimiter limiter = new EntryLimiter(300, metrics);
    Random rnd = new Random(11);
    for (int i = 0; i < 200; i++) {
      StringBuilder sb = new StringBuilder();
      int n = rnd.nextInt(600);
      for (int j = 0; j < n; j++) {
        sb.appendCodePoint(
            switch (rnd.nextInt(4)) {
              case 0 -> 'a';
              case 1 -> 'é';
              case 2 -> '€';
              default -> 0x1F600;
            });
      }
      Map<String, String> md = Map.of("big", sb.toString().repeat(20), "level", "INFO");
      String source = rnd.nextBoolean() ? "apexlog" : "eventlogfile";
      LogEntry once = limiter.apply(entry(source, sb.toString(), md));
      LogEntry twice = limiter.apply(once);
      assertThat(twice).isSameAs(once);
      assertThat(once.lineBytes()).isEqualTo(bytes(once.line())).isLessThanOrEqualTo(300);
    }
  }

  @Test
  @DisplayName("SINK-14: metadata values over 8 KiB are cut with the marker at the end")
  void sink14MetadataValueCap() {
    String big = "€".repeat(5000); // 15000 bytes
    LogEntry out =
        new EntryLimiter(0, metrics).apply(entry("pubsub", "l", Map.of("msg", big, "a", "b")));
    String v = out.structuredMetadata().get("msg");
    assertThat(bytes(v)).isLessThanOrEqualTo(8192);
    assertThat(v).endsWith(EntryLimiter.marker(15000));
    assertThat(out.structuredMetadata()).containsEntry("a", "b");
    assertThat(out.line()).isEqualTo("l");
    assertThat(truncated("pubsub")).isEqualTo(1);
  }

  @Test
  @DisplayName(
      "SINK-14: a pre-sized metadata map goes through unchanged when small, and is still cut when"
          + " one of its values exceeds 8 KiB (the fast path only skips maps that cannot exceed)")
  void sink14PreSizedMetadata() {
    var small = io.sf2loki.core.shape.Utf8SizedMap.wrap(Map.of("USER_ID", "005x", "level", "info"));
    LogEntry in = entry("eventlogfile", "l", small);
    assertThat(new EntryLimiter(0, metrics).apply(in)).isSameAs(in);

    var big = io.sf2loki.core.shape.Utf8SizedMap.wrap(Map.of("msg", "x".repeat(9000), "a", "b"));
    LogEntry out = new EntryLimiter(0, metrics).apply(entry("eventlogfile", "l", big));
    assertThat(bytes(out.structuredMetadata().get("msg"))).isLessThanOrEqualTo(8192);
    assertThat(out.structuredMetadata()).containsEntry("a", "b");
    assertThat(truncated("eventlogfile")).isEqualTo(1);
  }

  @Test
  @DisplayName("SINK-14: largest pairs removed until ≤ 60 KiB; level and event_time are kept")
  void sink14MetadataTotalCap() {
    Map<String, String> md = new LinkedHashMap<>();
    md.put("level", "x".repeat(8000));
    md.put("event_time", "y".repeat(8000));
    for (int i = 0; i < 10; i++) {
      md.put("f" + i, "z".repeat(7000 + i));
    }
    LogEntry out = new EntryLimiter(0, metrics).apply(entry("eventlogfile", "l", md));
    Map<String, String> got = out.structuredMetadata();
    assertThat(got).containsKeys("level", "event_time");
    long total = 0;
    for (var p : got.entrySet()) {
      total += bytes(p.getKey()) + bytes(p.getValue());
    }
    assertThat(total).isLessThanOrEqualTo(60 * 1024);
    // the largest (f9, f8, …) went first
    assertThat(got).doesNotContainKey("f9").containsKey("f0");
    assertThat(truncated("eventlogfile")).isEqualTo(1);
  }

  @Test
  @DisplayName("SINK-14: more than 128 pairs → largest removed until 128 remain")
  void sink14MetadataPairCap() {
    Map<String, String> md = new HashMap<>();
    for (int i = 0; i < 140; i++) {
      md.put("k" + i, "v".repeat(i % 7 + 1));
    }
    md.put("level", "vvvvvvvvvvvvvvvvvvvvvv");
    LogEntry out = new EntryLimiter(0, metrics).apply(entry("pubsub", "l", md));
    assertThat(out.structuredMetadata()).hasSize(128).containsKey("level");
  }

  @Test
  @DisplayName("SINK-14: label values over 2,048 characters are cut to 2,048 incl. marker")
  void sink14LabelValueCap() {
    String v = "😀".repeat(3000);
    LogEntry e =
        LogEntry.of(Instant.EPOCH, Map.of("source", "elf", "promoted", v), "l", Map.of(), TOKEN);
    LogEntry out = new EntryLimiter(0, metrics).apply(e);
    String got = out.labels().get("promoted");
    assertThat(got.codePointCount(0, got.length())).isEqualTo(2048);
    assertThat(got).endsWith(EntryLimiter.marker(12000));
    assertThat(out.labels().get("source")).isEqualTo("elf");
    assertThat(new EntryLimiter(0, metrics).apply(out)).isSameAs(out);
    assertThat(truncated("elf")).isEqualTo(1);
  }

  @Test
  @DisplayName("SINK-14: an entry changed by several limits counts once")
  void countsOncePerEntry() {
    LogEntry out =
        new EntryLimiter(50, metrics)
            .apply(entry("pubsub", "q".repeat(100), Map.of("m", "w".repeat(9000))));
    assertThat(out.lineBytes()).isLessThanOrEqualTo(50);
    assertThat(truncated("pubsub")).isEqualTo(1);
    assertThat(Attributes.of(Sf2lokiMetrics.SOURCE, "pubsub")).isNotNull();
  }
}
