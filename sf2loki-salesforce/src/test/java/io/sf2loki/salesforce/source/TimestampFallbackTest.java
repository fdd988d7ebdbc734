package io.sf2loki.salesforce.source;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class TimestampFallbackTest {
  private static final Instant NOW = Instant.parse("2024-06-05T12:00:00Z");

  @Test
  @DisplayName("SRC-12: a fallback time is kept unless older than server now - 167 h")
  void src12_floor() {
    Instant floor = NOW.minus(Duration.ofHours(167));
    Instant recent = NOW.minusSeconds(60);
    assertThat(TimestampFallback.floored(recent, NOW)).isEqualTo(recent);
    assertThat(TimestampFallback.floored(floor, NOW)).isEqualTo(floor);
    assertThat(TimestampFallback.floored(floor.minusMillis(1), NOW)).isEqualTo(floor);
    assertThat(TimestampFallback.floored(null, NOW)).isEqualTo(floor);
  }
}
