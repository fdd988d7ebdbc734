package io.sf2loki.core.org;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class OrgIdGateTest {
  private final FakeTime time = new FakeTime(Instant.parse("2026-12-03T10:00:00Z"));

  @Test
  @DisplayName(
      "ORG-3: resolution retries 1 s doubling to 30 s; WARN on the first failure, ERROR on every"
          + " tenth")
  void org3_backoffAndLogLevels() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    OrgIdGate gate =
        new OrgIdGate(
            "eu",
            stop -> {
              if (calls.incrementAndGet() <= 21) {
                throw new IllegalStateException("token endpoint HTTP 400: invalid_grant");
              }
              return "00D000000000002";
            },
            time.sleeper());
    try (LogCapture logs = new LogCapture(OrgIdGate.class)) {
      assertThat(gate.await(new StopSignal())).isEqualTo("00D000000000002");
      assertThat(logs.levels()).containsExactly(Level.WARN, Level.ERROR, Level.ERROR);
      assertThat(logs.events())
          .extracting(e -> LogCapture.kv(e, "attempt"))
          .containsExactly(1, 10, 20);
      assertThat(LogCapture.kv(logs.events().getFirst(), "org")).isEqualTo("eu");
      assertThat(String.valueOf(LogCapture.kv(logs.events().getFirst(), "error")))
          .contains("invalid_grant");
    }
    assertThat(time.sleeps())
        .hasSize(21)
        .startsWith(
            Duration.ofSeconds(1),
            Duration.ofSeconds(2),
            Duration.ofSeconds(4),
            Duration.ofSeconds(8),
            Duration.ofSeconds(16),
            Duration.ofSeconds(30),
            Duration.ofSeconds(30));
    assertThat(time.sleeps()).allMatch(d -> d.compareTo(Duration.ofSeconds(30)) <= 0);
  }

  @Test
  @DisplayName("ORG-9: one resolution per org; later callers get the cached id without a lookup")
  void org9_cachedForTheProcess() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    OrgIdGate gate =
        new OrgIdGate(
            "eu",
            stop -> {
              calls.incrementAndGet();
              return "00D000000000002";
            },
            time.sleeper());
    gate.await(new StopSignal());
    gate.await(new StopSignal());
    assertThat(calls).hasValue(1);
    assertThat(gate.resolved()).isEqualTo("00D000000000002");
  }

  @Test
  @DisplayName("ORG-9: concurrent callers of one org share one resolution")
  void org9_concurrentCallersShare() throws Exception {
    AtomicInteger calls = new AtomicInteger();
    java.util.concurrent.CountDownLatch entered = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    OrgIdGate gate =
        new OrgIdGate(
            "eu",
            stop -> {
              calls.incrementAndGet();
              entered.countDown();
              release.await();
              return "00D000000000002";
            },
            time.sleeper());
    String[] got = new String[2];
    Thread a = Thread.ofVirtual().start(() -> got[0] = awaitQuietly(gate));
    entered.await();
    Thread b = Thread.ofVirtual().start(() -> got[1] = awaitQuietly(gate));
    release.countDown();
    a.join();
    b.join();
    assertThat(got).containsExactly("00D000000000002", "00D000000000002");
    assertThat(calls).hasValue(1);
  }

  private static String awaitQuietly(OrgIdGate gate) {
    try {
      return gate.await(new StopSignal());
    } catch (InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }
}
