package io.sf2loki.loki;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.loki.encode.Fixtures;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * SINK-19: the distributor-refusal reader on Loki's grouped validation texts, built from the
 * verbatim templates of {@code loki_errors.md} ({@code %s/%v/%d} filled in, Go's {@code
 * time.RFC3339} times, Prometheus label strings with {@code ", "}).
 */
class DistributorRejectionsTest {
  private static final String DOC =
      new String(Fixtures.resource("loki_errors.md"), StandardCharsets.UTF_8);
  private static final String TOO_OLD = template("entry for stream '%s' has timestamp too old");
  private static final String TOO_NEW = template("entry for stream '%s' has timestamp too new");
  private static final String TOO_LONG = template("max entry size '%d' bytes exceeded");
  private static final String LABEL_NAMES = template("entry for stream '%s' has %d label names");
  private static final Instant T0 = Instant.parse("2026-11-08T03:30:43.947Z");
  private static final Map<String, String> A = Map.of("job", "sf2loki", "event_type", "Login");
  private static final Map<String, String> B = Map.of("job", "sf2loki", "event_type", "API");
  private static final String A_TEXT = "{event_type=\"Login\", job=\"sf2loki\"}";
  private static final String B_TEXT = "{event_type=\"API\", job=\"sf2loki\"}";

  private static String template(String start) {
    int i = DOC.indexOf(start);
    assertThat(i).as("template %s in loki_errors.md", start).isNotNegative();
    int end = DOC.indexOf('`', i);
    return DOC.substring(i, end).strip().replace("%v", "%s").replace("%d", "%s");
  }

  private static String rfc3339(Instant t) {
    return t.truncatedTo(java.time.temporal.ChronoUnit.SECONDS).toString();
  }

  private static String tooOld(String stream, Instant t) {
    return String.format(TOO_OLD, stream, rfc3339(t), "2026-11-01T03:30:43Z");
  }

  private static String tooLong(String stream, int len) {
    return String.format(TOO_LONG, 100, stream, len);
  }

  private static LogEntry entry(Map<String, String> labels, Instant ts, String line) {
    return LogEntry.of(ts, labels, line, Map.of(), new CheckpointToken("k", line));
  }

  @Test
  @DisplayName(
      "SINK-19: grouped too-old, too-new and too-long messages identify exactly their entries;"
          + " the rest is settled")
  void sink19_identifiesEveryKnownReason() {
    LogEntry old1 = entry(A, T0.minus(Duration.ofDays(9)), "o1");
    LogEntry old2 = entry(A, T0.minus(Duration.ofDays(9)).plusMillis(5), "o2"); // same second
    LogEntry fine = entry(A, T0, "fine");
    LogEntry future = entry(B, T0.plus(Duration.ofHours(1)), "n");
    LogEntry longLine = entry(B, T0, "x".repeat(120));
    List<LogEntry> request = List.of(old1, fine, old2, future, longLine);
    String body =
        "2 errors like: "
            + tooOld(A_TEXT, old1.timestamp())
            + "; 1 errors like: "
            + String.format(TOO_NEW, B_TEXT, rfc3339(future.timestamp()))
            + "; 1 errors like: "
            + tooLong(B_TEXT, 120)
            + "\n";
    DistributorRejections.Report r = DistributorRejections.read(body, false, request).orElseThrow();
    assertThat(r.identified())
        .containsOnlyKeys("too_old", "too_new", "line_too_long")
        .containsEntry("too_old", List.of(old1, old2))
        .containsEntry("too_new", List.of(future))
        .containsEntry("line_too_long", List.of(longLine));
    assertThat(r.unidentified()).isEmpty();
    assertThat(r.settled(request)).containsExactly(fine);
  }

  @Test
  @DisplayName("SINK-19: Loki ≤ 3.5's capitalised text is read the same way")
  void sink19_capitalisedText() {
    LogEntry longLine = entry(A, T0, "y".repeat(150));
    List<LogEntry> request = List.of(entry(A, T0, "a"), longLine);
    String body = "M" + tooLong(A_TEXT, 150).substring(1);
    assertThat(DistributorRejections.read(body, false, request).orElseThrow().identified())
        .containsEntry("line_too_long", List.of(longLine));
  }

