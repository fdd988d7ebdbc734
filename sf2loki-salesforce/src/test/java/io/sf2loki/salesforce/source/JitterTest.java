package io.sf2loki.salesforce.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class JitterTest {
  @Test
  @DisplayName("SRC-21: the poll interval is jittered within [0.9, 1.1) of its value")
  void src21_pollJitterBounds() {
    long seed = System.nanoTime();
    RandomGenerator r = RandomGenerator.of("L64X128MixRandom");
    Duration base = Duration.ofSeconds(60);
    boolean below = false;
    boolean above = false;
    for (int i = 0; i < 1000; i++) {
      Duration d = Jitter.poll(base, r);
      assertThat(d).as("seed %d", seed).isBetween(Duration.ofSeconds(54), Duration.ofSeconds(66));
      below |= d.compareTo(base) < 0;
      above |= d.compareTo(base) > 0;
    }
    assertThat(below && above).isTrue();
  }

  @Test
  @DisplayName("PS-14: backoff jitter adds [0, base/2]; u is clamped to [0, 1]")
  void ps14_upToHalf() {
    Duration base = Duration.ofSeconds(2);
    assertThat(Jitter.upToHalf(base, 0.0)).isEqualTo(base);
    assertThat(Jitter.upToHalf(base, 1.0)).isEqualTo(Duration.ofSeconds(3));
    assertThat(Jitter.upToHalf(base, 7.0)).isEqualTo(Duration.ofSeconds(3));
    assertThat(Jitter.upToHalf(base, -1.0)).isEqualTo(base);
    RandomGenerator r = RandomGenerator.of("L64X128MixRandom");
    for (int i = 0; i < 200; i++) {
      assertThat(Jitter.upToHalf(base, r)).isBetween(base, Duration.ofSeconds(3));
    }
    assertThat(Jitter.upToHalf(Duration.ofNanos(1), r)).isEqualTo(Duration.ofNanos(1));
  }
}
