package io.sf2loki.core.org;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.Lane;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.spi.EntryEmitter;
import io.sf2loki.core.spi.Source;
import io.sf2loki.core.status.PollReporter;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class OrgSourceTest {
  private static final OrgScope ORG = new OrgScope("eu", "sandbox", false);
  private static final String ID = "00D000000000002AAA";
  private final FakeTime time = new FakeTime(Instant.parse("2026-12-03T10:00:00Z"));
  private final List<LogEntry> lane = Collections.synchronizedList(new ArrayList<>());
  private final EntryEmitter emitter =
      e -> {
        lane.add(e);
        return true;
      };

  /** A failure ORG-6 contains (stands in for the Salesforce module's AuthException). */
  static final class FakeAuthException extends Exception {
    FakeAuthException(String m) {
      super(m);
    }
  }

  static LogEntry real(String key, String value) {
    return LogEntry.of(
        Instant.parse("2026-12-03T09:00:00Z"),
        Map.of("source", "pubsub", "event_type", "LoginEventStream", "org", "inner-must-lose"),
        "line " + value,
        Map.of("k", "v"),
        new CheckpointToken(key, value));
  }

  /** An inner source running one script step: emit entries, then throw or return. */
  private static class Scripted implements Source {
    private final List<LogEntry> entries;
    private final Exception failure;

    Scripted(List<LogEntry> entries, Exception failure) {
      this.entries = entries;
      this.failure = failure;
    }

    @Override
    public String name() {
      return "pubsub";
    }

    @Override
    public Lane lane() {
      return Lane.STREAMING;
    }

    @Override
    public void run(EntryEmitter emitter, StopSignal stop) throws Exception {
      emitter.emitAll(entries);
      if (failure != null) {
        throw failure;
      }
    }
  }

  private OrgSource wrapper(Deque<Source> script, AtomicInteger built) {
    return new OrgSource(
        ORG,
        OrgIdGate.known("eu", ID),
        () -> {
          built.incrementAndGet();
          return script.removeFirst();
        },
        e -> e instanceof FakeAuthException,
        time.sleeper(),
        CommitWait.NONE);
  }

  @Test
  @DisplayName(
      "ORG-3, ORG-4: name and lane kept; identity labels on real entries; every key prefixed")
  void org3_labelsAndKeys() throws Exception {
    LogEntry r = real("pubsub:/event/LoginEventStream", "AAA=");
    LogEntry cp =
        LogEntry.checkpointOnly(new CheckpointToken("pubsub:/event/LoginEventStream", "AAB="));
    Deque<Source> script = new ArrayDeque<>(List.of(new Scripted(List.of(r, cp), null)));
    OrgSource s = wrapper(script, new AtomicInteger());
    assertThat(s.name()).isEqualTo("pubsub");
    assertThat(s.lane()).isEqualTo(Lane.STREAMING);
    s.run(emitter, new StopSignal());
    assertThat(lane).hasSize(2);
    LogEntry out = lane.get(0);
    assertThat(out.labels())
        .containsEntry("org", "eu")
        .containsEntry("environment", "sandbox")
        .containsEntry("sf_org_id", ID)
        .containsEntry("source", "pubsub");
    assertThat(out.line()).isEqualTo(r.line());
    assertThat(out.lineBytes()).isEqualTo(r.lineBytes());
    assertThat(out.structuredMetadata()).isEqualTo(r.structuredMetadata());
    assertThat(out.checkpoint())
        .isEqualTo(new CheckpointToken("org=eu:pubsub:/event/LoginEventStream", "AAA="));
    LogEntry outCp = lane.get(1);
    assertThat(outCp.checkpointOnly()).isTrue();
    assertThat(outCp.labels()).isEmpty();
    assertThat(outCp.checkpoint().key()).isEqualTo("org=eu:pubsub:/event/LoginEventStream");
  }

  @Test
  @DisplayName("ORG-3: entries sharing a token and a label map share the rewritten ones (PIPE-3)")
  void org3_sharedTokenAndLabelsRewrittenOnce() throws Exception {
    CheckpointToken t = new CheckpointToken("eventlogfile:Login", "v");
    Map<String, String> labels = Map.of("source", "eventlogfile");
    LogEntry a = LogEntry.of(Instant.EPOCH, labels, "a", Map.of(), t);
    LogEntry b = LogEntry.of(Instant.EPOCH, labels, "b", Map.of(), t);
    new OrgSource(
            ORG,
            OrgIdGate.known("eu", ID),
            () -> new Scripted(List.of(a, b), null),
            e -> false,
            time.sleeper(),
            CommitWait.NONE)
        .run(emitter, new StopSignal());
    assertThat(lane.get(0).checkpoint()).isSameAs(lane.get(1).checkpoint());
    assertThat(lane.get(0).labels()).isSameAs(lane.get(1).labels());
  }

  @Test
  @DisplayName(
      "ORG-6: an auth failure is contained: backoff 1 s doubling to 30 s, a fresh inner instance"
          + " each time, ERROR per failure")
  void org6_containedWithBackoffAndFreshInstances() throws Exception {
    Deque<Source> script = new ArrayDeque<>();
    for (int i = 0; i < 7; i++) {
      script.add(new Scripted(List.of(), new FakeAuthException("INVALID_SESSION_ID")));
    }
    script.add(new Scripted(List.of(real("apexlog", "1")), null));
    AtomicInteger built = new AtomicInteger();
    OrgSource s = wrapper(script, built);
    try (LogCapture logs = new LogCapture(OrgSource.class)) {
      s.run(emitter, new StopSignal());
      assertThat(logs.levels()).hasSize(7).containsOnly(Level.ERROR);
      assertThat(LogCapture.kv(logs.events().getFirst(), "org")).isEqualTo("eu");
      assertThat(LogCapture.kv(logs.events().getFirst(), "source")).isEqualTo("pubsub");
    }
    assertThat(time.sleeps())
        .extracting(Duration::toSeconds)
        .containsExactly(1L, 2L, 4L, 8L, 16L, 30L, 30L);
    assertThat(built).hasValue(8);
    assertThat(s.restarts()).isEqualTo(7);
    assertThat(lane).extracting(e -> e.checkpoint().key()).containsExactly("org=eu:apexlog");
  }

  @Test
  @DisplayName(
      "FEAT-3, ORG-7: org-id and authentication failures are reported on the org's row, so"
          + " /statusz shows the last error while the org fails")
  void feat3_orgFailuresReported() throws Exception {
    List<String> reported = Collections.synchronizedList(new ArrayList<>());
    PollReporter reporter =
        new PollReporter() {
          @Override
          public void ok(String sourceId) {}

          @Override
          public void failed(String sourceId, String errorClass, String message) {
            reported.add("[" + sourceId + "] " + errorClass + ": " + message);
          }

          @Override
          public void paused(String sourceId) {}

          @Override
          public void skipped(String sourceId) {}
        };
    AtomicInteger lookups = new AtomicInteger();
    OrgIdGate gate =
        new OrgIdGate(
            "eu",
            stop -> {
              if (lookups.incrementAndGet() < 2) {
                throw new FakeAuthException("invalid_grant: expired access/refresh token");
              }
              return ID;
            },
            time.sleeper());
    Deque<Source> script =
        new ArrayDeque<>(
            List.of(
                new Scripted(List.of(), new FakeAuthException("INVALID_SESSION_ID")),
                new Scripted(List.of(), null)));
    new OrgSource(
            ORG,
            gate,
            script::removeFirst,
            e -> e instanceof FakeAuthException,
            time.sleeper(),
            CommitWait.NONE)
        .reportTo(reporter)
        .run(emitter, new StopSignal());
    assertThat(reported)
        .containsExactly(
            "[] auth: invalid_grant: expired access/refresh token", "[] auth: INVALID_SESSION_ID");
  }

  @Test
  @DisplayName("ORG-11: the delay starts again at 1 s after an instance that emitted")
  void org11_backoffResetsAfterProgress() throws Exception {
    Deque<Source> script =
        new ArrayDeque<>(
            List.of(
                new Scripted(List.of(), new FakeAuthException("a")),
                new Scripted(List.of(), new FakeAuthException("b")),
                new Scripted(List.of(real("apexlog", "1")), new FakeAuthException("c")),
                new Scripted(List.of(), null)));
    wrapper(script, new AtomicInteger()).run(emitter, new StopSignal());
    assertThat(time.sleeps()).extracting(Duration::toSeconds).containsExactly(1L, 2L, 1L);
  }

  @Test
  @DisplayName("ORG-6: any other failure escapes and ends the term (PIPE-12)")
  void org6_otherFailuresEscape() {
    Deque<Source> script =
        new ArrayDeque<>(List.of(new Scripted(List.of(), new IllegalStateException("bug"))));
    OrgSource s = wrapper(script, new AtomicInteger());
    assertThatThrownBy(() -> s.run(emitter, new StopSignal()))
        .isInstanceOf(IllegalStateException.class);
    assertThat(time.sleeps()).isEmpty();
  }

  @Test
  @DisplayName("ORG-6: a stop during the backoff ends run without a new instance")
  void org6_stopDuringBackoff() throws Exception {
    StopSignal stop = new StopSignal();
    Deque<Source> script =
        new ArrayDeque<>(List.of(new Scripted(List.of(), new FakeAuthException("x"))));
    AtomicInteger built = new AtomicInteger();
    OrgSource s =
        new OrgSource(
            ORG,
            OrgIdGate.known("eu", ID),
            () -> {
              built.incrementAndGet();
              return script.removeFirst();
            },
            e -> {
              stop.stop(); // the term stops while the failure is handled
              return true;
            },
            time.sleeper(),
            CommitWait.NONE);
    s.run(emitter, stop);
    assertThat(built).hasValue(1);
  }

  @Test
  @DisplayName("ORG-3: the inner source starts only once the org id is resolved")
  void org3_waitsForOrgId() throws Exception {
    AtomicInteger lookups = new AtomicInteger();
    OrgIdGate gate =
        new OrgIdGate(
            "eu",
            stop -> {
              if (lookups.incrementAndGet() < 3) {
                throw new FakeAuthException("userinfo endpoint HTTP 503");
              }
              return ID;
            },
            time.sleeper());
    List<String> order = Collections.synchronizedList(new ArrayList<>());
    Source inner =
        new Scripted(List.of(real("apexlog", "1")), null) {
          @Override
          public void run(EntryEmitter e, StopSignal stop) throws Exception {
            order.add("inner started after " + lookups.get() + " lookups");
            super.run(e, stop);
          }
        };
    new OrgSource(ORG, gate, () -> inner, e -> false, time.sleeper(), CommitWait.NONE)
        .run(emitter, new StopSignal());
    assertThat(order).containsExactly("inner started after 3 lookups");
    assertThat(lane.getFirst().labels()).containsEntry("sf_org_id", ID);
  }

  @Test
  @DisplayName("ORG-3: a stop while the org id is unknown ends run before the inner source starts")
  void org3_stopWhileResolving() throws Exception {
    StopSignal stop = new StopSignal();
    OrgIdGate gate =
        new OrgIdGate(
            "eu",
            s -> {
              stop.stop();
              throw new FakeAuthException("stopped");
            },
            time.sleeper());
    AtomicInteger ran = new AtomicInteger();
    Source inner =
        new Scripted(List.of(), null) {
          @Override
          public void run(EntryEmitter e, StopSignal s) {
            ran.incrementAndGet();
          }
        };
    new OrgSource(ORG, gate, () -> inner, e -> false, time.sleeper(), CommitWait.NONE)
        .run(emitter, stop);
    assertThat(ran).hasValue(0);
    assertThat(gate.resolved()).isNull();
  }
}
