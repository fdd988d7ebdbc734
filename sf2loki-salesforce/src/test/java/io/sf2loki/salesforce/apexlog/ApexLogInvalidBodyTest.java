package io.sf2loki.salesforce.apexlog;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.testing.InMemoryCheckpointStore;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.salesforce.apexlog.ApexLogSource.Outcome;
import io.sf2loki.salesforce.rest.InvalidBodyException;
import io.sf2loki.salesforce.source.SourceContext;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** SRC-28 / APX-6: a 200 that is not the log is never shipped and never advances the cursor. */
class ApexLogInvalidBodyTest {
  private static final Instant NOW = Instant.parse("2024-06-05T12:00:00Z");

  private final FakeTime time = new FakeTime(NOW);
  private final FakeTooling api = new FakeTooling(time::now);
  private final InMemoryCheckpointStore store = new InMemoryCheckpointStore();
  private final ApexTestSupport.Metrics m = new ApexTestSupport.Metrics();
  private final ApexTestSupport.Collector out = new ApexTestSupport.Collector();
  private final StopSignal stop = new StopSignal();

  @AfterEach
  void tearDown() {
    m.close();
  }

  private ApexLogSource source() {
    return new ApexLogSource(
        new ApexLogSettings(
            Duration.ofMinutes(1),
            Duration.ofHours(1),
            List.of(),
            5_242_880L,
            1.0,
            List.of(),
            false),
        api,
        SourceContext.of(time.timeSource(), Runnable::run, m.metrics, store));
  }

  private List<FakeTooling.Log> addLogs(int n) {
    List<FakeTooling.Log> logs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      logs.add(api.add("u@x.com", NOW.minusSeconds(300 - i), "body of log " + i + "\n"));
    }
    return logs;
  }

  private static InvalidBodyException html() {
    return new InvalidBodyException(
        200, InvalidBodyException.Problem.HTML_PAGE, "text/html; charset=UTF-8", 3382L, 1480);
  }

  private static InvalidBodyException size() {
    return new InvalidBodyException(
        200, InvalidBodyException.Problem.SIZE, "text/plain", 3382L, 26);
  }

  @Test
  @DisplayName(
      "SRC-28, APX-6: HTML pages on a body for more polls than the APX-6 skip threshold are never"
          + " shipped, never advance, never skip the body; the real body lands afterwards")
  void htmlPagesNeverSkipTheBody() throws Exception {
    List<FakeTooling.Log> logs = addLogs(2);
    String a = logs.get(0).id();
    int polls = ApexLogSource.FAILING_CYCLES_BEFORE_SKIP + 2;
    InvalidBodyException[] pages = new InvalidBodyException[polls];
    java.util.Arrays.fill(pages, html());
    api.failBody(a, pages);
    ApexLogSource src = source();

    for (int i = 0; i < polls; i++) {
      assertThat(src.pollOnce(out, stop).outcome()).isEqualTo(Outcome.BODY_FAILED);
    }
    assertThat(out.entries()).isEmpty();
    assertThat(store.load(ApexLogSource.KEY)).isEmpty();
    assertThat(src.pollOnce(out, stop).outcome()).isEqualTo(Outcome.CLEAN);

    List<LogEntry> real = out.real();
    assertThat(real).hasSize(2);
    assertThat(real.getFirst().line()).isEqualTo("body of log 0\n");
    assertThat(real.getFirst().structuredMetadata()).doesNotContainKey("body_skipped");
    assertThat(m.counter("sf2loki_apexlog_download_errors", Map.of("reason", "invalid_body")))
        .isEqualTo(polls);
    assertThat(m.counter("sf2loki_apexlog_bodies_skipped", Map.of())).isZero();
  }

  @Test
  @DisplayName(
      "SRC-28, APX-6: a size mismatch is log-specific: the third consecutive poll ships the"
          + " flagged metadata line, never the wrong body")
  void sizeMismatchCountsTowardsTheSkip() throws Exception {
    List<FakeTooling.Log> logs = addLogs(1);
    String a = logs.get(0).id();
    api.failBody(a, size(), size(), size());
    ApexLogSource src = source();

    assertThat(src.pollOnce(out, stop).outcome()).isEqualTo(Outcome.BODY_FAILED);
    assertThat(src.pollOnce(out, stop).outcome()).isEqualTo(Outcome.BODY_FAILED);
    assertThat(out.entries()).isEmpty();
    assertThat(src.pollOnce(out, stop).outcome()).isEqualTo(Outcome.CLEAN);

    LogEntry flagged = out.real().getFirst();
    assertThat(flagged.structuredMetadata())
        .containsEntry("body_skipped", "true")
        .containsEntry("body_skip_reason", "download_error");
    assertThat(flagged.line()).doesNotContain("body of log");
    assertThat(m.counter("sf2loki_apexlog_download_errors", Map.of("reason", "invalid_body")))
        .isEqualTo(3);
  }
}
