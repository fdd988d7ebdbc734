package io.sf2loki.salesforce.pubsub;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.core.time.FakeTime;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ReplayCommitTimesTest {
  private final FakeTime time = new FakeTime(Instant.parse("2026-11-29T12:00:00Z"));
  private final ReplayCommitTimes times = new ReplayCommitTimes(time.wall());

  @Test
  @DisplayName(
      "PS-15: the age of a rejected id is the time since this process committed exactly that"
          + " value; unknown for another value, another topic or a non-pubsub key")
  void ps15_ageOfTheCommittedId() {
    times.committed(Map.of("pubsub:/event/LoginEventStream", "AAE=", "eventlogfile:Login", "{}"));
    time.advance(Duration.ofHours(73));

    assertThat(times.age("/event/LoginEventStream", "AAE=")).contains(Duration.ofHours(73));
    assertThat(times.age("/event/LoginEventStream", "AAI=")).isEmpty();
    assertThat(times.age("/event/ApiEventStream", "AAE=")).isEmpty();
    assertThat(times.age("Login", "{}")).isEmpty();

    times.committed(Map.of("pubsub:/event/LoginEventStream", "AAI="));
    assertThat(times.age("/event/LoginEventStream", "AAE=")).isEmpty(); // replaced
    assertThat(times.age("/event/LoginEventStream", "AAI=")).contains(Duration.ZERO);
  }
}
