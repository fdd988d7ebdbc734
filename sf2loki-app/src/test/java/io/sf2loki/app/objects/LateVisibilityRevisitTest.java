package io.sf2loki.app.objects;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.shape.TimestampParser;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.salesforce.apexlog.ApexLogSettings;
import io.sf2loki.salesforce.apexlog.ApexLogSource;
import io.sf2loki.salesforce.objects.EventLogObjectSource;
import io.sf2loki.salesforce.objects.ObjectSettings;
import io.sf2loki.salesforce.revisit.RevisitSettings;
import io.sf2loki.salesforce.source.SourceContext;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Issue 10 part 3: rows and ApexLogs that become queryable 5–20 minutes after their timestamp, with
 * the default settle window, against the simulated org on a fake clock (SPEC OBJ-13…OBJ-17,
 * APX-10).
 */
class LateVisibilityRevisitTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String LH = "LoginHistory";
  private static final String LE = "LoginEvent";
  private static final String USER = "integration@example.com";

  private ObjectHarness h;
  private final Map<String, Set<String>> expected = new HashMap<>();
  private final Map<String, Integer> late = new HashMap<>();

  @BeforeEach
  void setUp() throws Exception {
    h = new ObjectHarness();
    h.org.objects().defineObject(LH, "LoginTime");
    h.org.objects().defineBigObject(LE);
  }

  @AfterEach
  void tearDown() {
    h.close();
  }

  private static ObjectSettings loginHistory(RevisitSettings r) {
    return ObjectSettings.defaults(LH, false).withTimestampField("LoginTime").withRevisit(r);
  }

  private static ObjectSettings loginEvent(RevisitSettings r) {
    return ObjectSettings.defaults(LE, true).withRevisit(r);
  }

  private ApexLogSource apexSource(RevisitSettings r) {
    return new ApexLogSource(
        ApexLogSettings.defaults(List.of()).withRevisit(r),
        h.tooling,
        SourceContext.of(h.time.timeSource(), Runnable::run, h.metrics, h.store));
  }

  /** One minute of data: 5 on-time rows per object and log, plus 2 late ones when asked. */
  private void minute(int cycle, boolean withLate) {
    Instant now = h.time.now();
    for (int i = 0; i < 5; i++) {
      Instant ts = now.minusSeconds(7L * i);
      expect(LH, h.org.objects().add(LH, ts, Map.of()).id());
      expect(LE, (String) h.org.objects().add(LE, ts, Map.of()).get("EventIdentifier"));
      expect("apexlog", h.org.apexLogs().add(USER, ts, "on time " + cycle + "/" + i).id());
    }
    if (!withLate) {
      return;
    }
    for (int i = 0; i < 2; i++) {
      Instant ts = now.minusSeconds(30L + i);
      Duration lag = Duration.ofMinutes(5 + (cycle * 7L + i * 4L) % 16); // 5 … 20 min
      expect(LH, h.org.objects().add(LH, ts, lag, Map.of()).id());
      expect(LE, (String) h.org.objects().add(LE, ts, lag, Map.of()).get("EventIdentifier"));
      expect("apexlog", h.org.apexLogs().addLate(USER, ts, lag, "late " + cycle + "/" + i).id());
      late.merge(LH, 1, Integer::sum);
      late.merge(LE, 1, Integer::sum);
      late.merge("apexlog", 1, Integer::sum);
    }
  }

  private void expect(String object, String key) {
    expected.computeIfAbsent(object, k -> new HashSet<>()).add(key);
  }

  private void pollAll(EventLogObjectSource objects, ApexLogSource apex) throws Exception {
    h.poll(objects, LH);
    h.poll(objects, LE);
    StopSignal stop = new StopSignal();
    apex.pollOnce(
        e -> {
          h.entries.add(e);
          h.store.commitMany(
              Map.of(e.checkpoint().key(), e.checkpoint().value()), java.util.Set.of());
          return true;
        },
        stop);
  }

  /** Shipped keys per object (Id, EventIdentifier, ApexLog Id), with repeats. */
  private Map<String, List<String>> shipped() throws Exception {
    Map<String, List<String>> out = new HashMap<>();
    for (LogEntry e : h.real()) {
      String type = e.labels().get("event_type");
      String key;
      if (type.equals("apexlog")) {
        key = e.structuredMetadata().get("Id");
      } else {
        JsonNode n = JSON.readTree(e.line());
        key = n.path(type.equals(LE) ? "EventIdentifier" : "Id").asText();
      }
      out.computeIfAbsent(type, k -> new ArrayList<>()).add(key);
    }
    return out;
  }

  private long listings(String prefix, int from) {
    synchronized (h.queries) {
      return h.queries.subList(from, h.queries.size()).stream()
          .filter(q -> q.startsWith(prefix))
          .count();
    }
  }

  private static Attributes attrs(String source, String object) {
    return Attributes.of(Sf2lokiMetrics.SOURCE, source, Sf2lokiMetrics.OBJECT, object);
  }

  @Test
  @DisplayName(
      "OBJ-13, OBJ-14, OBJ-16, APX-10: rows and ApexLogs visible 5–20 min late, default settle"
          + " window: 0 lost, 0 duplicated, each recovered row counted; when nothing is late, one"
          + " listing query per object per revisit_interval and no fetch")
  void obj13_lateRowsRecoveredExactlyOnce() throws Exception {
    EventLogObjectSource objects =
        h.source(loginHistory(RevisitSettings.DEFAULTS), loginEvent(RevisitSettings.DEFAULTS));
    ApexLogSource apex = apexSource(RevisitSettings.DEFAULTS);
    for (int cycle = 0; cycle < 60; cycle++) { // 40 minutes of data, 20 to let the tail surface
      if (cycle < 40) {
        minute(cycle, cycle % 3 == 0);
      }
      pollAll(objects, apex);
      h.time.advance(Duration.ofMinutes(1));
    }
    Map<String, List<String>> got = shipped();
    for (String object : List.of(LH, LE, "apexlog")) {
      assertThat(got.get(object)).as(object).doesNotHaveDuplicates();
      assertThat(new HashSet<>(got.get(object)))
          .as(object)
          .containsExactlyInAnyOrderElementsOf(expected.get(object));
    }
    assertThat(late.get(LH)).isEqualTo(28);
    // every late row was passed by the watermark and recovered by the revisit
    assertThat(h.counter("sf2loki_late_rows_recovered", attrs("eventlog_objects", LH)))
        .isEqualTo(28);
    assertThat(h.counter("sf2loki_late_rows_recovered", attrs("eventlog_objects", LE)))
        .isEqualTo(28);
    assertThat(h.counter("sf2loki_late_rows_recovered", attrs("apexlog", "apexlog"))).isEqualTo(28);
    // OBJ-16: a recovered row never moves a watermark backwards
    Map<String, Instant> lastTs = new HashMap<>();
    for (LogEntry e : h.entries) {
      Instant ts =
          TimestampParser.parseOrNull(
              JSON.readTree(e.checkpoint().value()).get("last_ts").asText());
      Instant prev = lastTs.put(e.checkpoint().key(), ts);
      assertThat(prev == null || !ts.isBefore(prev)).as(e.checkpoint().key()).isTrue();
    }

    // 30 quiet minutes (on-time rows only): ≤ 1 listing per object per 5 min, no fetch
    int mark = h.queries.size();
    for (int cycle = 0; cycle < 30; cycle++) {
      minute(100 + cycle, false);
      pollAll(objects, apex);
      h.time.advance(Duration.ofMinutes(1));
    }
    assertThat(listings("SELECT Id, LoginTime FROM LoginHistory", mark)).isBetween(5L, 6L);
    assertThat(listings("SELECT EventDate, EventIdentifier FROM LoginEvent", mark))
        .isBetween(5L, 6L);
    assertThat(listings("SELECT Id, StartTime FROM ApexLog", mark)).isBetween(5L, 6L);
    assertThat(listings("SELECT FIELDS(ALL) FROM LoginHistory WHERE Id IN", mark)).isZero();
    assertThat(listings("SELECT FIELDS(ALL) FROM LoginEvent WHERE EventDate =", mark)).isZero();
    assertThat(
            listings(
                "SELECT Id, LogUserId, LogLength, Operation, Request, Status, StartTime,"
                    + " Application, DurationMilliseconds, Location FROM ApexLog WHERE Id IN",
                mark))
        .isZero();
    pollAll(objects, apex); // the last minute settles
    got = shipped();
    for (String object : List.of(LH, LE, "apexlog")) {
      assertThat(got.get(object)).as(object).doesNotHaveDuplicates();
      assertThat(new HashSet<>(got.get(object)))
          .as(object)
          .containsExactlyInAnyOrderElementsOf(expected.get(object));
    }
  }

  @Test
  @DisplayName(
      "OBJ-14: revisit_window 0 switches the revisit off: no revisit query, and rows visible"
          + " later than settle_window are passed (the loss the revisit repairs)")
  void obj14_offLosesLateRows() throws Exception {
    EventLogObjectSource objects =
        h.source(loginHistory(RevisitSettings.OFF), loginEvent(RevisitSettings.OFF));
    ApexLogSource apex = apexSource(RevisitSettings.OFF);
    for (int cycle = 0; cycle < 40; cycle++) {
      if (cycle < 20) {
        minute(cycle, cycle % 3 == 0);
      }
      pollAll(objects, apex);
      h.time.advance(Duration.ofMinutes(1));
    }
    Map<String, List<String>> got = shipped();
    for (String object : List.of(LH, LE, "apexlog")) {
      assertThat(expected.get(object).size() - got.get(object).size())
          .as(object)
          .isEqualTo(late.get(object));
    }
    assertThat(listings("SELECT Id, LoginTime", 0)).isZero();
    assertThat(listings("SELECT EventDate, EventIdentifier", 0)).isZero();
    assertThat(listings("SELECT Id, StartTime", 0)).isZero();
  }

  @Test
  @DisplayName(
      "OBJ-17, SRC-13: a new term (empty memory) re-ships the rows of the window once, byte for"
          + " byte identical with the same timestamp, and its checkpoint never goes backwards")
  void obj17_newTermReshipsIdentically() throws Exception {
    EventLogObjectSource first = h.source(loginHistory(RevisitSettings.DEFAULTS));
    for (int cycle = 0; cycle < 10; cycle++) {
      minute(cycle, false);
      h.poll(first, LH);
      h.time.advance(Duration.ofMinutes(1));
    }
    h.poll(first, LH); // the last minute settles: the next term's main path finds nothing new
    List<LogEntry> before = new ArrayList<>(h.real());
    String committed = h.store.load("eventlog_objects:LoginHistory").orElseThrow();
    h.entries.clear();

    EventLogObjectSource second = h.source(loginHistory(RevisitSettings.DEFAULTS)); // new term
    h.poll(second, LH);
    List<LogEntry> again = h.real();
    assertThat(again).hasSizeGreaterThan(40); // the window's rows below the watermark
    Map<String, LogEntry> byLine = new HashMap<>();
    before.forEach(e -> byLine.put(e.line(), e));
    for (LogEntry e : again) {
      LogEntry old = byLine.get(e.line());
      assertThat(old).as("re-shipped row was shipped before, byte-identical").isNotNull();
      assertThat(e.timestamp()).isEqualTo(old.timestamp());
      assertThat(e.labels()).isEqualTo(old.labels());
      // the recovered row carries the term's current checkpoint: the committed one
      assertThat(e.checkpoint().value()).isEqualTo(committed);
    }
  }

  @Test
  @DisplayName(
      "APX-10, APX-6: a transient body failure of a recovered log ends the revisit without"
          + " shipping it; the next revisit ships it once, with the unchanged cursor")
  void apx10_bodyFailureRetriedByNextRevisit() throws Exception {
    ApexLogSource apex = apexSource(RevisitSettings.DEFAULTS);
    Instant now = h.time.now();
    h.org.apexLogs().add(USER, now.minusSeconds(60), "on time");
    var lateLog =
        h.org.apexLogs().addLate(USER, now.minusSeconds(600), Duration.ofMinutes(11), "late");
    apex.pollOnce(h::accept, new StopSignal()); // the listing path ships the on-time log
    h.time.advance(Duration.ofMinutes(2)); // the late log is visible now, behind the cursor
    h.org.apexLogs().failBody(lateLog.id(), io.sf2loki.sim.org.Fault.status(500).times(1));
    h.time.advance(Duration.ofMinutes(3)); // the revisit is due again (5 m since the first)
    String cursor = h.store.load("apexlog").orElseThrow();
    assertThat(apex.pollOnce(h::accept, new StopSignal()).outcome())
        .isEqualTo(ApexLogSource.Outcome.BODY_FAILED);
    assertThat(shipped().get("apexlog"))
        .containsExactly(h.real().getFirst().structuredMetadata().get("Id"));
    assertThat(apex.pollOnce(h::accept, new StopSignal()).outcome())
        .isEqualTo(ApexLogSource.Outcome.CLEAN); // within the interval: no revisit
    h.time.advance(Duration.ofMinutes(5));
    assertThat(apex.pollOnce(h::accept, new StopSignal()).outcome())
        .isEqualTo(ApexLogSource.Outcome.CLEAN);
    assertThat(shipped().get("apexlog")).containsOnlyOnce(lateLog.id()).hasSize(2);
    LogEntry recovered = h.real().getLast();
    assertThat(recovered.line()).isEqualTo("late");
    assertThat(recovered.checkpoint().value()).isEqualTo(cursor);
  }

  @Test
  @DisplayName(
      "OBJ-13, OBJ-5: an ordinary object whose rows carry placeholder Ids is revisited on its"
          + " tiebreak field (selected in the listing, IN on it in the fetch)")
  void obj13_placeholderIdObjectRevisitedByTiebreak() throws Exception {
    h.org.objects().defineObject("AuraRequestEventLog", "Timestamp");
    ObjectSettings aura =
        ObjectSettings.defaults("AuraRequestEventLog", false)
            .withTimestampField("Timestamp")
            .withRevisit(RevisitSettings.DEFAULTS);
    EventLogObjectSource src = h.source(aura);
    Instant now = h.time.now();
    Map<String, Object> placeholder = Map.of("Id", "000000000000000AAA");
    h.org.objects().add("AuraRequestEventLog", now.minusSeconds(120), placeholder);
    var late =
        h.org
            .objects()
            .add("AuraRequestEventLog", now.minusSeconds(600), Duration.ofMinutes(11), placeholder);
    h.poll(src, "AuraRequestEventLog");
    h.time.advance(Duration.ofMinutes(5));
    h.poll(src, "AuraRequestEventLog");
    List<String> keys = new ArrayList<>();
    for (LogEntry e : h.real()) {
      keys.add(JSON.readTree(e.line()).get("EventIdentifier").asText());
    }
    assertThat(keys).hasSize(2).containsOnlyOnce((String) late.get("EventIdentifier"));
    assertThat(h.queries)
        .anySatisfy(
            q ->
                assertThat(q)
                    .startsWith("SELECT Id, Timestamp, EventIdentifier FROM AuraRequestEventLog"))
        .anySatisfy(
            q ->
                assertThat(q)
                    .startsWith(
                        "SELECT FIELDS(ALL) FROM AuraRequestEventLog WHERE EventIdentifier IN ("));
  }
}
