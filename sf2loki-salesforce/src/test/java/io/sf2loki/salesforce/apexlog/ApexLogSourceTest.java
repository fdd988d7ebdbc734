package io.sf2loki.salesforce.apexlog;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.shape.CanonicalJson;
import io.sf2loki.core.shape.Sampler;
import io.sf2loki.core.testing.InMemoryCheckpointStore;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.salesforce.apexlog.ApexLogSource.Outcome;
import io.sf2loki.salesforce.rest.DownloadException;
import io.sf2loki.salesforce.rest.DownloadThrottledException;
import io.sf2loki.salesforce.rest.SoqlException;
import io.sf2loki.salesforce.rest.SoqlThrottledException;
import io.sf2loki.salesforce.source.SourceContext;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ApexLogSourceTest {
  private static final Instant NOW = Instant.parse("2024-06-05T12:00:00Z");
  private static final String SELECT =
      "SELECT Id, LogUserId, LogLength, Operation, Request, Status, StartTime, Application,"
          + " DurationMilliseconds, Location FROM ApexLog WHERE ";
  private static final String ORDER = " ORDER BY StartTime ASC, Id ASC LIMIT 200";
  private static final Map<String, String> SRC = Map.of("source", "apexlog");
  private static final Map<String, String> OBJ = Map.of("source", "apexlog", "object", "apexlog");

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

  private static ApexLogSettings settings() {
    return new ApexLogSettings(
        Duration.ofMinutes(1), Duration.ofHours(1), List.of(), 5_242_880L, 1.0, List.of(), false);
  }

  /** The source's context: the fake time, this test's store and metrics (no CPU offload). */
  private SourceContext context(io.sf2loki.core.time.TimeSource t) {
    return SourceContext.of(t, Runnable::run, m.metrics, store);
  }

  private ApexLogSource source(ApexLogSettings s) {
    return new ApexLogSource(s, api, context(time.timeSource()));
  }

  private ApexLogSource source(ApexLogSettings s, MetadataTransform t) {
    return new ApexLogSource(s, api, context(time.timeSource()), t);
  }

  private List<FakeTooling.Log> addLogs(int n, Instant start, Duration step) {
    List<FakeTooling.Log> logs = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      logs.add(api.add("u@x.com", start.plus(step.multipliedBy(i)), "body of log " + i + "\n"));
    }
    return logs;
  }

  private static List<String> ids(List<LogEntry> entries) {
    return entries.stream().map(e -> e.structuredMetadata().get("Id")).toList();
  }

  private static ApexLogCursor cursorOf(String value) {
    return ApexLogCursor.load(value, "x").cursor();
  }

  private static DownloadException http(int status) {
    return new DownloadException("HTTP " + status + ": simulated", status, null, null);
  }

  // ---------------------------------------------------------------- OBS-21

  @Test
  @DisplayName(
      "OBS-21: a poll due while the PollGate is closed is skipped (no Tooling call, no entry, no"
          + " cursor) and retried at the next interval; the first open poll ships everything")
  void obs21_closedGateSkipsPolls() throws Exception {
    addLogs(3, NOW.minusSeconds(600), Duration.ofSeconds(1));
    List<Integer> queriesAtGate = new ArrayList<>();
    int[] asked = {0};
    io.sf2loki.salesforce.source.PollGate gate =
        () -> {
          queriesAtGate.add(api.queries().size());
          asked[0]++;
          if (asked[0] == 5) {
            stop.stop();
          }
          return asked[0] == 4; // closed for the first three due polls
        };
    ApexLogSource src =
        new ApexLogSource(
            settings(), api, context(time.timeSource()).withGate(gate), MetadataTransform.NONE);

    src.run(out, stop);

    assertThat(queriesAtGate).containsExactly(0, 0, 0, 0, 1);
    assertThat(out.real()).hasSize(3);
    assertThat(time.sleeps()).hasSize(4); // every skipped or done poll waited one interval
  }

  @Test
  @DisplayName(
      "FEAT-3, OBS-35: apexlog reports each poll under its checkpoint key: paused while the gate"
          + " is closed, ok after a clean poll, error with the exception's class and message after"
          + " a listing failure (last error kept after the next ok)")
  void obs35_reportsPollResults() throws Exception {
    addLogs(2, NOW.minusSeconds(600), Duration.ofSeconds(1));
    io.sf2loki.core.status.SourceStatusBoard board =
        new io.sf2loki.core.status.SourceStatusBoard(
            time.wall(), io.sf2loki.core.status.Redaction.patternsOnly());
    ApexLogSource src =
        new ApexLogSource(
                settings(),
                api,
                context(time.timeSource())
                    .withGate(
                        () -> {
                          stop.stop(); // one closed-gate poll, then the loop ends
                          return false;
                        }),
                MetadataTransform.NONE)
            .reportTo(board);
    src.run(out, stop);
    assertThat(board.get(ApexLogSource.KEY).lastPoll().orElseThrow().kind())
        .isEqualTo(io.sf2loki.core.status.SourceStatusBoard.Kind.PAUSED);

    StopSignal running = new StopSignal();
    src.pollOnce(out, running);
    assertThat(board.get(ApexLogSource.KEY).lastPoll().orElseThrow().kind())
        .isEqualTo(io.sf2loki.core.status.SourceStatusBoard.Kind.OK);

    time.advance(Duration.ofSeconds(60));
    api.failNextListing(new SoqlException("HTTP 500: boom", 500, null, null));
    src.pollOnce(out, running);
    var st = board.get(ApexLogSource.KEY);
    assertThat(st.lastPoll().orElseThrow())
        .isEqualTo(
            new io.sf2loki.core.status.SourceStatusBoard.PollResult(
                io.sf2loki.core.status.SourceStatusBoard.Kind.ERROR,
                "SoqlException",
                NOW.plusSeconds(60)));
    assertThat(st.lastError().orElseThrow().message()).isEqualTo("HTTP 500: boom");

    src.pollOnce(out, running);
    st = board.get(ApexLogSource.KEY);
    assertThat(st.lastPoll().orElseThrow().kind())
        .isEqualTo(io.sf2loki.core.status.SourceStatusBoard.Kind.OK);
    assertThat(st.lastError()).isPresent();
  }

  @Test
  @DisplayName(
      "OBS-34, DOC-3: a listing failure's WARN shows the error with the reporter's configured"
          + " secret masked")
  void obs34_listingFailureLogMasksSecrets() throws Exception {
    io.sf2loki.core.status.SourceStatusBoard board =
        new io.sf2loki.core.status.SourceStatusBoard(
            time.wall(), new io.sf2loki.core.status.Redaction(List.of("s3cr3t-apex")));
    ApexLogSource src =
        new ApexLogSource(
                settings(),
                api,
                context(time.timeSource()).withGate(() -> true),
                MetadataTransform.NONE)
            .reportTo(board);
    api.failNextListing(new SoqlException("HTTP 500: echo s3cr3t-apex", 500, null, null));
    try (var logs = io.sf2loki.salesforce.testing.LogRecorder.of(ApexLogSource.class)) {
      src.pollOnce(out, new StopSignal());
      assertThat(logs.failures())
          .singleElement()
          .satisfies(
              l ->
                  assertThat(l)
                      .startsWith("apexlog listing failed")
                      .contains("error=HTTP 500: echo ***")
                      .doesNotContain("s3cr3t-apex"));
    }
  }

  // ---------------------------------------------------------------- APX-1

  @Test
  @DisplayName(
      "APX-1/SRC-16: the first listing is StartTime >= the lookback default; the drain continues"
          + " with the compound (StartTime, Id) cursor until a short page")
  void listingShapesAndDrain() throws Exception {
    // 250 logs, 5 per StartTime instant: page boundaries fall inside tie groups
    List<FakeTooling.Log> logs = new ArrayList<>();
    for (int i = 0; i < 250; i++) {
      logs.add(api.add("u@x.com", NOW.minusSeconds(1800).plusSeconds(i / 5), "b" + i));
    }
    ApexLogSource src = source(settings());

    ApexLogSource.PollReport r = src.pollOnce(out, stop);

    assertThat(r.outcome()).isEqualTo(Outcome.CLEAN);
    assertThat(api.queries()).hasSize(2);
    assertThat(api.queries().get(0))
        .isEqualTo(SELECT + "StartTime >= 2024-06-05T11:00:00.000Z" + ORDER);
    FakeTooling.Log p1last = logs.get(199);
    String lit = "2024-06-05T11:30:39.000Z";
    assertThat(p1last.record.get("StartTime")).isEqualTo("2024-06-05T11:30:39.000+0000");
    assertThat(api.queries().get(1))
        .isEqualTo(
            SELECT
                + "(StartTime > "
                + lit
                + " OR (StartTime = "
                + lit
                + " AND Id > '"
                + p1last.id()
                + "'))"
                + ORDER);
    assertThat(ids(out.real())).containsExactlyElementsOf(logs.stream().map(l -> l.id()).toList());
    assertThat(api.downloads()).hasSize(250);
  }

  @Test
  @DisplayName("APX-1/SRC-18: usernames in the users filter are escaped and single-quoted")
  void usersFilterEscaped() throws Exception {
    api.add("a@x.com", NOW.minusSeconds(60), "A");
    api.add("o'brien@x.com", NOW.minusSeconds(50), "B");
    api.add("other@x.com", NOW.minusSeconds(40), "C");
    api.add("back\\slash@x.com", NOW.minusSeconds(30), "D");
    ApexLogSource src =
        source(settings().withUsers(List.of("a@x.com", "o'brien@x.com", "back\\slash@x.com")));

    src.pollOnce(out, stop);

    assertThat(api.queries().getFirst())
        .isEqualTo(
            SELECT
                + "StartTime >= 2024-06-05T11:00:00.000Z AND LogUser.Username IN"
                + " ('a@x.com','o\\'brien@x.com','back\\\\slash@x.com')"
                + ORDER);
    assertThat(out.real()).extracting(LogEntry::line).containsExactly("A", "B", "D");
  }

  @Test
  @DisplayName("APX-1/SRC-16/SRC-18: the Id literal is escaped and datetime literals normalised")
  void soqlBuilder() {
    String q = ApexLogSoql.listing("2024-05-01T10:00:00.000+0200", "07L'\\x", List.of());
    assertThat(q)
        .isEqualTo(
            SELECT
                + "(StartTime > 2024-05-01T08:00:00.000Z OR (StartTime = 2024-05-01T08:00:00.000Z"
                + " AND Id > '07L\\'\\\\x'))"
                + ORDER);
    assertThat(ApexLogSoql.datetimeLiteral("2024-06-05T11:00:00Z"))
        .isEqualTo("2024-06-05T11:00:00.000Z");
    assertThat(ApexLogSoql.datetimeLiteral("junk")).isEqualTo("junk");
  }

  // ---------------------------------------------------------------- APX-2

  @Test
  @DisplayName(
      "APX-2/SRC-15: a stored JSON cursor resumes with the compound query and skips window Ids;"
          + " tokens are canonical JSON")
  void storedCursorResumes() throws Exception {
    List<FakeTooling.Log> logs = addLogs(3, NOW.minusSeconds(600), Duration.ZERO);
    String ts = (String) logs.get(0).record.get("StartTime");
    store.commitMany(
        Map.of("apexlog", "{\"last_ts\":\"" + ts + "\",\"ids\":[\"" + logs.get(0).id() + "\"]}"),
        java.util.Set.of());

    source(settings()).pollOnce(out, stop);

    assertThat(api.queries().getFirst()).contains("AND Id > '" + logs.get(0).id() + "'");
    assertThat(ids(out.real())).containsExactly(logs.get(1).id(), logs.get(2).id());
    assertThat(out.lastValue())
        .isEqualTo(
            "{\"ids\": [\""
                + logs.get(0).id()
                + "\", \""
                + logs.get(1).id()
                + "\", \""
                + logs.get(2).id()
                + "\"], \"last_ts\": \""
                + ts
                + "\"}");
  }

  @Test
  @DisplayName("APX-2: a legacy bare timestamp is a watermark with an empty window")
  void legacyBareTimestamp() throws Exception {
    store.commitMany(Map.of("apexlog", "2024-06-05T11:30:00.000+0000"), java.util.Set.of());
    source(settings()).pollOnce(out, stop);
    assertThat(api.queries().getFirst())
        .isEqualTo(SELECT + "StartTime >= 2024-06-05T11:30:00.000Z" + ORDER);
    assertThat(m.counter("sf2loki_checkpoint_load_errors", SRC)).isZero();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"not json {", "{\"last_ts\": \"None\", \"ids\": []}", "[1,2]", "{\"ids\": 3}"})
  @DisplayName(
      "APX-2: an unusable stored cursor logs WARN, counts checkpoint_load_errors and starts at"
          + " the lookback default")
  void garbageCursor(String stored) throws Exception {
    store.commitMany(Map.of("apexlog", stored), java.util.Set.of());
    ApexLogSource.PollReport r = source(settings()).pollOnce(out, stop);
    assertThat(r.outcome()).isEqualTo(Outcome.CLEAN);
    assertThat(api.queries().getFirst())
        .isEqualTo(SELECT + "StartTime >= 2024-06-05T11:00:00.000Z" + ORDER);
    assertThat(m.counter("sf2loki_checkpoint_load_errors", SRC)).isEqualTo(1);
  }

  @Test
  @DisplayName("APX-2/APX-3: a loaded window is trimmed to its last 500 Ids and stays capped")
  void windowTrimmed() throws Exception {
    List<String> stored = IntStream.range(0, 600).mapToObj(i -> "07Lold" + i).toList();
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("ids", stored);
    doc.put("last_ts", "2024-06-05T11:30:00.000+0000");
    store.commitMany(Map.of("apexlog", CanonicalJson.write(doc)), java.util.Set.of());
    addLogs(1, NOW.minusSeconds(60), Duration.ZERO);

    source(settings()).pollOnce(out, stop);

    assertThat(api.queries().getFirst()).contains("AND Id > '07Lold599'");
    ApexLogCursor after = cursorOf(out.lastValue());
    assertThat(after.ids()).hasSize(500);
    assertThat(after.ids().getFirst()).isEqualTo("07Lold101");
    assertThat(after.ids().getLast()).isEqualTo(FakeTooling.id(1));
  }

  // ---------------------------------------------------------------- APX-3 / APX-6

  @Test
  @DisplayName(
      "APX-3/APX-6: a body failing twice then succeeding is delivered and no checkpoint ever moves"
          + " past it before")
  void bodyFailsTwiceThenSucceeds() throws Exception {
    List<FakeTooling.Log> logs = addLogs(3, NOW.minusSeconds(300), Duration.ofSeconds(1));
    String b = logs.get(1).id();
    api.failBody(b, http(500), http(503));
    ApexLogSource src = source(settings());

    assertThat(src.pollOnce(out, stop).outcome()).isEqualTo(Outcome.BODY_FAILED);
    assertThat(src.pollOnce(out, stop).outcome()).isEqualTo(Outcome.BODY_FAILED);
    assertThat(src.pollOnce(out, stop).outcome()).isEqualTo(Outcome.CLEAN);

    assertThat(ids(out.real())).containsExactly(logs.get(0).id(), b, logs.get(2).id());
    assertThat(out.real().get(1).line()).isEqualTo("body of log 1\n");
    assertThat(out.real().get(1).structuredMetadata()).doesNotContainKey("body_skipped");
    // every token emitted before B's entry excludes B and stays at A's StartTime
    for (LogEntry e : out.entries()) {
      if (b.equals(e.structuredMetadata().get("Id"))) {
        break;
      }
      assertThat(cursorOf(e.checkpoint().value()).ids()).doesNotContain(b);
    }
    assertThat(api.downloadsOf(b)).isEqualTo(3);
    assertThat(m.counter("sf2loki_apexlog_download_errors", Map.of("reason", "HTTP 500")))
        .isEqualTo(1);
    assertThat(m.counter("sf2loki_apexlog_download_errors", Map.of("reason", "HTTP 503")))
        .isEqualTo(1);
    assertThat(m.counter("sf2loki_apexlog_bodies_skipped", Map.of())).isZero();
  }

  @Test
  @DisplayName(
      "APX-6: the third consecutive poll failing on the same log ships a flagged metadata line and"
          + " advances")
  void thirdFailingCycleSkipsBody() throws Exception {
    List<FakeTooling.Log> logs = addLogs(2, NOW.minusSeconds(300), Duration.ofSeconds(1));
    String a = logs.get(0).id();
    api.failBody(a, http(500), http(500), http(500));
    ApexLogSource src = source(settings());

    assertThat(src.pollOnce(out, stop).outcome()).isEqualTo(Outcome.BODY_FAILED);
    assertThat(src.pollOnce(out, stop).outcome()).isEqualTo(Outcome.BODY_FAILED);
    assertThat(out.entries()).isEmpty();
    assertThat(src.pollOnce(out, stop).outcome()).isEqualTo(Outcome.CLEAN);

    List<LogEntry> real = out.real();
    assertThat(ids(real)).containsExactly(a, logs.get(1).id());
    LogEntry flagged = real.getFirst();
    assertThat(flagged.structuredMetadata())
        .containsEntry("body_skipped", "true")
        .containsEntry("body_skip_reason", "download_error");
    Map<String, Object> md = new LinkedHashMap<>(logs.get(0).record);
    md.remove("attributes");
    assertThat(flagged.line()).isEqualTo(CanonicalJson.write(md));
    assertThat(cursorOf(flagged.checkpoint().value()).ids()).containsExactly(a);
    assertThat(m.counter("sf2loki_apexlog_bodies_skipped", Map.of("reason", "download_error")))
        .isEqualTo(1);
    assertThat(m.counter("sf2loki_apexlog_download_errors", Map.of("reason", "HTTP 500")))
        .isEqualTo(3);
  }

  @ParameterizedTest
  @ValueSource(ints = {400, 404, 410, 422})
  @DisplayName(
      "APX-6: 404, 410 and any other 4xx ship the flagged metadata line at once and the poll"
          + " continues")
  void permanentFailureSkipsAtOnce(int status) throws Exception {
    List<FakeTooling.Log> logs = addLogs(2, NOW.minusSeconds(300), Duration.ofSeconds(1));
    api.failBody(logs.get(0).id(), http(status));

    assertThat(source(settings()).pollOnce(out, stop).outcome()).isEqualTo(Outcome.CLEAN);

    assertThat(ids(out.real())).containsExactly(logs.get(0).id(), logs.get(1).id());
    assertThat(out.real().get(0).structuredMetadata())
        .containsEntry("body_skip_reason", "download_error");
    assertThat(out.real().get(1).line()).isEqualTo("body of log 1\n");
    assertThat(m.counter("sf2loki_apexlog_bodies_skipped", Map.of("reason", "download_error")))
        .isEqualTo(1);
    assertThat(m.counter("sf2loki_apexlog_download_errors", Map.of("reason", "HTTP " + status)))
        .isEqualTo(1);
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 401, 403, 429, 500, 503})
  @DisplayName(
      "APX-6: transport, 401 after retry, other 403, 429 and 5xx count download_errors{reason} and"
          + " end the poll before the log")
  void transientFailureEndsPoll(int status) throws Exception {
    List<FakeTooling.Log> logs = addLogs(3, NOW.minusSeconds(300), Duration.ofSeconds(1));
    api.failBody(logs.get(1).id(), http(status));

    ApexLogSource src = source(settings());
    assertThat(src.pollOnce(out, stop).outcome()).isEqualTo(Outcome.BODY_FAILED);

    assertThat(ids(out.real())).containsExactly(logs.get(0).id());
    assertThat(out.entries()).hasSize(1);
    assertThat(api.downloads()).hasSize(2);
    String reason = status == 0 ? "transport" : "HTTP " + status;
    assertThat(m.counter("sf2loki_apexlog_download_errors", Map.of("reason", reason))).isEqualTo(1);
    assertThat(m.gauge("sf2loki_source_last_success_timestamp_seconds", OBJ)).isNull();

    assertThat(src.pollOnce(out, stop).outcome()).isEqualTo(Outcome.CLEAN);
    assertThat(ids(out.real()))
        .containsExactly(logs.get(0).id(), logs.get(1).id(), logs.get(2).id());
  }

  @Test
  @DisplayName("APX-6: a body throttle ends the poll before the log without a download error")
  void bodyThrottle() throws Exception {
    List<FakeTooling.Log> logs = addLogs(2, NOW.minusSeconds(300), Duration.ofSeconds(1));
    api.failBody(logs.get(0).id(), new DownloadThrottledException("HTTP 403: limit"));
    ApexLogSource src = source(settings());

    assertThat(src.pollOnce(out, stop).outcome()).isEqualTo(Outcome.THROTTLED);
    assertThat(out.entries()).isEmpty();
    assertThat(m.counter("sf2loki_apexlog_download_errors", Map.of())).isZero();

    assertThat(src.pollOnce(out, stop).outcome()).isEqualTo(Outcome.CLEAN);
    assertThat(ids(out.real())).containsExactly(logs.get(0).id(), logs.get(1).id());
  }

  // ---------------------------------------------------------------- APX-4 / APX-5 / APX-7

  @Test
  @DisplayName(
      "APX-4/APX-7: metadata = configured fields, level, every non-empty listing field; labels,"
          + " StartTime timestamp, raw body line, logs_ingested and download_bytes")
  void entryShape() throws Exception {
    FakeTooling.Log ok = api.add("u@x.com", NOW.minusSeconds(120), "line 1\nline 2 é\n");
    FakeTooling.Log bad = api.add("u@x.com", NOW.minusSeconds(60), "boom");
    bad.record.put("Status", "Assertion Failed");
    bad.record.put("Location", "");
    ApexLogSettings s =
        new ApexLogSettings(
            Duration.ofMinutes(1),
            Duration.ofHours(1),
            List.of(),
            5_242_880L,
            1.0,
            List.of("LogUserId", "duration_milliseconds", "absent"),
            false);

    source(s).pollOnce(out, stop);

    LogEntry e = out.real().getFirst();
    assertThat(e.labels()).isEqualTo(Map.of("source", "apexlog", "event_type", "apexlog"));
    assertThat(e.line()).isEqualTo("line 1\nline 2 é\n");
    assertThat(e.timestamp()).isEqualTo(NOW.minusSeconds(120));
    assertThat(new ArrayList<>(e.structuredMetadata().keySet()))
        .containsExactly(
            "LogUserId",
            "duration_milliseconds",
            "level",
            "Id",
            "LogLength",
            "Operation",
            "Request",
            "Status",
            "StartTime",
            "Application",
            "DurationMilliseconds",
            "Location");
    assertThat(e.structuredMetadata())
        .containsEntry("duration_milliseconds", "143")
        .containsEntry("level", "info")
        .containsEntry("LogLength", String.valueOf(ok.body.length))
        .containsEntry("StartTime", "2024-06-05T11:58:00.000+0000");
    LogEntry e2 = out.real().get(1);
    assertThat(e2.structuredMetadata())
        .containsEntry("level", "warn")
        .doesNotContainKey("Location");
    assertThat(m.counter("sf2loki_apexlog_logs_ingested", Map.of())).isEqualTo(2);
    assertThat(m.counter("sf2loki_apexlog_download_bytes", Map.of()))
        .isEqualTo(ok.body.length + bad.body.length);
  }

  @Test
  @DisplayName(
      "APX-5: LogLength above max_body_bytes skips the download and ships the metadata JSON,"
          + " flagged and counted")
  void sizeSkip() throws Exception {
    FakeTooling.Log big = api.add("u@x.com", NOW.minusSeconds(120), "x".repeat(100));
    FakeTooling.Log small = api.add("u@x.com", NOW.minusSeconds(60), "small");

    source(settings().withMaxBodyBytes(50)).pollOnce(out, stop);

    assertThat(api.downloads()).hasSize(1);
    assertThat(api.downloadsOf(big.id())).isZero();
    LogEntry e = out.real().getFirst();
    Map<String, Object> md = new LinkedHashMap<>(big.record);
    md.remove("attributes");
    assertThat(e.line()).isEqualTo(CanonicalJson.write(md));
    assertThat(e.structuredMetadata())
        .containsEntry("body_skipped", "true")
        .containsEntry("body_skip_reason", "size");
    assertThat(out.real().get(1).line()).isEqualTo("small");
    assertThat(m.counter("sf2loki_apexlog_bodies_skipped", Map.of("reason", "size"))).isEqualTo(1);
    assertThat(m.counter("sf2loki_apexlog_download_bytes", Map.of())).isEqualTo(5);
    assertThat(small.id()).isNotNull();
  }

  @Test
  @DisplayName(
      "APX-7/SRC-12/XF-8: transforms touch metadata only; a redacted StartTime falls back to the"
          + " watermark (counted) while the cursor keeps the original")
  void transformsAndFallback() throws Exception {
    FakeTooling.Log log = api.add("u@x.com", NOW.minusSeconds(120), "raw body");
    MetadataTransform redact =
        md -> {
          md.remove("StartTime");
          md.put("LogUserId", "***");
          return true;
        };

    source(settings(), redact).pollOnce(out, stop);

    LogEntry e = out.real().getFirst();
    assertThat(e.line()).isEqualTo("raw body");
    assertThat(e.timestamp()).isEqualTo(NOW.minusSeconds(120));
    assertThat(e.structuredMetadata())
        .containsEntry("LogUserId", "***")
        .doesNotContainKey("StartTime");
    assertThat(cursorOf(e.checkpoint().value()).lastTs()).isEqualTo(log.record.get("StartTime"));
    assertThat(m.counter("sf2loki_timestamp_fallbacks", SRC)).isEqualTo(1);
  }

  @Test
  @DisplayName(
      "APX-7/SRC-14/APX-9: sampling keys on the log Id; sampled-out logs are not downloaded and the"
          + " final cursor rides a checkpoint-only entry")
  void samplingAndCheckpointOnly() throws Exception {
    List<FakeTooling.Log> logs = addLogs(40, NOW.minusSeconds(600), Duration.ofSeconds(1));
    List<String> kept = logs.stream().map(l -> l.id()).filter(id -> Sampler.keep(id, 0.5)).toList();
    assertThat(kept).isNotEmpty().hasSizeLessThan(40);

    ApexLogSource src = source(settings().withSample(0.5));
    src.pollOnce(out, stop);

    assertThat(ids(out.real())).containsExactlyElementsOf(kept);
    assertThat(api.downloads()).hasSize(kept.size());
    assertThat(
            m.counter(
                "sf2loki_entries_sampled_out",
                Map.of("source", "apexlog", "event_type", "apexlog")))
        .isEqualTo(40 - kept.size());
    ApexLogCursor finalCursor = src.cursor();
    assertThat(finalCursor.ids()).hasSize(40);
    boolean lastKept = kept.getLast().equals(logs.getLast().id());
    long cpOnly = out.entries().stream().filter(LogEntry::checkpointOnly).count();
    assertThat(cpOnly).isEqualTo(lastKept ? 0 : 1);
    assertThat(out.lastValue()).isEqualTo(finalCursor.toValue());
  }

  @Test
  @DisplayName(
      "APX-9: a poll whose logs were all dropped emits exactly one checkpoint-only entry; an idle"
          + " poll emits nothing")
  void droppedLogsCheckpointOnly() throws Exception {
    addLogs(3, NOW.minusSeconds(600), Duration.ofSeconds(1));
    ApexLogSource src = source(settings(), md -> false);

    src.pollOnce(out, stop);
    assertThat(out.entries()).hasSize(1);
    LogEntry cp = out.entries().getFirst();
    assertThat(cp.checkpointOnly()).isTrue();
    assertThat(cp.checkpoint().key()).isEqualTo("apexlog");
    assertThat(cursorOf(cp.checkpoint().value()).ids()).hasSize(3);
    assertThat(api.downloads()).isEmpty();

    out.clear();
    src.pollOnce(out, stop);
    assertThat(out.entries()).isEmpty();
  }

  // ---------------------------------------------------------------- APX-8 / SRC-19

  @Test
  @DisplayName(
      "APX-8: a full page of already-seen Ids warns; the second consecutive such poll counts"
          + " sf2loki_watermark_stalls{source=apexlog,object=apexlog}")
  void stall() throws Exception {
    List<FakeTooling.Log> logs = addLogs(200, NOW.minusSeconds(600), Duration.ofMillis(10));
    ApexLogSource src = source(settings());
    assertThat(src.pollOnce(out, stop).outcome()).isEqualTo(Outcome.CLEAN);
    api.fixResult(logs.stream().map(l -> (Map<String, Object>) l.record).toList());
    out.clear();

    ApexLogSource.PollReport first = src.pollOnce(out, stop);
    assertThat(first.outcome()).isEqualTo(Outcome.STALLED);
    assertThat(first.queries()).isEqualTo(1);
    assertThat(m.counter("sf2loki_watermark_stalls", OBJ)).isZero();
    assertThat(src.pollOnce(out, stop).outcome()).isEqualTo(Outcome.STALLED);
    assertThat(m.counter("sf2loki_watermark_stalls", OBJ)).isEqualTo(1);
    assertThat(out.entries()).isEmpty();
  }

  @Test
  @DisplayName(
      "APX-8/SRC-19: a listing error counts soql_poll_errors{source=apexlog,object=apexlog} and"
          + " the next poll retries without having advanced")
  void listingError() throws Exception {
    List<FakeTooling.Log> logs = addLogs(2, NOW.minusSeconds(600), Duration.ofSeconds(1));
    api.failNextListing(new SoqlException("HTTP 500: boom", 500, null, null));
    api.failNextListing(new SoqlException("transport failure", 0, null, null));
    ApexLogSource src = source(settings());

    assertThat(src.pollOnce(out, stop).outcome()).isEqualTo(Outcome.LISTING_ERROR);
    assertThat(src.pollOnce(out, stop).outcome()).isEqualTo(Outcome.LISTING_ERROR);
    assertThat(out.entries()).isEmpty();
    assertThat(m.counter("sf2loki_soql_poll_errors", OBJ)).isEqualTo(2);

    assertThat(src.pollOnce(out, stop).outcome()).isEqualTo(Outcome.CLEAN);
    assertThat(ids(out.real())).containsExactly(logs.get(0).id(), logs.get(1).id());
    assertThat(api.queries().get(2)).isEqualTo(api.queries().get(0));
  }

  @Test
  @DisplayName(
      "APX-8/SRC-17: REQUEST_LIMIT_EXCEEDED mid-drain ends the poll without advancing past the"
          + " delivered logs; the next poll recovers")
  void listingThrottleMidDrain() throws Exception {
    List<FakeTooling.Log> logs = addLogs(250, NOW.minusSeconds(600), Duration.ofMillis(100));
    api.failListingCall(2, new SoqlThrottledException("HTTP 403: REQUEST_LIMIT_EXCEEDED"));
    ApexLogSource src = source(settings());

    assertThat(src.pollOnce(out, stop).outcome()).isEqualTo(Outcome.THROTTLED);
    assertThat(out.real()).hasSize(200);
    assertThat(cursorOf(out.lastValue()).lastId()).isEqualTo(logs.get(199).id());
    assertThat(m.counter("sf2loki_soql_poll_errors", OBJ)).isZero();

    assertThat(src.pollOnce(out, stop).outcome()).isEqualTo(Outcome.CLEAN);
    assertThat(ids(out.real())).containsExactlyElementsOf(logs.stream().map(l -> l.id()).toList());
  }

  // ---------------------------------------------------------------- run loop, OBS-14

  @Test
  @DisplayName(
      "OBS-14: a clean poll sets sf2loki_source_last_success_timestamp_seconds{apexlog,apexlog};"
          + " finite runs stop after an idle poll")
  void lastSuccessAndFiniteRun() throws Exception {
    addLogs(2, NOW.minusSeconds(600), Duration.ofSeconds(1));
    ApexLogSource src = source(settings().withFinite(true));
    assertThat(src.name()).isEqualTo("apexlog");
    assertThat(src.lane()).isEqualTo(io.sf2loki.core.model.Lane.BULK);

    src.run(out, stop);

    assertThat(out.real()).hasSize(2);
    assertThat(api.queries()).hasSize(2);
    assertThat(m.gauge("sf2loki_source_last_success_timestamp_seconds", OBJ))
        .isEqualTo(NOW.getEpochSecond() * 1.0);
  }

  @Test
  @DisplayName("SRC-2/SRC-21: run sleeps a jittered poll_interval between polls and obeys stop")
  void runSleepsAndStops() throws Exception {
    List<Duration> sleeps = new ArrayList<>();
    StopSignal s = new StopSignal();
    io.sf2loki.core.time.TimeSource ts =
        new io.sf2loki.core.time.TimeSource(
            time.wall(),
            time.ticker(),
            (d, sig) -> {
              sleeps.add(d);
              if (sleeps.size() == 3) {
                s.stop();
              }
              return !sig.isStopped();
            });
    ApexLogSource src = new ApexLogSource(settings(), api, context(ts));

    src.run(out, s);

    assertThat(api.queries()).hasSize(3);
    assertThat(sleeps).hasSize(3);
    for (Duration d : sleeps) {
      assertThat(d).isBetween(Duration.ofSeconds(54), Duration.ofSeconds(66));
    }
  }
}
