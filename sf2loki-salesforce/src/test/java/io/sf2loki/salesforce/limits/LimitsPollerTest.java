package io.sf2loki.salesforce.limits;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.status.Redaction;
import io.sf2loki.core.status.SourceStatusBoard;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.salesforce.rest.MalformedResponseException;
import io.sf2loki.salesforce.rest.RestTestSupport;
import io.sf2loki.salesforce.rest.SalesforceException;
import io.sf2loki.salesforce.rest.SoqlException;
import io.sf2loki.salesforce.testing.LogRecorder;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class LimitsPollerTest {
  private static final Duration INTERVAL = Duration.ofMinutes(5);
  private final RestTestSupport.Probe probe = new RestTestSupport.Probe();
  private final FakeTime time = new FakeTime(Instant.parse("2026-01-01T00:00:00Z"));
  private final StopSignal stop = new StopSignal();

  /** One scripted answer: a body or a failure. */
  private sealed interface Answer {}

  private record Body(Map<String, Object> body) implements Answer {}

  private record Failure(SalesforceException e) implements Answer {}

  private record Defect(RuntimeException e) implements Answer {}

  /** Answers in order; stops the loop after the last one. */
  private final class Script implements LimitsPoller.LimitsApi {
    private final Deque<Answer> answers;
    private final List<Instant> calls = new java.util.ArrayList<>();

    Script(Answer... answers) {
      this.answers = new ArrayDeque<>(List.of(answers));
    }

    @Override
    public Map<String, Object> limits() throws SalesforceException {
      calls.add(time.now());
      Answer a = answers.poll();
      if (answers.isEmpty()) {
        stop.stop();
      }
      return switch (a) {
        case Body b -> b.body();
        case Failure f -> throw f.e();
        case Defect d -> throw d.e();
        case null -> throw new AssertionError("polled after the script ended");
      };
    }
  }

  @AfterEach
  void close() {
    probe.close();
  }

  private static Body daily(long max, long remaining) {
    return new Body(
        Map.of(
            "DailyApiRequests",
            Map.of("Max", max, "Remaining", remaining),
            "DataStorageMB",
            Map.of("Max", 5, "Remaining", 4)));
  }

  private LimitsPoller poller(Script api, Optional<ApiReserve> reserve) {
    return new LimitsPoller(api, INTERVAL, probe.metrics, reserve, time.sleeper());
  }

  private double gauge(String name, String limit) {
    return probe.gauge(name, Attributes.of(Sf2lokiMetrics.LIMIT_NAME, limit));
  }

  private long errors() {
    return probe.collect().counter("sf2loki_salesforce_limits_poll_errors", Attributes.empty());
  }

  @Test
  @DisplayName(
      "OBS-12: polls at once, then every poll_interval on the injected clock, and sets"
          + " limit_max/limit_remaining per limit_name")
  void obs12_schedule() throws Exception {
    Script api = new Script(daily(15000, 14000), daily(15000, 13000), daily(15000, 12000));
    poller(api, Optional.empty()).run(stop);

    Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
    assertThat(api.calls).containsExactly(t0, t0.plus(INTERVAL), t0.plus(INTERVAL.multipliedBy(2)));
    assertThat(time.sleeps()).containsExactly(INTERVAL, INTERVAL);
    probe.collect();
    assertThat(gauge("sf2loki_salesforce_limit_max", "DailyApiRequests")).isEqualTo(15000);
    assertThat(gauge("sf2loki_salesforce_limit_remaining", "DailyApiRequests")).isEqualTo(12000);
    assertThat(gauge("sf2loki_salesforce_limit_remaining", "DataStorageMB")).isEqualTo(4);
    assertThat(errors()).isZero();
  }

  @Test
  @DisplayName(
      "OBS-12: a non-JSON 200, an error status, a body without limits and a client defect are"
          + " each counted and logged; the poller keeps polling")
  void obs12_badInputNeverKills() throws Exception {
    Script api =
        new Script(
            new Failure(new MalformedResponseException("malformed response: not JSON", 200)),
            new Failure(new SoqlException("HTTP 500", 500, "UNKNOWN_EXCEPTION", null)),
            new Body(Map.of("message", "nope")),
            new Defect(new IllegalStateException("boom")),
            daily(100, 90));
    poller(api, Optional.empty()).run(stop);

    assertThat(api.calls).hasSize(5);
    assertThat(errors()).isEqualTo(4);
    assertThat(gauge("sf2loki_salesforce_limit_remaining", "DailyApiRequests")).isEqualTo(90);
  }

  @Test
  @DisplayName(
      "OBS-21: each poll feeds the reserve; a failed poll or a body without DailyApiRequests"
          + " keeps the pause as it was (counted as a poll error)")
  void obs21_failedPollKeepsState() throws Exception {
    ApiReserve reserve = new ApiReserve(10, probe.metrics);
    Script api =
        new Script(
            daily(15000, 100),
            new Failure(new SoqlException("HTTP 503", 503, "SERVER_UNAVAILABLE", null)),
            new Body(Map.of("DataStorageMB", Map.of("Max", 5, "Remaining", 4))),
            daily(15000, 14000));
    LimitsPoller p = poller(api, Optional.of(reserve));

    assertThat(p.pollOnce()).isPresent();
    assertThat(reserve.paused()).isTrue();
    assertThat(p.pollOnce()).isEmpty();
    assertThat(reserve.paused()).isTrue();
    assertThat(p.pollOnce()).isEmpty();
    assertThat(reserve.paused()).isTrue();
    assertThat(errors()).isEqualTo(2);
    assertThat(p.pollOnce()).isPresent();
    assertThat(reserve.paused()).isFalse();
  }

  @Test
  @DisplayName("OBS-12: the stop signal ends the interval wait; no poll after stop")
  void obs12_stopAware() throws Exception {
    Script api = new Script(daily(1, 1));
    poller(api, Optional.empty()).run(stop);
    assertThat(api.calls).hasSize(1);
    assertThat(time.sleeps()).isEmpty(); // stopped before the first wait
  }

  @Test
  @DisplayName(
      "OBS-34: a failed poll's WARN shows the error with the reporter's secret and an echoed"
          + " Authorization header masked")
  void obs34_pollFailureLogMasksSecrets() throws Exception {
    Script api =
        new Script(
            new Failure(
                new SoqlException(
                    "HTTP 500: echo s3cr3t-lim; Authorization: Bearer 00Dxx!tok3n",
                    500,
                    null,
                    null)));
    LimitsPoller p =
        poller(api, Optional.empty())
            .reportTo(new SourceStatusBoard(time.wall(), new Redaction(List.of("s3cr3t-lim"))));
    try (LogRecorder logs = LogRecorder.of(LimitsPoller.class)) {
      assertThat(p.pollOnce()).isEmpty();
      assertThat(logs.failures())
          .singleElement()
          .satisfies(
              l ->
                  assertThat(l)
                      .startsWith("salesforce limits poll failed")
                      .contains("error=HTTP 500: echo ***; Authorization: Bearer ***")
                      .doesNotContain("s3cr3t-lim")
                      .doesNotContain("tok3n"));
    }
  }
}
