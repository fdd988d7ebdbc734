package io.sf2loki.app.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.core.model.Batch;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.spi.PermanentSinkException;
import io.sf2loki.core.spi.PushResult;
import io.sf2loki.core.spi.RetryableSinkException;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** FEAT-6: one request per tenant, commit semantics unchanged per key. */
class TenantSplitSinkTest {
  private final Fake shared = new Fake();
  private final Fake teamB = new Fake();
  private final TenantSplitSink sink = new TenantSplitSink(shared, Map.of("b", teamB));

  /** A sink that records each part's lines and answers from a script (default: delivered). */
  private static final class Fake implements Sink {
    final List<List<String>> pushed = new ArrayList<>();
    final List<String> mdcOrg = new ArrayList<>();
    final Deque<Exception> script = new ArrayDeque<>();

    @Override
    public PushResult push(Batch batch, boolean singleAttempt, StopSignal stop)
        throws RetryableSinkException, PermanentSinkException {
      pushed.add(batch.realEntries().stream().map(LogEntry::line).toList());
      mdcOrg.add(org.slf4j.MDC.get("org"));
      Exception e = script.poll();
      if (e instanceof RetryableSinkException r) {
        throw r;
      }
      if (e instanceof PermanentSinkException p) {
        throw p;
      }
      return PushResult.delivered(10);
    }
  }

  private static LogEntry entry(String org, String line) {
    return LogEntry.of(
        Instant.parse("2026-12-03T09:00:00Z"),
        Map.of("org", org, "source", "apexlog"),
        line,
        Map.of(),
        new CheckpointToken("org=" + org + ":apexlog", line));
  }

  private static Batch batch() {
    return new Batch(
        List.of(entry("a", "a1"), entry("b", "b1"), entry("a", "a2"), entry("b", "b2")));
  }

  @Test
  @DisplayName("FEAT-6: a batch is split per tenant, one part per identity, order kept in a part")
  void feat6_splitPerTenant() throws Exception {
    PushResult r = sink.push(batch(), false, new StopSignal());
    assertThat(shared.pushed).containsExactly(List.of("a1", "a2"));
    assertThat(teamB.pushed).containsExactly(List.of("b1", "b2"));
    assertThat(r.bodyBytes()).isEqualTo(20);
    assertThat(r.droppedByReason()).isEmpty();
  }

  @Test
  @DisplayName(
      "FEAT-6, ORG-14: a tenant failing retryably fails the attempt; the retry pushes only its part")
  void feat6_retryPushesOnlyUnsettledParts() throws Exception {
    teamB.script.add(new RetryableSinkException("503", 503, null, Duration.ZERO));
    Sink.Delivery d = sink.open(batch());
    assertThatThrownBy(() -> d.push(false, new StopSignal()))
        .isInstanceOf(RetryableSinkException.class);
    PushResult r = d.push(false, new StopSignal());
    assertThat(shared.pushed).hasSize(1);
    assertThat(teamB.pushed).hasSize(2);
    assertThat(r.bodyBytes()).isEqualTo(20);
  }

  @Test
  @DisplayName(
      "FEAT-6, ORG-14, PIPE-8: one tenant's permanent rejection drops only its part (counted by reason);"
          + " when every part is rejected the batch is")
  void feat6_permanentPerPart() throws Exception {
    teamB.script.add(new PermanentSinkException("bad", 400, "bad_request"));
    PushResult r = sink.push(batch(), false, new StopSignal());
    assertThat(r.droppedByReason()).containsExactly(Map.entry("bad_request", 2));
    assertThat(shared.pushed).containsExactly(List.of("a1", "a2"));

    shared.script.add(new PermanentSinkException("bad", 400, "bad_request"));
    teamB.script.add(new PermanentSinkException("bad", 400, "bad_request"));
    assertThatThrownBy(() -> sink.push(batch(), false, new StopSignal()))
        .isInstanceOf(PermanentSinkException.class);
  }

  @Test
  @DisplayName(
      "SINK-20, OBS-39: while a part is pushed its sink's log lines carry org=<the part's orgs>")
  void sink20_partLogsNameTheOrg() throws Exception {
    sink.push(batch(), false, new StopSignal());
    assertThat(shared.mdcOrg).containsExactly("a");
    assertThat(teamB.mdcOrg).containsExactly("b");
    assertThat(org.slf4j.MDC.get("org")).isNull();
  }
}
