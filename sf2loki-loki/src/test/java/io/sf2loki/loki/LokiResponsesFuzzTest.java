package io.sf2loki.loki;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.LogEntry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;

/**
 * Fuzz target: the Loki response classifier (SINK-8) and the body analysis behind the retry / split
 * / drop decision (SINK-10 rule 1 {@code coversAll}, SINK-15 cutoffs, SINK-16 partial acceptance)
 * on hostile status + body pairs. Contract: these are total functions, nothing is thrown; a
 * classification always has a kind, drop kinds carry a reason, and the entries reported as refused
 * are entries of the request. Input layout: a status (int), the request size (0..32) and
 * timestamps, a truncation flag, then the body. Committed inputs replay in the default build
 * (LokiResponsesFuzzTestInputs/); {@code -Pfuzz} fuzzes.
 */
class LokiResponsesFuzzTest {
  private static final Map<String, String> STREAM = Map.of("job", "sf2loki", "event_type", "Login");
  private static final Instant T0 = Instant.parse("2026-11-08T03:30:43.947325032Z");

  @DisplayName("SINK-8/10/16: any status and body classify without throwing")
  @FuzzTest(maxDuration = "30s")
  void sink8_fuzzResponse(FuzzedDataProvider data) {
    int status = data.consumeInt(100, 599);
    int n = data.consumeInt(0, 32);
    List<LogEntry> request = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Instant t = T0.plusMillis(data.consumeInt(-1000, 1000));
      request.add(
          new LogEntry(t, STREAM, "l" + i, null, new CheckpointToken("k", "v" + i), false, 2));
    }
    boolean truncated = data.consumeBoolean();
    String body = data.consumeRemainingAsString();

    LokiResponses.Classification c = LokiResponses.classify(status, body);
    assertThat(c.kind()).isNotNull();
    if (c.kind() == LokiResponses.Kind.SPLITTABLE
        || c.kind() == LokiResponses.Kind.PER_ENTRY
        || c.kind() == LokiResponses.Kind.PERMANENT) {
      assertThat(c.reason()).isNotBlank();
    }
    LokiResponses.coversAll(body, n);
    assertThat(PartialAcceptance.cutoffs(body)).doesNotContainKey(null);
    Optional<List<LogEntry>> refused =
        PartialAcceptance.rejected(body, truncated, request, Set.of(STREAM));
    refused.ifPresent(r -> assertThat(request).containsAll(r));
  }
}
