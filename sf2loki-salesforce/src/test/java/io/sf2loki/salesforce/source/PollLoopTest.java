package io.sf2loki.salesforce.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class PollLoopTest {
  private final FakeTime time = new FakeTime(Instant.parse("2024-06-05T06:00:00Z"));
  private final StopSignal stop = new StopSignal();

  private PollLoop loop(boolean finite) {
    return new PollLoop(
        Duration.ofSeconds(60), finite, time.sleeper(), RandomGenerator.of("L64X128MixRandom"));
  }

  @Test
  @DisplayName("SRC-21: polls at once, then after each jittered interval until stop")
  void src21_pollsUntilStop() throws Exception {
    AtomicInteger polls = new AtomicInteger();
    loop(false)
        .run(
            stop,
            () -> {
              if (polls.incrementAndGet() == 4) {
                stop.stop();
              }
              return new PollLoop.Poll.Result(false, true);
            });
    assertThat(polls).hasValue(4);
    assertThat(time.sleeps()).hasSize(3);
    assertThat(time.sleeps())
        .allSatisfy(d -> assertThat(d).isBetween(Duration.ofSeconds(54), Duration.ofSeconds(66)));
  }

  @Test
  @DisplayName("SRC-21: a stopped poll ends the loop without a sleep")
  void src21_stoppedPollEnds() throws Exception {
    AtomicInteger polls = new AtomicInteger();
    loop(false)
        .runInterruptibly(
            stop,
            () -> {
              polls.incrementAndGet();
              return new PollLoop.Poll.Result(true, true);
            });
    assertThat(polls).hasValue(1);
    assertThat(time.sleeps()).isEmpty();
  }

  @Test
  @DisplayName("ELF-1: a finite loop polls back to back until a poll makes no progress")
  void elf1_finiteDrains() throws Exception {
    AtomicInteger polls = new AtomicInteger();
    loop(true).run(stop, () -> new PollLoop.Poll.Result(false, polls.incrementAndGet() < 3));
    assertThat(polls).hasValue(3);
    assertThat(time.sleeps()).isEmpty();
  }
}
