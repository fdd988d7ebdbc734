package io.sf2loki.core.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class BackoffTest {
  @Test
  @DisplayName("PS-14: 1 s doubling to 30 s, each wait + jitter in [0, backoff/2], reset to 1 s")
  void ps14DoublingJitterReset() throws Exception {
    FakeTime time = new FakeTime(java.time.Instant.parse("2024-06-05T06:00:00Z"));
    Backoff b =
        new Backoff(
            Duration.ofSeconds(1),
            Duration.ofSeconds(30),
            time.sleeper(),
            RandomGenerator.of("L64X128MixRandom"));
    StopSignal stop = new StopSignal();
    for (int i = 0; i < 8; i++) {
      assertThat(b.pause(stop)).isTrue();
    }
    b.reset();
    assertThat(b.pause(stop)).isTrue();
    List<Long> bases = List.of(1L, 2L, 4L, 8L, 16L, 30L, 30L, 30L, 1L);
    List<Duration> sleeps = time.sleeps();
    for (int i = 0; i < bases.size(); i++) {
      Duration base = Duration.ofSeconds(bases.get(i));
      assertThat(sleeps.get(i)).isBetween(base, base.plus(base.dividedBy(2)));
    }
    stop.stop();
    assertThat(b.pause(stop)).isFalse();
  }
}