  @Test
  @DisplayName(
      "SINK-19: an entry too old and too long is claimed by its age (Loki checks it first)")
  void sink19_ageBeforeLength() {
    LogEntry both = entry(A, T0.minus(Duration.ofDays(9)), "z".repeat(130));
    LogEntry longOnly = entry(A, T0, "w".repeat(130));
    List<LogEntry> request = List.of(both, longOnly, entry(A, T0, "ok"));
    String body =
        "1 errors like: "
            + tooOld(A_TEXT, both.timestamp())
            + "; 1 errors like: "
            + tooLong(A_TEXT, 130);
    DistributorRejections.Report r = DistributorRejections.read(body, false, request).orElseThrow();
    assertThat(r.identified().get("too_old")).containsExactly(both);
    assertThat(r.identified().get("line_too_long")).containsExactly(longOnly);
  }

  @Test
  @DisplayName(
      "SINK-19: a per-entry message of unknown reason counts its entries per stream without"
          + " naming them")
  void sink19_unknownReasonCounted() {
    List<LogEntry> request = List.of(entry(A, T0, "a"), entry(A, T0, "b"), entry(B, T0, "c"));
    String body =
        "2 errors like: entry for stream '" + A_TEXT + "' rejected by simulated validation";
    DistributorRejections.Report r = DistributorRejections.read(body, false, request).orElseThrow();
    assertThat(r.identified()).isEmpty();
    assertThat(r.unidentified()).isEqualTo(Map.of(A, 2));
    assertThat(r.unidentifiedCount()).isEqualTo(2);
    assertThat(r.settled(request)).hasSize(3);
  }

  @Test
  @DisplayName(
      "SINK-19: mismatches, per-stream refusals, foreign streams, other texts and truncated bodies"
          + " are not understood (the caller splits)")
  void sink19_notUnderstood() {
    LogEntry a1 = entry(A, T0, "a1");
    LogEntry a2 = entry(A, T0.plusMillis(1), "a2"); // same second as a1
    List<LogEntry> request = List.of(a1, a2);
    List<String> bodies =
        List.of(
            tooOld(A_TEXT, T0), // one message, two entries in that second
            tooOld(B_TEXT, T0), // a stream the request does not hold
            tooLong(A_TEXT, 999), // no entry of that length
            String.format(LABEL_NAMES, A_TEXT, 16, 15), // refuses the whole stream
            "entry for stream '"
                + A_TEXT
                + "' has timestamp too old: soon, oldest acceptable"
                + " timestamp is: later",
            "3 errors like: entry for stream '" + A_TEXT + "' rejected", // more than it holds
            "entry too far behind, entry timestamp is: 2026-11-08T03:30:43Z, oldest acceptable"
                + " timestamp is: 2026-11-08T04:00:00Z",
            "stream '"
                + A_TEXT
                + "' has structured metadata too large: '9' bytes, limit: '1' bytes",
            "bad request",
            "");
    for (String body : bodies) {
      assertThat(DistributorRejections.read(body, false, request)).as(body).isEmpty();
    }
    String fine = "1 errors like: entry for stream '" + A_TEXT + "' rejected";
    assertThat(DistributorRejections.read(fine, false, request)).isPresent();
    assertThat(DistributorRejections.read(fine, true, request)).isEmpty();
  }

  @Test
  @DisplayName("SINK-19: arbitrary bodies never throw (seeded random mutations of real texts)")
  void sink19_hostileBodies() {
    List<LogEntry> request = List.of(entry(A, T0, "a"), entry(B, T0, "b"));
    String seed = "2 errors like: " + tooOld(A_TEXT, T0) + "; 1 errors like: " + tooLong(B_TEXT, 1);
    long s = new Random().nextLong();
    Random r = new Random(s);
    for (int i = 0; i < 2_000; i++) {
      StringBuilder b = new StringBuilder(seed);
      for (int k = r.nextInt(6); k >= 0; k--) {
        int at = r.nextInt(b.length() + 1);
        switch (r.nextInt(3)) {
          case 0 -> b.insert(at, "'};9 {\"=,".charAt(r.nextInt(9)));
          case 1 -> b.delete(at, Math.min(b.length(), at + r.nextInt(8)));
          default -> b.insert(at, "99999999999999999999");
        }
      }
      String body = b.toString();
      try {
        DistributorRejections.read(body, false, request);
      } catch (RuntimeException e) {
        throw new AssertionError("seed " + s + " body " + body, e);
      }
    }
  }
}
