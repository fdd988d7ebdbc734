package io.sf2loki.core.pipeline;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class RetryScheduleTest {
  private final FakeTime time = new FakeTime(Instant.parse("2026-01-01T00:00:00Z"));
  private final InMemoryMetricReader reader = InMemoryMetricReader.create();
  private final SdkMeterProvider provider =
      SdkMeterProvider.builder().registerMetricReader(reader).build();
  private final Sf2lokiMetrics metrics = new Sf2lokiMetrics(provider, "t");
  private final AtomicInteger failures = new AtomicInteger();
  private final RetrySchedule schedule =
      new RetrySchedule(
          time.sleeper(),
          new SplittableRandom(11),
          Duration.ofSeconds(1),
          Duration.ofSeconds(30),
          metrics,
          failures::incrementAndGet);

  @AfterEach
  void close() {
    provider.close();
  }

  private long retryAfterWaits(String layer) {
    long sum = 0;
    for (MetricData m : reader.collectAllMetrics()) {
      if (m.getName().equals("sf2loki_loki_retry_after_waits")) {
        for (var p : m.getLongSumData().getPoints()) {
          if (layer.equals(p.getAttributes().get(AttributeKey.stringKey("layer")))) {
            sum += p.getValue();
          }
        }
      }
    }
    return sum;
  }

  @Test
  @DisplayName(
      "SINK-9: a request gets 5 attempts; retry k waits uniform [0.5 s, min(30 s, 2^(k−1) s)];"
          + " every failure is reported before its wait (PIPE-11); a new request starts at k = 1")
  void sink9_requestAttempts() throws Exception {
    for (int round = 0; round < 50; round++) {
      Sink.RequestAttempts a = schedule.request();
      for (int k = 1; k <= 4; k++) {
        Optional<Duration> w = a.failed(Duration.ZERO);
        assertThat(w).isPresent();
        assertThat(w.get()).isBetween(Duration.ofMillis(500), Duration.ofSeconds(1L << (k - 1)));
        assertThat(a.await(w.get(), new StopSignal())).isTrue();
      }
      assertThat(a.failed(Duration.ZERO)).as("the 5th failure gives up").isEmpty();
    }
    assertThat(failures.get()).isEqualTo(250);
    assertThat(time.sleeps()).hasSize(200);
    assertThat(retryAfterWaits("in_sink")).isZero();
  }

  @Test
  @DisplayName(
      "SINK-9: Retry-After raises a request retry wait and is capped at 60 s; counted as"
          + " layer=in_sink; a fired stop ends the wait")
  void sink9_retryAfterRaisesAndCaps() throws Exception {
    Sink.RequestAttempts a = schedule.request();
    assertThat(a.failed(Duration.ofSeconds(3))).contains(Duration.ofSeconds(3));
    assertThat(a.failed(Duration.ofSeconds(600))).contains(Duration.ofSeconds(60));
    assertThat(retryAfterWaits("in_sink")).isEqualTo(2);
    StopSignal stop = new StopSignal();
    stop.stop();
    assertThat(a.await(Duration.ofSeconds(1), stop)).isFalse();
  }

  @Test
  @DisplayName(
      "PIPE-7, PIPE-27: batch waits double from 1 s to 30 s, raised to Retry-After (capped at 60"
          + " s, counted as layer=batch_retry only when it raised the wait)")
  void pipe7_batchWaits() {
    List<Duration> waits = new ArrayList<>();
    for (int i = 0; i < 7; i++) {
      waits.add(schedule.nextBatchWait(Duration.ZERO));
    }
    assertThat(waits)
        .containsExactly(
            Duration.ofSeconds(1),
            Duration.ofSeconds(2),
            Duration.ofSeconds(4),
            Duration.ofSeconds(8),
            Duration.ofSeconds(16),
            Duration.ofSeconds(30),
            Duration.ofSeconds(30));
    assertThat(schedule.nextBatchWait(Duration.ofSeconds(600))).isEqualTo(Duration.ofSeconds(60));
    assertThat(schedule.nextBatchWait(Duration.ofSeconds(5))).isEqualTo(Duration.ofSeconds(30));
    assertThat(retryAfterWaits("batch_retry")).isEqualTo(1);
  }
}
