package io.sf2loki.loki;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.loki.encode.Fixtures;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * SINK-16: the partial-acceptance parser on Loki's ingester texts, built from the verbatim
 * templates of {@code loki_errors.md} (Go {@code time.Time.String()} timestamps, RFC 3339 reason
 * times, Prometheus label strings with {@code ", "}).
 */
class PartialAcceptanceTest {
  private static final String DOC =
      new String(Fixtures.resource("loki_errors.md"), StandardCharsets.UTF_8);
  private static final String ENTRY_TEMPLATE = template("entry with timestamp %s ignored");
  private static final String TOTAL_TEMPLATE = template("user '%s', total ignored");
  private static final String BEHIND_TEMPLATE =
      template("entry too far behind, entry timestamp is: %s");
  private static final DateTimeFormatter RFC3339 =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);
  private static final Instant T0 = Instant.parse("2026-11-08T03:30:43.947325032Z");
  private static final Map<String, String> A = Map.of("job", "sf2loki", "event_type", "Login");
  private static final Map<String, String> B = Map.of("job", "sf2loki", "event_type", "API");
  private static final CheckpointToken TOKEN = new CheckpointToken("k", "v");

  /** The template line of loki_errors.md that starts with {@code start}, up to its end. */
  private static String template(String start) {
    int i = DOC.indexOf(start);
    assertThat(i).as("template %s in loki_errors.md", start).isNotNegative();
    int end = i;
    while (end < DOC.length() && DOC.charAt(end) != '\n' && DOC.charAt(end) != '`') {
      end++;
    }
    return DOC.substring(i, end).strip();
  }

  private static String goTime(Instant t) {
    String base =
        DateTimeFormatter.ofPattern("uuuu-MM-dd HH:mm:ss").withZone(ZoneOffset.UTC).format(t);
    String frac =
        t.getNano() == 0
            ? ""
            : String.format(Locale.ROOT, ".%09d", t.getNano()).replaceAll("0+$", "");
    return base + frac + " +0000 UTC";
  }

  private static String labels(Map<String, String> l) {
    List<String> parts = new ArrayList<>();
    new java.util.TreeMap<>(l).forEach((k, v) -> parts.add(k + "=\"" + v + "\""));
    return "{" + String.join(", ", parts) + "}";
  }

  /** Loki's ingester body for one stream: listed rejected timestamps, k of n. */
  private static String body(Map<String, String> stream, List<Instant> listed, int k, int n) {
    StringBuilder sb = new StringBuilder();
    Instant cutoff = T0.plusSeconds(3600);
    for (Instant t : listed) {
      String reason = String.format(BEHIND_TEMPLATE, RFC3339.format(t), RFC3339.format(cutoff));
      sb.append(String.format(ENTRY_TEMPLATE, goTime(t), reason)).append('\n');
    }
    sb.append(String.format(TOTAL_TEMPLATE, "fake", k, n, labels(stream)));
    return sb.append('\n').toString();
  }

  private static List<LogEntry> stream(Map<String, String> labels, int n) {
    List<LogEntry> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(LogEntry.of(T0.plusSeconds(60L * i), labels, "line-" + i, Map.of(), TOKEN));
    }
    return out;
  }

  @Test
  @DisplayName("the fixture's templates are the ingester's (sanity of the test's source)")
  void templates() {
    assertThat(ENTRY_TEMPLATE).isEqualTo("entry with timestamp %s ignored, reason: '%s',");
    assertThat(TOTAL_TEMPLATE).isEqualTo("user '%s', total ignored: %d out of %d for stream: %s");
    assertThat(PartialAcceptance.goTime("2021-11-08 03:30:43.947325032 +0000 UTC"))
        .isEqualTo(Instant.parse("2021-11-08T03:30:43.947325032Z"));
    assertThat(PartialAcceptance.goTime("2021-11-08 03:30:43 +0000 UTC"))
        .isEqualTo(Instant.parse("2021-11-08T03:30:43Z"));
    assertThat(PartialAcceptance.goTime("2021-11-08 05:30:43.5 +0200 CEST"))
        .isEqualTo(Instant.parse("2021-11-08T03:30:43.5Z"));
  }

  @Test
  @DisplayName(
      "SINK-16: k ≤ 10 listed entries that account for every ignored one are exactly those")
  void listedAccountForAll() {
    List<LogEntry> req = stream(A, 6);
    String b = body(A, List.of(req.get(0).timestamp(), req.get(2).timestamp()), 2, 6);
    assertThat(PartialAcceptance.rejected(b, false, req, Set.of(A)))
        .hasValueSatisfying(r -> assertThat(r).containsExactly(req.get(0), req.get(2)));
  }

  @Test
  @DisplayName(
      "SINK-16: more than 10 ignored: the 10 listed are the stream's first → the k oldest;"
          + " a gap or a tie at the boundary falls back")
  void prefixBeyondTen() {
    List<LogEntry> req = stream(A, 30);
    List<Instant> first10 = req.subList(0, 10).stream().map(LogEntry::timestamp).toList();
    assertThat(PartialAcceptance.rejected(body(A, first10, 17, 30), false, req, Set.of(A)))
        .hasValueSatisfying(r -> assertThat(r).containsExactlyElementsOf(req.subList(0, 17)));

    List<Instant> notPrefix = new ArrayList<>(first10);
    notPrefix.set(3, req.get(20).timestamp());
    assertThat(PartialAcceptance.rejected(body(A, notPrefix, 17, 30), false, req, Set.of(A)))
        .isEmpty();

    List<LogEntry> tie = new ArrayList<>(req);
    tie.set(17, LogEntry.of(req.get(16).timestamp(), A, "tie", Map.of(), TOKEN));
    assertThat(PartialAcceptance.rejected(body(A, first10, 17, 30), false, tie, Set.of(A)))
        .isEmpty();
  }

  @Test
  @DisplayName(
      "SINK-16: ambiguity falls back: n differs from the stream's count, an unreported untracked"
          + " stream, a duplicate timestamp listed once, other text, a truncated body")
  void ambiguityFallsBack() {
    List<LogEntry> a = stream(A, 4);
    Instant t0 = a.get(0).timestamp();
    // the distributor refused one entry whose error the ingester's replaced
    assertThat(PartialAcceptance.rejected(body(A, List.of(t0), 1, 3), false, a, Set.of(A)))
        .isEmpty();
    List<LogEntry> both = new ArrayList<>(a);
    both.addAll(stream(B, 2));
    assertThat(PartialAcceptance.rejected(body(A, List.of(t0), 1, 4), false, both, Set.of(A, B)))
        .isEmpty();
    // B tracked at send time: it could not have been refused as too far behind
    assertThat(PartialAcceptance.rejected(body(A, List.of(t0), 1, 4), false, both, Set.of(A)))
        .hasValueSatisfying(r -> assertThat(r).containsExactly(a.get(0)));
    List<LogEntry> dup = new ArrayList<>(a);
    dup.add(1, LogEntry.of(t0, A, "same-ts", Map.of(), TOKEN));
    assertThat(PartialAcceptance.rejected(body(A, List.of(t0), 1, 5), false, dup, Set.of(A)))
        .isEmpty();
    String mixed =
        body(A, List.of(t0), 1, 4) + "entry for stream '{a=\"b\"}' has timestamp too new";
    assertThat(PartialAcceptance.rejected(mixed, false, a, Set.of(A))).isEmpty();
    assertThat(PartialAcceptance.rejected(body(A, List.of(t0), 1, 4), true, a, Set.of(A)))
        .isEmpty();
    assertThat(PartialAcceptance.rejected(body(B, List.of(t0), 1, 4), false, a, Set.of()))
        .isEmpty();
  }

  @Test
  @DisplayName("SINK-16: label strings with escapes, with and without a space after commas")
  void labelStrings() {
    assertThat(PartialAcceptance.labels("{a=\"x\", b=\"y\\\"z\\\\\\n\"}"))
        .isEqualTo(Map.of("a", "x", "b", "y\"z\\\n"));
    assertThat(PartialAcceptance.labels("{a=\"x\",b=\"\"}")).isEqualTo(Map.of("a", "x", "b", ""));
    assertThat(PartialAcceptance.labels("{a=x}")).isNull();
    Optional<List<PartialAcceptance.Block>> p = PartialAcceptance.parse(body(A, List.of(T0), 1, 2));
    assertThat(p).hasValueSatisfying(l -> assertThat(l.get(0).labels()).isEqualTo(A));
  }

  @Test
  @DisplayName(
      "SINK-10/16: a count past long in a 400 body means the body does not tell (fuzz find)")
  void countsPastLongDoNotTell() {
    String huge = "1".repeat(35);
    String ingester =
        "user 'fake', total ignored: " + huge + " out of " + huge + " for stream: {a=\"b\"}";
    assertThat(PartialAcceptance.parse(ingester)).isEmpty();
    assertThat(PartialAcceptance.cutoffs(ingester)).isEmpty();
    assertThat(LokiResponses.coversAll(ingester, 1)).isFalse();
    assertThat(LokiResponses.coversAll(huge + " errors like: timestamp too old", 1)).isFalse();
    assertThat(LokiResponses.count(huge)).isEqualTo(-1);
    assertThat(LokiResponses.count("42")).isEqualTo(42);
  }
}
