package io.sf2loki.core.status;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.core.status.SourceStatusBoard.Kind;
import io.sf2loki.core.time.FakeTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class SourceStatusBoardTest {
  private static final Instant START = Instant.parse("2026-12-03T08:00:00Z");
  private static final String KEY = "eventlog_objects:LoginEvent";

  private final FakeTime time = new FakeTime(START);
  private final SourceStatusBoard board =
      new SourceStatusBoard(time.wall(), new Redaction(List.of("s3cr3t-value")));

  @Test
  @DisplayName(
      "FEAT-3, OBS-35: the last poll result is stamped with the fake wall clock; the last error"
          + " (class, message, time) survives a later ok, paused and skipped")
  void obs35_lastPollAndLastError() {
    assertThat(board.get(KEY).lastPoll()).isEmpty();
    board.ok(KEY);
    assertThat(board.get(KEY).lastPoll())
        .contains(new SourceStatusBoard.PollResult(Kind.OK, "", START));

    time.advance(Duration.ofSeconds(30));
    board.failed(KEY, new IllegalStateException("HTTP 500 from query"));
    Instant failedAt = START.plusSeconds(30);
    assertThat(board.get(KEY).lastPoll())
        .contains(new SourceStatusBoard.PollResult(Kind.ERROR, "IllegalStateException", failedAt));

    time.advance(Duration.ofSeconds(30));
    board.paused(KEY);
    assertThat(board.get(KEY).lastPoll().orElseThrow().kind()).isEqualTo(Kind.PAUSED);
    time.advance(Duration.ofSeconds(30));
    board.skipped(KEY);
    time.advance(Duration.ofSeconds(30));
    board.ok(KEY);
    var s = board.get(KEY);
    assertThat(s.lastPoll())
        .contains(new SourceStatusBoard.PollResult(Kind.OK, "", START.plusSeconds(120)));
    assertThat(s.lastError())
        .contains(
            new SourceStatusBoard.LastError(
                "IllegalStateException", "HTTP 500 from query", failedAt));
    assertThat(Kind.PAUSED.label()).isEqualTo("paused");
  }

  @Test
  @DisplayName(
      "FEAT-3, OBS-35: a commit stamps each written key's commit time (Pub/Sub position age);"
          + " only keys with a poll result are listed as polled ids, sorted")
  void obs35_commitTimesAndPolledIds() {
    board.committed(Map.of("pubsub:/event/LoginEventStream", "AAE=", "egress:budget", "{}"));
    time.advance(Duration.ofSeconds(5));
    board.ok("pubsub:/event/LoginEventStream");
    board.skipped("eventlogfile:Login");
    assertThat(board.get("pubsub:/event/LoginEventStream").lastCommitAt()).contains(START);
    assertThat(board.get("pubsub:/event/LoginEventStream").lastPoll()).isPresent();
    assertThat(board.polledIds())
        .containsExactly("eventlogfile:Login", "pubsub:/event/LoginEventStream");
    time.advance(Duration.ofSeconds(5));
    board.committed(Map.of("pubsub:/event/LoginEventStream", "AAI="));
    assertThat(board.get("pubsub:/event/LoginEventStream").lastCommitAt())
        .contains(START.plusSeconds(10));
    assertThat(board.get("pubsub:/event/LoginEventStream").lastPoll()).isPresent();
  }

  @Test
  @DisplayName(
      "FEAT-3, OBS-35: an error message is stored redacted: configured secret values, URL"
          + " passwords, bearer tokens and token=/password= parameters masked, one line, ≤ 200"
          + " chars")
  void obs35_messagesRedacted() {
    board.failed(
        KEY,
        "SoqlException",
        "bad answer\nfrom https://user:pa55word@host/x?access_token=abc123&x=1\r\n"
            + " Authorization: Bearer eyJhbGciOi.payload.sig client_secret=s3cr3t-value"
            + " password: hunter22 and s3cr3t-value again {\"refresh_token\": \"rt-0042\"}");
    String m = board.get(KEY).lastError().orElseThrow().message();
    assertThat(m)
        .doesNotContain("s3cr3t")
        .doesNotContain("pa55word")
        .doesNotContain("abc123")
        .doesNotContain("eyJhbGciOi")
        .doesNotContain("hunter22")
        .doesNotContain("rt-0042")
        .doesNotContain("\n")
        .doesNotContain("\r")
        .startsWith("bad answer from https://***@host/x?access_token=***&x=1")
        .contains("Bearer ***");
    board.failed(KEY, "X", "é".repeat(500));
    String long1 = board.get(KEY).lastError().orElseThrow().message();
    assertThat(long1).hasSize(Redaction.MAX_CHARS).endsWith("…");
    board.failed(KEY, null, null);
    assertThat(board.get(KEY).lastError().orElseThrow())
        .extracting(SourceStatusBoard.LastError::errorClass, SourceStatusBoard.LastError::message)
        .containsExactly("error", "");
  }

  @Test
  @DisplayName(
      "OBS-34, DOC-3: redact() masks the board's secret values and credential-looking parts for a"
          + " log line, folds it to one line and keeps it whole; the NONE reporter masks the"
          + " patterns only")
  void obs34_redactForLogs() {
    String longTail = "x".repeat(Redaction.MAX_CHARS);
    String raw = "HTTP 500 echo s3cr3t-value\nAuthorization: Bearer abc.def token=t0k " + longTail;
    String expected = "HTTP 500 echo *** Authorization: Bearer *** token=*** " + longTail;
    assertThat(board.redact(raw)).isEqualTo(expected);
    assertThat(board.redact(null)).isEmpty();
    assertThat(PollReporter.NONE.redact(raw))
        .contains("s3cr3t-value")
        .contains("Bearer ***")
        .contains("token=***")
        .doesNotContain("abc.def");
  }

  @Test
  @DisplayName(
      "OBS-34: redactError() copies an exception's cause chain for a log event: class names and"
          + " stack traces kept, every message redacted; null stays null")
  void obs34_redactErrorChain() {
    Exception root = new java.io.IOException("echo s3cr3t-value\nAuthorization: Bearer abc");
    IllegalStateException top = new IllegalStateException("GET https://u:pw@host/x", root);
    Throwable r = board.redactError(top);
    assertThat(r).isInstanceOf(Redaction.RedactedException.class);
    assertThat(r.getMessage()).isEqualTo("java.lang.IllegalStateException: GET https://***@host/x");
    assertThat(r.getStackTrace()).isEqualTo(top.getStackTrace());
    assertThat(r.getCause().getMessage())
        .isEqualTo("java.io.IOException: echo *** Authorization: Bearer ***");
    assertThat(r.getCause().getCause()).isNull();
    assertThat(board.redactError(null)).isNull();
    assertThat(PollReporter.NONE.redactError(new RuntimeException()).getMessage())
        .isEqualTo("java.lang.RuntimeException");
  }
}
