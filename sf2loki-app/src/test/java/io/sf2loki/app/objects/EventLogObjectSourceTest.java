package io.sf2loki.app.objects;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.salesforce.objects.EventLogObjectSource;
import io.sf2loki.salesforce.objects.EventLogObjectSource.Outcome;
import io.sf2loki.salesforce.objects.EventLogObjectSource.PollResult;
import io.sf2loki.salesforce.objects.ObjectSettings;
import io.sf2loki.sim.org.Fault;
import io.sf2loki.sim.org.SimEndpoint;
import io.sf2loki.sim.org.SimObjectRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The SOQL object source against the simulated org over loopback (SPEC §5 OBJ, FEAT-18). */
class EventLogObjectSourceTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Instant NOW = ObjectHarness.NOW;

  private ObjectHarness h;

  @BeforeEach
  void setUp() throws Exception {
    h = new ObjectHarness();
    h.org.objects().defineObject("LoginHistory", "LoginTime");
    h.org.objects().defineBigObject("LoginEvent");
  }

  @AfterEach
  void tearDown() {
    h.close();
  }

  private static ObjectSettings loginHistory() {
    return ObjectSettings.defaults("LoginHistory", false)
        .withTimestampField("LoginTime")
        .withSettleWindow(Duration.ZERO);
  }

  private static ObjectSettings loginEvent(long maxRecords) {
    return new ObjectSettings(
        "LoginEvent",
        "EventDate",
        Duration.ofMinutes(5),
        Duration.ofDays(2),
        Duration.ZERO,
        1.0,
        true,
        maxRecords,
        0,
        "EventIdentifier");
  }

  private List<String> field(List<LogEntry> entries, String name) throws Exception {
    List<String> out = new ArrayList<>();
    for (LogEntry e : entries) {
      JsonNode n = JSON.readTree(e.line());
      out.add(n.path(name).asText());
    }
    return out;
  }

  // ------------------------------------------------------------------ ASC path

  @Test
  @DisplayName(
      "OBJ-3, OBJ-4, OBJ-9: 500 rows sharing one timestamp across pages are delivered exactly once"
          + " with a one-Id window; one listing query per page")
  void ascTieGroupExactlyOnce() throws Exception {
    Instant t = NOW.minusSeconds(600);
    List<SimObjectRecord> tie = h.org.objects().addTieGroup("LoginHistory", t, 500);
    h.org.objects().addSeries("LoginHistory", t.plusSeconds(1), Duration.ofSeconds(1), 20);
    EventLogObjectSource src = h.source(loginHistory());

    PollResult r = h.poll(src, "LoginHistory");

    assertThat(r.outcome()).isEqualTo(Outcome.OK);
    List<String> ids = field(h.real(), "Id");
    assertThat(ids).hasSize(520).doesNotHaveDuplicates();
    assertThat(ids.subList(0, 500))
        .containsExactlyElementsOf(tie.stream().map(SimObjectRecord::id).toList());
    // 520 rows: pages of 200, 200, 120 — one query call per page, no queryMore
    assertThat(h.queries).hasSize(3);
    assertThat(h.org.callCount(SimEndpoint.QUERY)).isEqualTo(3);
    assertThat(h.org.callCount(SimEndpoint.QUERY_MORE)).isZero();
    assertThat(h.queries.get(1))
        .contains(
            "(LoginTime > 2024-05-01T11:50:00.000Z OR (LoginTime = 2024-05-01T11:50:00.000Z"
                + " AND Id > '"
                + tie.get(199).id()
                + "'))")
        .contains("ORDER BY LoginTime ASC, Id ASC LIMIT 200");
    JsonNode cp = JSON.readTree(h.store.load("eventlog_objects:LoginHistory").orElseThrow());
    assertThat(cp.get("ids")).hasSize(1);
    assertThat(cp.get("last_ts").asText()).isEqualTo("2024-05-01T11:50:20.000+0000");
    // next poll: nothing new, nothing re-sent
    h.poll(src, "LoginHistory");
    assertThat(h.real()).hasSize(520);
  }

  @Test
  @DisplayName("OBJ-3, OBJ-9: a restart between pages re-sends none of the committed rows")
  void ascRestartBetweenPages() throws Exception {
    Instant t = NOW.minusSeconds(600);
    h.org.objects().addTieGroup("LoginHistory", t, 500);
    h.poll(h.source(loginHistory()), "LoginHistory", 250); // the term ends after 250 entries
    assertThat(h.real()).hasSize(250);
    // new term: a fresh source reads the committed cursor
    h.poll(h.source(loginHistory()), "LoginHistory");
    List<String> ids = field(h.real(), "Id");
    assertThat(ids).hasSize(500).doesNotHaveDuplicates();
  }

  @Test
  @DisplayName(
      "OBJ-6: rows that become visible up to settle_window after their timestamp are delivered"
          + " exactly once")
  void lateVisibilityWithinSettleWindow() throws Exception {
    ObjectSettings o = loginHistory().withSettleWindow(Duration.ofMinutes(2));
    EventLogObjectSource src = h.source(o);
    Set<String> expected = new HashSet<>();
    // 30 one-minute cycles; each minute 5 rows arrive whose visibility lags 0…120 s
    for (int cycle = 0; cycle < 30; cycle++) {
      for (int i = 0; i < 5; i++) {
        Instant ts = h.time.now().minusSeconds(i * 10L);
        Duration lag = Duration.ofSeconds(i * 30L); // 0 … 120 s
        expected.add(h.org.objects().add("LoginHistory", ts, lag, Map.of()).id());
      }
      h.poll(src, "LoginHistory");
      h.time.advance(Duration.ofMinutes(1));
    }
    for (int i = 0; i < 4; i++) { // let the tail settle
      h.poll(src, "LoginHistory");
      h.time.advance(Duration.ofMinutes(1));
    }
    List<String> ids = field(h.real(), "Id");
    assertThat(ids).doesNotHaveDuplicates();
    assertThat(new HashSet<>(ids)).isEqualTo(expected);
    assertThat(h.queries).allSatisfy(q -> assertThat(q).contains("AND LoginTime <= "));
  }

  @Test
  @DisplayName("OBJ-6: a row visible later than settle_window after its timestamp can be passed")
  void lateBeyondSettleWindowIsPassed() throws Exception {
    EventLogObjectSource src = h.source(loginHistory().withSettleWindow(Duration.ofMinutes(1)));
    h.org.objects().add("LoginHistory", NOW.minusSeconds(120), Duration.ofMinutes(10), Map.of());
    h.org.objects().add("LoginHistory", NOW.minusSeconds(90), Map.of());
    h.poll(src, "LoginHistory");
    h.time.advance(Duration.ofMinutes(11));
    h.poll(src, "LoginHistory");
    assertThat(h.real()).hasSize(1); // documented bound: the operator raises the window
  }

  @Test
  @DisplayName(
      "OBJ-4: a placeholder-Id tie group larger than a page stalls: WARN first, then ERROR and"
          + " sf2loki_watermark_stalls on the repeat")
  void placeholderStall() throws Exception {
    h.org.objects().defineObject("AuraRequestEventLog", "Timestamp");
    for (int i = 0; i < 250; i++) {
      h.org
          .objects()
          .add("AuraRequestEventLog", NOW.minusSeconds(300), Map.of("Id", "000000000000000AAA"));
    }
    ObjectSettings o =
        ObjectSettings.defaults("AuraRequestEventLog", false)
            .withTimestampField("Timestamp")
            .withSettleWindow(Duration.ZERO);
    EventLogObjectSource src = h.source(o);
    h.poll(src, "AuraRequestEventLog");
    assertThat(h.real()).hasSize(200);
    assertThat(h.queries).allSatisfy(q -> assertThat(q).doesNotContain("Id >"));
    assertThat(h.counter("sf2loki_watermark_stalls", ObjectHarness.objAttrs("AuraRequestEventLog")))
        .isZero();
    h.poll(src, "AuraRequestEventLog");
    assertThat(h.counter("sf2loki_watermark_stalls", ObjectHarness.objAttrs("AuraRequestEventLog")))
        .isEqualTo(1);
    assertThat(h.real()).hasSize(200); // window of every key at the instant: nothing re-sent
    JsonNode cp = JSON.readTree(h.store.load("eventlog_objects:AuraRequestEventLog").orElseThrow());
    assertThat(cp.get("ids")).hasSize(200);
  }

  // ------------------------------------------------------------------ DESC path

  @Test
  @DisplayName(
      "OBJ-5, OBJ-8: 50,000 Big Object rows with max_catchup_records 10000 are caught up ascending"
          + " over 5 cycles without gaps or duplicates; no ASC query is sent")
  void bigObjectCatchUp() throws Exception {
    h.close();
    h = new ObjectHarness(true);
    h.org.objects().defineBigObject("LoginEvent");
    List<SimObjectRecord> rows =
        h.org
            .objects()
            .addSeries(
                "LoginEvent", NOW.minus(Duration.ofHours(20)), Duration.ofSeconds(1), 50_000);
    EventLogObjectSource src = h.source(loginEvent(10_000));
    List<List<String>> slices = new ArrayList<>();
    for (int cycle = 0; cycle < 5; cycle++) {
      int before = h.real().size();
      PollResult r = h.poll(src, "LoginEvent");
      assertThat(r.outcome()).isEqualTo(Outcome.OK);
      slices.add(field(h.real().subList(before, h.real().size()), "EventIdentifier"));
    }
    List<String> expected = rows.stream().map(r -> (String) r.get("EventIdentifier")).toList();
    for (int i = 0; i < 5; i++) {
      assertThat(slices.get(i))
          .containsExactlyElementsOf(expected.subList(i * 10_000, (i + 1) * 10_000));
    }
    List<String> ts = field(h.real(), "EventDate");
    assertThat(ts).isSorted();
    int before = h.real().size();
    h.poll(src, "LoginEvent");
    assertThat(h.real()).hasSize(before);
    assertThat(h.queries)
        .allSatisfy(
            q -> {
              assertThat(q).doesNotContain(" ASC").doesNotContain("Id >").doesNotContain("NOT IN");
              assertThat(q).contains("ORDER BY EventDate DESC");
            });
    long calls = h.org.objects().queryCount("LoginEvent");
    assertThat(calls).isEqualTo(h.queries.size());
    System.out.printf(
        "OBJ-8 catch-up: %d rows, %d query calls (%.1f per 1,000 rows), %d ms in queries%n",
        50_000, calls, calls / 50.0, h.queryNanos.get() / 1_000_000);
  }

  @Test
  @DisplayName(
      "OBJ-7: a 500-row tie at one EventDate on a Big Object is delivered completely by"
          + " EventIdentifier paging, never with Id or NOT IN")
  void bigObjectTieEscape() throws Exception {
    Instant t = NOW.minusSeconds(900);
    h.org.objects().addSeries("LoginEvent", t.minusSeconds(100), Duration.ofSeconds(1), 50);
    List<SimObjectRecord> tie = h.org.objects().addTieGroup("LoginEvent", t, 500);
    h.org.objects().addSeries("LoginEvent", t.plusSeconds(1), Duration.ofSeconds(1), 150);
    EventLogObjectSource src = h.source(loginEvent(0));
    PollResult r = h.poll(src, "LoginEvent");
    assertThat(r.outcome()).isEqualTo(Outcome.OK);
    List<String> ids = field(h.real(), "EventIdentifier");
    assertThat(ids).hasSize(700).doesNotHaveDuplicates();
    assertThat(ids).containsAll(tie.stream().map(x -> (String) x.get("EventIdentifier")).toList());
    assertThat(field(h.real(), "EventDate")).isSorted();
    assertThat(h.queries).anySatisfy(q -> assertThat(q).contains("AND EventIdentifier < '"));
    assertThat(h.queries)
        .anySatisfy(q -> assertThat(q).contains("EventDate < 2024-05-01T11:45:00.000Z"));
    assertThat(h.queries).noneSatisfy(q -> assertThat(q).containsAnyOf("NOT IN", "Id >", " ASC"));
    assertThat(h.counter("sf2loki_watermark_stalls", ObjectHarness.objAttrs("LoginEvent")))
        .isZero();
    // OBJ-9 DESC window: every key at the watermark instant
    JsonNode cp = JSON.readTree(h.store.load("eventlog_objects:LoginEvent").orElseThrow());
    assertThat(cp.get("ids")).hasSize(1);
    h.poll(src, "LoginEvent");
    assertThat(h.real()).hasSize(700);
  }

  @Test
  @DisplayName(
      "OBJ-8: a tie group split by the catch-up cap is finished next cycle through the id window")
  void capSplitsTieGroup() throws Exception {
    Instant t = NOW.minusSeconds(900);
    h.org.objects().addSeries("LoginEvent", t.minusSeconds(50), Duration.ofSeconds(1), 50);
    h.org.objects().addTieGroup("LoginEvent", t, 300);
    EventLogObjectSource src = h.source(loginEvent(150));
    for (int i = 0; i < 4; i++) {
      h.poll(src, "LoginEvent");
    }
    List<String> ids = field(h.real(), "EventIdentifier");
    assertThat(ids).hasSize(350).doesNotHaveDuplicates();
    assertThat(field(h.real(), "EventDate")).isSorted();
  }

  @Test
  @DisplayName(
      "OBJ-12, SRC-17: REQUEST_LIMIT_EXCEEDED mid-drain: no advance, throttled counter = 1,"
          + " recovery next poll")
  void throttleMidDrain() throws Exception {
    h.org.objects().addSeries("LoginEvent", NOW.minusSeconds(3600), Duration.ofSeconds(1), 1000);
    EventLogObjectSource src = h.source(loginEvent(0));
    h.beforeQuery =
        n -> {
          if (n == 3) {
            h.org
                .faults()
                .add(
                    SimEndpoint.QUERY,
                    Fault.salesforceError(
                        403, "REQUEST_LIMIT_EXCEEDED", "TotalRequests Limit exceeded."));
          }
        };
    PollResult r = h.poll(src, "LoginEvent");
    assertThat(r.outcome()).isEqualTo(Outcome.THROTTLED);
    assertThat(r.advanced()).isFalse();
    assertThat(h.entries).isEmpty();
    assertThat(h.store.load("eventlog_objects:LoginEvent")).isEmpty();
    assertThat(
            h.counter(
                "sf2loki_salesforce_api_throttled", Attributes.of(Sf2lokiMetrics.API, "soql")))
        .isEqualTo(1);
    assertThat(h.counter("sf2loki_soql_poll_errors", ObjectHarness.objAttrs("LoginEvent")))
        .isEqualTo(1);
    h.beforeQuery = n -> {};
    assertThat(h.poll(src, "LoginEvent").outcome()).isEqualTo(Outcome.OK);
    assertThat(field(h.real(), "EventIdentifier")).hasSize(1000).doesNotHaveDuplicates();
  }

  @Test
  @DisplayName(
      "SRC-19, OBJ-12: another SOQL error is counted and retried next poll without advancing")
  void otherErrorRetried() throws Exception {
    h.org.objects().addSeries("LoginHistory", NOW.minusSeconds(600), Duration.ofSeconds(1), 10);
    EventLogObjectSource src = h.source(loginHistory());
    h.org.faults().add(SimEndpoint.QUERY, Fault.status(500));
    assertThat(h.poll(src, "LoginHistory").outcome()).isEqualTo(Outcome.FAILED);
    assertThat(h.counter("sf2loki_soql_poll_errors", ObjectHarness.objAttrs("LoginHistory")))
        .isEqualTo(1);
    assertThat(h.entries).isEmpty();
    assertThat(h.poll(src, "LoginHistory").outcome()).isEqualTo(Outcome.OK);
    assertThat(h.real()).hasSize(10);
  }

  @Test
  @DisplayName("FEAT-18, OBJ-12: a Big Object polled as a standard object fails with the sim's 400")
  void bigObjectAscRejected() throws Exception {
    h.org.objects().addSeries("LoginEvent", NOW.minusSeconds(600), Duration.ofSeconds(1), 3);
    ObjectSettings wrong =
        ObjectSettings.defaults("LoginEvent", false).withSettleWindow(Duration.ZERO);
    assertThat(h.poll(h.source(wrong), "LoginEvent").outcome()).isEqualTo(Outcome.FAILED);
    assertThat(h.entries).isEmpty();
  }

  // ------------------------------------------------------------------ robustness

  @Test
  @DisplayName(
      "SRC-12, OBJ-9, OBJ-10: an unparseable timestamp ships with the watermark fallback and never"
          + " moves the watermark")
  void unparseableTimestamp() throws Exception {
    h.org.objects().add("LoginHistory", NOW.minusSeconds(600), Map.of());
    h.org.objects().addUnparseableTimestamp("LoginHistory", NOW.minusSeconds(500), "not a time");
    EventLogObjectSource src = h.source(loginHistory());
    h.poll(src, "LoginHistory");
    List<LogEntry> real = h.real();
    assertThat(real).hasSize(2);
    assertThat(real.get(1).timestamp()).isEqualTo(NOW.minusSeconds(600));
    assertThat(
            h.counter(
                "sf2loki_timestamp_fallbacks",
                Attributes.of(Sf2lokiMetrics.SOURCE, "eventlog_objects")))
        .isEqualTo(1);
    JsonNode cp = JSON.readTree(h.store.load("eventlog_objects:LoginHistory").orElseThrow());
    assertThat(cp.get("last_ts").asText()).isEqualTo("2024-05-01T11:50:00.000+0000");
    assertThat(real.get(0).labels())
        .containsEntry("source", "eventlog_objects")
        .containsEntry("event_type", "LoginHistory");
    assertThat(real.get(0).line()).startsWith("{\"EventIdentifier\"").contains("\"attributes\": {");
  }

  @Test
  @DisplayName("OBJ-2: a garbage checkpoint falls back to lookback with a counted load error")
  void garbageCheckpoint() throws Exception {
    h.store.commitMany(
        Map.of("eventlog_objects:LoginHistory", "{\"last_ts\": \"None\"}"), Set.of());
    h.org.objects().add("LoginHistory", NOW.minusSeconds(600), Map.of());
    h.org.objects().add("LoginHistory", NOW.minus(Duration.ofHours(2)), Map.of());
    h.poll(h.source(loginHistory()), "LoginHistory");
    assertThat(h.real()).hasSize(1);
    assertThat(h.queries.getFirst()).contains("LoginTime >= 2024-05-01T11:00:00.000Z");
    assertThat(
            h.counter(
                "sf2loki_checkpoint_load_errors",
                Attributes.of(Sf2lokiMetrics.SOURCE, "eventlog_objects")))
        .isEqualTo(1);
  }

  @Test
  @DisplayName("OBJ-2, SRC-15: a legacy bare timestamp checkpoint is continued")
  void legacyCheckpoint() throws Exception {
    h.store.commitMany(
        Map.of("eventlog_objects:LoginHistory", "2024-05-01T11:55:00.000+0000"), Set.of());
    h.org.objects().add("LoginHistory", NOW.minusSeconds(600), Map.of());
    h.org.objects().add("LoginHistory", NOW.minusSeconds(200), Map.of());
    h.poll(h.source(loginHistory()), "LoginHistory");
    assertThat(h.real()).hasSize(1);
  }

  @Test
  @DisplayName(
      "SRC-14, SRC-3, OBJ-11: sampled-out rows move the cursor via a checkpoint-only entry")
  void samplingAdvances() throws Exception {
    h.org.objects().addSeries("LoginHistory", NOW.minusSeconds(600), Duration.ofSeconds(1), 100);
    ObjectSettings o =
        new ObjectSettings(
            "LoginHistory",
            "LoginTime",
            Duration.ofMinutes(5),
            Duration.ofHours(1),
            Duration.ZERO,
            0.5,
            false,
            0,
            0,
            "EventIdentifier");
    h.poll(h.source(o), "LoginHistory");
    int real = h.real().size();
    assertThat(real).isBetween(20, 80);
    assertThat(
            h.counter(
                "sf2loki_entries_sampled_out",
                Attributes.of(
                    Sf2lokiMetrics.SOURCE, "eventlog_objects",
                    Sf2lokiMetrics.EVENT_TYPE, "LoginHistory")))
        .isEqualTo(100 - real);
    JsonNode cp = JSON.readTree(h.store.load("eventlog_objects:LoginHistory").orElseThrow());
    assertThat(cp.get("last_ts").asText()).isEqualTo("2024-05-01T11:51:39.000+0000");
  }

  @Test
  @DisplayName("OBJ-1, SRC-21: run() polls each object on its own jittered due time")
  void runSchedules() throws Exception {
    h.org.objects().addSeries("LoginHistory", NOW.minusSeconds(600), Duration.ofSeconds(1), 3);
    EventLogObjectSource src = h.source(loginHistory());
    io.sf2loki.core.time.StopSignal stop = new io.sf2loki.core.time.StopSignal();
    int[] polls = {0};
    Thread t =
        Thread.ofVirtual()
            .start(
                () -> {
                  try {
                    src.run(e -> true, stop);
                  } catch (Exception e) {
                    throw new RuntimeException(e);
                  }
                });
    while (h.time.sleeps().size() < 3) {
      Thread.onSpinWait();
    }
    stop.stop();
    t.join();
    polls[0] = h.queries.size();
    assertThat(polls[0]).isGreaterThanOrEqualTo(3);
    for (Duration d : h.time.sleeps().subList(0, 3)) {
      assertThat(d).isBetween(Duration.ofSeconds(270), Duration.ofSeconds(330));
    }
  }
}
