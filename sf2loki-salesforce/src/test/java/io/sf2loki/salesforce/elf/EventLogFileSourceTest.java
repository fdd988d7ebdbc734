package io.sf2loki.salesforce.elf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.testing.InMemoryCheckpointStore;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.salesforce.elf.EventLogFileSettings.EventTypeSettings;
import io.sf2loki.salesforce.elf.EventLogFileSettings.Interval;
import io.sf2loki.salesforce.rest.DownloadException;
import io.sf2loki.salesforce.rest.DownloadThrottledException;
import io.sf2loki.salesforce.rest.InvalidFieldException;
import io.sf2loki.salesforce.rest.SoqlException;
import io.sf2loki.salesforce.rest.SoqlThrottledException;
import io.sf2loki.salesforce.source.SourceContext;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class EventLogFileSourceTest {
  private static final Instant NOW = Instant.parse("2024-06-05T12:00:00Z");
  private static final String KEY = "eventlogfile:Login";
  private static final String HEADER =
      "\"EVENT_TYPE\",\"TIMESTAMP\",\"REQUEST_ID\",\"USER_ID\",\"STATUS_CODE\"\n";

  private final FakeTime time = new FakeTime(NOW);
  private final FakeSalesforceRest rest = new FakeSalesforceRest(time::now);
  private final InMemoryCheckpointStore store = new InMemoryCheckpointStore();
  private final ElfTestSupport.Metrics m = new ElfTestSupport.Metrics();
  private final ElfTestSupport.Collector out = new ElfTestSupport.Collector();
  private final ExecutorService cpu = Executors.newFixedThreadPool(2);
  private final StopSignal stop = new StopSignal();

  @AfterEach
  void tearDown() {
    cpu.shutdownNow();
    m.close();
  }

  private static EventLogFileSettings settings(
      Duration settle, Duration maxAge, int concurrency, EventTypeSettings... types) {
    return new EventLogFileSettings(
        Interval.Hourly,
        List.of(types),
        List.of(),
        Duration.ofHours(1),
        Duration.ofHours(24),
        "TIMESTAMP_DERIVED",
        1000,
        settle,
        maxAge,
        concurrency,
        List.of(),
        false);
  }

  private static EventLogFileSettings settings(EventTypeSettings... types) {
    return settings(Duration.ZERO, Duration.ofHours(24), 2, types);
  }

  private EventLogFileSource source(EventLogFileSettings s) {
    return new EventLogFileSource(
        s, rest, SourceContext.of(time.timeSource(), cpu, m.metrics, store));
  }

  private static String row(String ts, String rid, String user, String status) {
    return "\"Login\",\"" + ts + "\",\"" + rid + "\",\"" + user + "\",\"" + status + "\"\n";
  }

  private static String threeRows() {
    return HEADER
        + row("20240605100000.000", "r1", "u1", "200")
        + row("20240605100001.000", "r2", "u2", "500")
        + row("20240605100002.000", "r3", "", "404");
  }

  private static String sf(String iso) {
    // Salesforce REST form of an ISO instant
    return Instant.parse(iso).toString().replace("Z", "") + ".000+0000";
  }

  /** The cursor value after processing the given (id, created) pairs in order from empty. */
  private static String cursorAfter(String... idCreatedPairs) {
    ElfCursor c = new ElfCursor("x", List.of());
    for (int i = 0; i < idCreatedPairs.length; i += 2) {
      c = c.advance(idCreatedPairs[i], idCreatedPairs[i + 1]);
    }
    return c.toValue();
  }

  private static final String DEFAULT_CURSOR =
      "{\"ids\": [], \"last_created\": \"2024-06-04T12:00:00Z\"}";

  // ---------------------------------------------------------------------------------------------

  @Test
  @DisplayName(
      "ELF-10: all rows but the last carry the pre-file value; the last carries the advanced one")
  void elf10_checkpointCarrying() throws Exception {
    String created = sf("2024-06-05T10:30:00Z");
    rest.file("Login", "0AT1", created, sf("2024-06-05T10:00:00Z"), threeRows());

    var report = source(settings(EventTypeSettings.of("Login"))).runOnce(out, stop);

    assertThat(report.filesDone()).isEqualTo(1);
    List<LogEntry> e = out.entries();
    assertThat(e).hasSize(3).noneMatch(LogEntry::checkpointOnly);
    assertThat(e.get(0).checkpoint().value()).isEqualTo(DEFAULT_CURSOR);
    assertThat(e.get(1).checkpoint()).isSameAs(e.get(0).checkpoint());
    assertThat(e.get(2).checkpoint().key()).isEqualTo(KEY);
    assertThat(e.get(2).checkpoint().value())
        .isEqualTo(
            "{\"ids\": [[\"0AT1\", \"2024-06-05T10:30:00.000+0000\"]], \"last_created\":"
                + " \"2024-06-05T10:30:00.000+0000\"}");
    assertThat(e.get(0).timestamp()).isEqualTo(Instant.parse("2024-06-05T10:00:00Z"));
    assertThat(e.get(2).timestamp()).isEqualTo(Instant.parse("2024-06-05T10:00:02Z"));
    assertThat(e.get(0).labels())
        .containsExactly(Map.entry("source", "eventlogfile"), Map.entry("event_type", "Login"));
    assertThat(e.get(0).line())
        .isEqualTo(
            "{\"EVENT_TYPE\": \"Login\", \"REQUEST_ID\": \"r1\", \"STATUS_CODE\": \"200\","
                + " \"TIMESTAMP\": \"20240605100000.000\", \"USER_ID\": \"u1\"}");
    assertThat(e.get(0).structuredMetadata()).containsEntry("level", "info");
    assertThat(e.get(1).structuredMetadata()).containsEntry("level", "error");
    assertThat(e.get(2).structuredMetadata()).containsEntry("level", "warn");
  }

  @Test
  @DisplayName("ELF-5: listing SOQL with the ELF-4 default since (server now − lookback)")
  void elf5_listingSoqlText() throws Exception {
    source(settings(EventTypeSettings.of("Login"))).runOnce(out, stop);
    assertThat(rest.queries())
        .containsExactly(
            "SELECT Id,EventType,Interval,LogDate,CreatedDate,LogFileLength,Sequence FROM"
                + " EventLogFile WHERE EventType='Login' AND Interval='Hourly' AND CreatedDate >="
                + " 2024-06-04T12:00:00.000Z ORDER BY CreatedDate, Id LIMIT 1000");
    assertThat(out.entries()).isEmpty();
  }

  @Test
  @DisplayName("ELF-4/ELF-6: a restart from the committed cursor re-emits nothing")
  void elf4_restartFromCommittedCursorReemitsNothing() throws Exception {
    String created = sf("2024-06-05T10:30:00Z");
    rest.file("Login", "0AT1", created, sf("2024-06-05T10:00:00Z"), threeRows());
    source(settings(EventTypeSettings.of("Login"))).runOnce(out, stop);
    store.commitMany(Map.of(KEY, out.lastValue(KEY)), java.util.Set.of());
    out.clear();

    source(settings(EventTypeSettings.of("Login"))).runOnce(out, stop);

    assertThat(out.entries()).isEmpty();
    assertThat(rest.queries().get(1)).contains("CreatedDate >= 2024-06-05T10:30:00.000Z");
    assertThat(rest.downloads()).hasSize(1);
  }

  @Test
  @DisplayName("ELF-6: a known Id with a later CreatedDate (regenerated file) is processed again")
  void elf6_regeneratedFileReprocessed() throws Exception {
    store.commitMany(
        Map.of(KEY, cursorAfter("0AT1", "2024-06-05T10:30:00.000+0000")), java.util.Set.of());
    rest.file(
        "Login", "0AT1", "2024-06-05T11:30:00.000+0000", sf("2024-06-05T10:00:00Z"), threeRows());

    source(settings(EventTypeSettings.of("Login"))).runOnce(out, stop);

    assertThat(out.real()).hasSize(3);
    assertThat(out.lastValue(KEY))
        .isEqualTo(
            "{\"ids\": [[\"0AT1\", \"2024-06-05T11:30:00.000+0000\"]], \"last_created\":"
                + " \"2024-06-05T11:30:00.000+0000\"}");
  }

  @Test
  @DisplayName("ELF-4: legacy forms continue; garbage counts a load error and uses the default")
  void elf4_legacyAndGarbageCursors() throws Exception {
    store.commitMany(
        Map.of(
            KEY,
            "2024-06-05T09:00:00.000+0000",
            "eventlogfile:API",
            "{\"ids\": [\"0AT9\"], \"last_created\": \"2024-06-05T08:00:00Z\"}",
            "eventlogfile:Logout",
            "%%garbage%%"),
        java.util.Set.of());
    rest.file("API", "0AT9", sf("2024-06-05T11:00:00Z"), sf("2024-06-05T10:00:00Z"), threeRows());

    source(
            settings(
                EventTypeSettings.of("Login"),
                EventTypeSettings.of("API"),
                EventTypeSettings.of("Logout")))
        .runOnce(out, stop);

    assertThat(rest.queries())
        .anySatisfy(q -> assertThat(q).contains("'Login'").contains(">= 2024-06-05T09:00:00.000Z"))
        .anySatisfy(q -> assertThat(q).contains("'API'").contains(">= 2024-06-05T08:00:00.000Z"))
        .anySatisfy(
            q -> assertThat(q).contains("'Logout'").contains(">= 2024-06-04T12:00:00.000Z"));
    assertThat(out.entries()).isEmpty(); // legacy bare id matches any CreatedDate
    m.collect();
    assertThat(m.counter("sf2loki_checkpoint_load_errors", Map.of("source", "eventlogfile")))
        .isEqualTo(1);
  }

  @Test
  @DisplayName("ELF-7: files inside the settle window wait, and so do the later ones")
  void elf7_settleGate() throws Exception {
    rest.file("Login", "A", sf("2024-06-05T11:50:00Z"), sf("2024-06-05T10:00:00Z"), threeRows());
    rest.file("Login", "B", sf("2024-06-05T11:57:00Z"), sf("2024-06-05T10:00:00Z"), threeRows());
    rest.file("Login", "C", sf("2024-06-05T11:58:00Z"), sf("2024-06-05T10:00:00Z"), threeRows());
    EventLogFileSource src =
        source(
            settings(
                Duration.ofMinutes(5), Duration.ofHours(24), 1, EventTypeSettings.of("Login")));

    src.runOnce(out, stop);
    assertThat(rest.downloads()).hasSize(1).allMatch(p -> p.contains("/A/"));
    assertThat(out.lastValue(KEY)).contains("\"last_created\": \"2024-06-05T11:50:00.000+0000\"");

    time.advance(Duration.ofMinutes(5));
    src.runOnce(out, stop);
    assertThat(rest.downloads()).hasSize(3);
  }

  @Test
  @DisplayName("ELF-8: download path and success metrics")
  void elf8_downloadPathAndMetrics() throws Exception {
    String body = threeRows();
    rest.file("Login", "0AT1", sf("2024-06-05T10:30:00Z"), sf("2024-06-05T10:00:00Z"), body);

    source(settings(EventTypeSettings.of("Login"))).runOnce(out, stop);

    assertThat(rest.downloads())
        .containsExactly("/services/data/v60.0/sobjects/EventLogFile/0AT1/LogFile");
    m.collect();
    Map<String, String> t = Map.of("event_type", "Login");
    assertThat(m.counter("sf2loki_eventlogfile_files_processed", t)).isEqualTo(1);
    assertThat(m.counter("sf2loki_eventlogfile_rows_ingested", t)).isEqualTo(3);
    assertThat(m.counter("sf2loki_eventlogfile_download_bytes", t))
        .isEqualTo(body.getBytes(StandardCharsets.UTF_8).length);
    assertThat(
            m.gauge(
                "sf2loki_source_last_success_timestamp_seconds",
                Map.of("source", "eventlogfile", "object", "Login")))
        .isEqualTo(NOW.getEpochSecond() * 1.0);
    assertThat(m.gauge("sf2loki_eventlogfile_cycle_seconds", Map.of())).isNotNull();
  }

  @Test
  @DisplayName("ELF-12: a 404 abandons the file at once with a checkpoint-only entry")
  void elf12_notFoundAbandons() throws Exception {
    rest.file("Login", "A", sf("2024-06-05T10:30:00Z"), sf("2024-06-05T10:00:00Z"), threeRows());
    rest.file("Login", "B", sf("2024-06-05T10:40:00Z"), sf("2024-06-05T10:00:00Z"), threeRows());
    rest.failDownload("A", new DownloadException("gone", 404, "NOT_FOUND", null));

    source(settings(EventTypeSettings.of("Login"))).runOnce(out, stop);

    List<LogEntry> e = out.entries();
    assertThat(e).hasSize(4);
    assertThat(e.get(0).checkpointOnly()).isTrue();
    String afterA = cursorAfter("A", sf("2024-06-05T10:30:00Z"));
    assertThat(e.get(0).checkpoint().value()).isEqualTo(afterA);
    assertThat(e.get(1).checkpoint().value()).isEqualTo(afterA);
    assertThat(e.get(3).checkpoint().value())
        .isEqualTo(cursorAfter("A", sf("2024-06-05T10:30:00Z"), "B", sf("2024-06-05T10:40:00Z")));
    m.collect();
    assertThat(
            m.counter(
                "sf2loki_eventlogfile_files_abandoned",
                Map.of("event_type", "Login", "reason", "HTTP 404")))
        .isEqualTo(1);
    assertThat(m.counter("sf2loki_eventlogfile_download_errors", Map.of("reason", "HTTP 404")))
        .isEqualTo(1);
  }

  @Test
  @DisplayName("ELF-12: a 500 within download_max_age stops the type without advancing")
  void elf12_serverErrorWithinMaxAgeStopsType() throws Exception {
    rest.file("Login", "A", sf("2024-06-05T10:30:00Z"), sf("2024-06-05T10:00:00Z"), threeRows());
    rest.file("Login", "B", sf("2024-06-05T10:40:00Z"), sf("2024-06-05T10:00:00Z"), threeRows());
    rest.failDownload("A", new DownloadException("boom", 500, null, null));
    EventLogFileSource src = source(settings(EventTypeSettings.of("Login")));

    src.runOnce(out, stop);

    assertThat(out.entries()).isEmpty();
    assertThat(rest.downloads()).hasSize(1);
    m.collect();
    assertThat(m.counter("sf2loki_eventlogfile_download_errors", Map.of("reason", "HTTP 500")))
        .isEqualTo(1);
    assertThat(m.counter("sf2loki_eventlogfile_files_abandoned", Map.of())).isZero();
    assertThat(
            m.gauge(
                "sf2loki_source_last_success_timestamp_seconds",
                Map.of("source", "eventlogfile", "object", "Login")))
        .isNull();

    src.runOnce(out, stop); // next cycle: the failure is gone
    assertThat(out.real()).hasSize(6);
  }

  @Test
  @DisplayName("ELF-12: a 500 past download_max_age abandons the file (reason max_age)")
  void elf12_serverErrorPastMaxAgeAbandons() throws Exception {
    rest.file("Login", "A", sf("2024-06-05T09:00:00Z"), sf("2024-06-05T08:00:00Z"), threeRows());
    rest.failDownload("A", new DownloadException("boom", 500, null, null));

    source(settings(Duration.ZERO, Duration.ofHours(1), 2, EventTypeSettings.of("Login")))
        .runOnce(out, stop);

    assertThat(out.entries()).singleElement().matches(LogEntry::checkpointOnly);
    assertThat(out.lastValue(KEY)).isEqualTo(cursorAfter("A", sf("2024-06-05T09:00:00Z")));
    m.collect();
    assertThat(
            m.counter(
                "sf2loki_eventlogfile_files_abandoned",
                Map.of("event_type", "Login", "reason", "max_age")))
        .isEqualTo(1);
  }

  @Test
  @DisplayName("ELF-12: a CSV parse error abandons the file after the rows already parsed")
  void elf12_parseErrorAbandons() throws Exception {
    String body =
        HEADER
            + row("20240605100000.000", "r1", "u1", "200")
            + row("20240605100001.000", "r2", "u2", "200")
            + "\"Login\",\"unterminated\n";
    rest.file("Login", "A", sf("2024-06-05T10:30:00Z"), sf("2024-06-05T10:00:00Z"), body);

    source(settings(EventTypeSettings.of("Login"))).runOnce(out, stop);

    List<LogEntry> e = out.entries();
    assertThat(e).hasSize(3);
    assertThat(e.get(0).checkpoint().value()).isEqualTo(DEFAULT_CURSOR);
    assertThat(e.get(1).checkpoint().value()).isEqualTo(DEFAULT_CURSOR);
    assertThat(e.get(2).checkpointOnly()).isTrue();
    assertThat(e.get(2).checkpoint().value())
        .isEqualTo(cursorAfter("A", sf("2024-06-05T10:30:00Z")));
    m.collect();
    assertThat(
            m.counter(
                "sf2loki_eventlogfile_files_abandoned",
                Map.of("event_type", "Login", "reason", "parse")))
        .isEqualTo(1);
    assertThat(m.counter("sf2loki_eventlogfile_download_errors", Map.of("reason", "parse")))
        .isEqualTo(1);
  }

  @Test
  @DisplayName("ELF-10: a zero-row file is skipped without advancing")
  void elf10_zeroRowFileSkipped() throws Exception {
    rest.file("Login", "A", sf("2024-06-05T10:30:00Z"), sf("2024-06-05T10:00:00Z"), HEADER);

    var report = source(settings(EventTypeSettings.of("Login"))).runOnce(out, stop);

    assertThat(out.entries()).isEmpty();
    assertThat(report.filesDone()).isZero();
  }

  @Test
  @DisplayName(
      "ELF-5: Daily + INVALID_FIELD on Interval lists again at once without Interval/Sequence")
  void elf5_invalidFieldDailyFallback() throws Exception {
    rest.file("Login", "A", sf("2024-06-05T10:30:00Z"), sf("2024-06-05T00:00:00Z"), threeRows());
    rest.failQuery(
        "Login", new InvalidFieldException("No such column 'Interval' on entity 'EventLogFile'"));
    EventLogFileSettings s = settings(EventTypeSettings.of("Login"));
    s =
        new EventLogFileSettings(
            Interval.Daily,
            s.eventTypes(),
            s.exclude(),
            s.pollInterval(),
            s.lookback(),
            s.timestampColumn(),
            s.pageSize(),
            Duration.ZERO,
            s.downloadMaxAge(),
            1,
            s.structuredMetadataFields(),
            false);

    source(s).runOnce(out, stop);

    assertThat(rest.queries()).hasSize(2);
    assertThat(rest.queries().get(1)).doesNotContain("Interval").doesNotContain("Sequence");
    assertThat(out.real()).hasSize(3);
  }

  @Test
  @DisplayName(
      "FEAT-3, OBS-35: eventlogfile reports per type under its checkpoint key: error with the"
          + " exception's class for a failed listing, ok for a clean one")
  void obs35_reportsPollResultsPerType() throws Exception {
    io.sf2loki.core.status.SourceStatusBoard board =
        new io.sf2loki.core.status.SourceStatusBoard(
            time.wall(), io.sf2loki.core.status.Redaction.patternsOnly());
    EventLogFileSource src =
        source(settings(EventTypeSettings.of("Login"), EventTypeSettings.of("API")))
            .reportTo(board);
    rest.failQuery("Login", new SoqlException("boom", 500, null, null));
    src.runOnce(out, stop);
    var login = board.get("eventlogfile:Login");
    assertThat(login.lastPoll().orElseThrow().kind())
        .isEqualTo(io.sf2loki.core.status.SourceStatusBoard.Kind.ERROR);
    assertThat(login.lastPoll().orElseThrow().errorClass()).isEqualTo("SoqlException");
    assertThat(login.lastError().orElseThrow().message()).isEqualTo("boom");
    assertThat(board.get("eventlogfile:API").lastPoll().orElseThrow().kind())
        .isEqualTo(io.sf2loki.core.status.SourceStatusBoard.Kind.OK);
    src.runOnce(out, stop);
    assertThat(board.get("eventlogfile:Login").lastPoll().orElseThrow().kind())
        .isEqualTo(io.sf2loki.core.status.SourceStatusBoard.Kind.OK);
  }

  @Test
  @DisplayName(
      "OBS-34, DOC-3: a listing failure's WARN shows the error with the reporter's configured"
          + " secret and a Bearer credential masked")
  void obs34_listingFailureLogMasksSecrets() throws Exception {
    io.sf2loki.core.status.SourceStatusBoard board =
        new io.sf2loki.core.status.SourceStatusBoard(
            time.wall(), new io.sf2loki.core.status.Redaction(List.of("s3cr3t-elf")));
    EventLogFileSource src = source(settings(EventTypeSettings.of("Login"))).reportTo(board);
    rest.failQuery(
        "Login",
        new SoqlException(
            "HTTP 500: echo s3cr3t-elf; Authorization: Bearer 00Dxx!abc", 500, null, null));
    try (var logs = io.sf2loki.salesforce.testing.LogRecorder.of(EventLogFileSource.class)) {
      src.runOnce(out, stop);
      assertThat(logs.failures())
          .filteredOn(l -> l.startsWith("eventlogfile listing failed"))
          .singleElement()
          .satisfies(
              l ->
                  assertThat(l)
                      .contains("error=HTTP 500: echo ***; Authorization: Bearer ***")
                      .doesNotContain("s3cr3t-elf")
                      .doesNotContain("00Dxx"));
    }
  }

  @Test
  @DisplayName(
      "ELF-5/SRC-19: Hourly + INVALID_FIELD fails the type; poll errors escalate and count")
  void src19_pollErrorsCounted() throws Exception {
    EventLogFileSource src = source(settings(EventTypeSettings.of("Login")));
    rest.failQuery(
        "Login", new InvalidFieldException("No such column 'Interval' on entity 'EventLogFile'"));
    rest.failQuery("Login", new SoqlException("boom", 500, null, null));
    rest.failQuery("Login", new SoqlException("boom", 0, null, null));
    for (int i = 0; i < 3; i++) {
      src.runOnce(out, stop);
    }
    m.collect();
    assertThat(
            m.counter(
                "sf2loki_soql_poll_errors", Map.of("source", "eventlogfile", "object", "Login")))
        .isEqualTo(3);
    assertThat(m.counter("sf2loki_eventlogfile_download_errors", Map.of("reason", "listing")))
        .isEqualTo(3);
    assertThat(rest.queries()).hasSize(3);
    src.runOnce(out, stop); // clean poll
    m.collect();
    assertThat(
            m.gauge(
                "sf2loki_source_last_success_timestamp_seconds",
                Map.of("source", "eventlogfile", "object", "Login")))
        .isNotNull();
  }

  @Test
  @DisplayName(
      "ELF-3/ELF-15: a throttle skips waiting types; the next cycle starts after the last started type")
  void elf3_rotationAndThrottle() throws Exception {
    EventLogFileSource src =
        source(
            settings(
                Duration.ZERO,
                Duration.ofHours(24),
                1,
                EventTypeSettings.of("A"),
                EventTypeSettings.of("B"),
                EventTypeSettings.of("C")));
    rest.failQuery("B", new SoqlThrottledException("REQUEST_LIMIT_EXCEEDED"));

    var r1 = src.runOnce(out, stop);
    assertThat(r1.throttled()).isTrue();
    assertThat(typesQueried()).containsExactly("A", "B");

    src.runOnce(out, stop);
    assertThat(typesQueried()).containsExactly("A", "B", "C", "A", "B");
  }

  @Test
  @DisplayName("ELF-12/ELF-15: a download throttle stops the type and marks the cycle throttled")
  void elf12_downloadThrottle() throws Exception {
    rest.file("A", "F1", sf("2024-06-05T10:30:00Z"), sf("2024-06-05T10:00:00Z"), threeRows());
    rest.failDownload("F1", new DownloadThrottledException("REQUEST_LIMIT_EXCEEDED"));
    EventLogFileSource src =
        source(
            settings(
                Duration.ZERO,
                Duration.ofHours(24),
                1,
                EventTypeSettings.of("A"),
                EventTypeSettings.of("B")));

    var r = src.runOnce(out, stop);

    assertThat(r.throttled()).isTrue();
    assertThat(typesQueried()).containsExactly("A");
    assertThat(out.entries()).isEmpty();
    m.collect();
    assertThat(m.counter("sf2loki_eventlogfile_download_errors", Map.of("reason", "HTTP 403")))
        .isEqualTo(1);
  }

  private List<String> typesQueried() {
    List<String> out = new ArrayList<>();
    for (String q : rest.queries()) {
      if (q.contains("GROUP BY")) {
        continue;
      }
      int i = q.indexOf("EventType='") + 11;
      out.add(q.substring(i, q.indexOf('\'', i)));
    }
    return out;
  }

  @Test
  @DisplayName("SRC-13/ELF-14: replays produce byte-identical lines, timestamps and labels")
  void src13_deterministicReplay() throws Exception {
    rest.file("Login", "A", sf("2024-06-05T10:30:00Z"), sf("2024-06-05T10:00:00Z"), threeRows());
    source(settings(EventTypeSettings.of("Login"))).runOnce(out, stop);
    List<LogEntry> first = out.real();
    out.clear();
    time.advance(Duration.ofMinutes(7));
    new EventLogFileSource(
            settings(EventTypeSettings.of("Login")),
            rest,
            SourceContext.of(
                time.timeSource(), Runnable::run, m.metrics, new InMemoryCheckpointStore()))
        .runOnce(out, stop);
    List<LogEntry> second = out.real();
    assertThat(second).hasSameSizeAs(first);
    for (int i = 0; i < first.size(); i++) {
      assertThat(second.get(i).line()).isEqualTo(first.get(i).line());
      assertThat(second.get(i).timestamp()).isEqualTo(first.get(i).timestamp());
      assertThat(second.get(i).labels()).isEqualTo(first.get(i).labels());
      assertThat(second.get(i).structuredMetadata()).isEqualTo(first.get(i).structuredMetadata());
    }
  }

  @Test
  @DisplayName(
      "ELF-14/SRC-12: promoted labels, per-type metadata, timestamp fallbacks with the 167 h floor")
  void elf14_shapingDetails() throws Exception {
    String body =
        HEADER
            + row("bad", "r0", "u0", "200") // no previous row: LogDate (floored)
            + row("20240605100000.000", "r1", "u1", "200")
            + row("", "r2", "", "200"); // previous parsed row
    rest.file("Login", "A", sf("2024-06-05T10:30:00Z"), sf("2024-05-01T00:00:00Z"), body);
    EventTypeSettings t =
        new EventTypeSettings("Login", List.of("user_id"), List.of("USER_ID"), 1.0);

    source(settings(t)).runOnce(out, stop);

    List<LogEntry> e = out.real();
    assertThat(e.get(0).timestamp()).isEqualTo(NOW.minus(Duration.ofHours(167)));
    assertThat(e.get(1).timestamp()).isEqualTo(Instant.parse("2024-06-05T10:00:00Z"));
    assertThat(e.get(2).timestamp()).isEqualTo(Instant.parse("2024-06-05T10:00:00Z"));
    assertThat(e.get(1).labels())
        .containsExactly(
            Map.entry("USER_ID", "u1"),
            Map.entry("source", "eventlogfile"),
            Map.entry("event_type", "Login"));
    assertThat(e.get(2).labels()).doesNotContainKey("USER_ID");
    assertThat(e.get(1).structuredMetadata()).containsEntry("user_id", "u1").containsKey("level");
    m.collect();
    assertThat(m.counter("sf2loki_timestamp_fallbacks", Map.of("source", "eventlogfile")))
        .isEqualTo(2);
  }

  @Test
  @DisplayName(
      "ELF-14, SRC-14, SRC-3, SRC-4: sampling keeps a deterministic subset; a sampled-out row"
          + " produces no entry but the cursor still moves past it")
  void elf14_sampling() throws Exception {
    StringBuilder body = new StringBuilder(HEADER);
    for (int i = 0; i < 200; i++) {
      body.append(row("20240605100000.000", "req" + i, "u", "200"));
    }
    rest.file(
        "Login", "A", sf("2024-06-05T10:30:00Z"), sf("2024-06-05T10:00:00Z"), body.toString());
    EventTypeSettings t = new EventTypeSettings("Login", null, List.of(), 0.5);

    source(settings(t)).runOnce(out, stop);

    long expected = 0;
    for (int i = 0; i < 200; i++) {
      if (io.sf2loki.core.shape.Sampler.keep("req" + i, 0.5)) {
        expected++;
      }
    }
    assertThat(out.real()).hasSize((int) expected);
    assertThat(expected).isBetween(60L, 140L);
    assertThat(out.lastValue(KEY)).isEqualTo(cursorAfter("A", sf("2024-06-05T10:30:00Z")));
    m.collect();
    assertThat(
            m.counter(
                "sf2loki_entries_sampled_out",
                Map.of("source", "eventlogfile", "event_type", "Login")))
        .isEqualTo(200 - expected);
  }

  @Test
  @DisplayName("ELF-13: rows all dropped → one trailing checkpoint-only entry with the final value")
  void elf13_trailingCheckpointOnly() throws Exception {
    rest.file("Login", "A", sf("2024-06-05T10:30:00Z"), sf("2024-06-05T10:00:00Z"), threeRows());
    EventLogFileSource src =
        new EventLogFileSource(
            settings(EventTypeSettings.of("Login")),
            rest,
            SourceContext.of(time.timeSource(), cpu, m.metrics, store),
            row -> false,
            name -> false);

    src.runOnce(out, stop);

    assertThat(out.entries()).singleElement().matches(LogEntry::checkpointOnly);
    assertThat(out.lastValue(KEY)).isEqualTo(cursorAfter("A", sf("2024-06-05T10:30:00Z")));
  }

  @Test
  @DisplayName("ELF-9/ELF-14: a real Salesforce sample parses into one entry per row")
  void elf9_realSampleRowCount() throws Exception {
    rest.file(
        "Login",
        "A",
        sf("2024-06-05T10:30:00Z"),
        sf("2024-06-05T00:00:00Z"),
        ElfCsvReaderTest.resource("sfdc_elf_Login_first300rows.csv"));

    source(settings(EventTypeSettings.of("Login"))).runOnce(out, stop);

    assertThat(out.real()).hasSize(300);
    assertThat(out.entries().get(299).checkpoint().value())
        .isEqualTo(cursorAfter("A", sf("2024-06-05T10:30:00Z")));
  }

  @Test
  @DisplayName(
      "ELF-1: run() with finite runs cycles back to back and stops after one with nothing new")
  void elf1_finiteRunDrainsWithoutWaiting() throws Exception {
    rest.file("Login", "A", sf("2024-06-05T10:30:00Z"), sf("2024-06-05T10:00:00Z"), threeRows());
    EventLogFileSource src = source(settings(EventTypeSettings.of("Login")).withFinite(true));

    src.run(out, stop);

    assertThat(out.real()).hasSize(3);
    assertThat(rest.queries()).hasSize(2);
    assertThat(time.sleeps()).isEmpty();
  }

  @Test
  @DisplayName("ELF-1, SRC-21: cycles are separated by a jittered poll_interval (stop-aware)")
  void elf1_jitteredPollInterval() throws Exception {
    rest.file("Login", "A", sf("2024-06-05T10:30:00Z"), sf("2024-06-05T10:00:00Z"), threeRows());
    List<Duration> waits = new ArrayList<>();
    TimeSource stopAfterFirstWait =
        new TimeSource(
            time.wall(),
            time.ticker(),
            (d, s) -> {
              waits.add(d);
              stop.stop();
              return false;
            });
    new EventLogFileSource(
            settings(EventTypeSettings.of("Login")),
            rest,
            SourceContext.of(stopAfterFirstWait, cpu, m.metrics, store))
        .run(out, stop);

    assertThat(out.real()).hasSize(3);
    assertThat(waits)
        .singleElement()
        .satisfies(d -> assertThat(d).isBetween(Duration.ofMinutes(54), Duration.ofMinutes(66)));
  }

  @Test
  @DisplayName("SRC-2: run() returns at once when stopped, and when the emitter refuses")
  void src2_stopAware() throws Exception {
    rest.file("Login", "A", sf("2024-06-05T10:30:00Z"), sf("2024-06-05T10:00:00Z"), threeRows());
    EventLogFileSource src = source(settings(EventTypeSettings.of("Login")));
    List<LogEntry> got = new ArrayList<>();
    src.run(
        e -> {
          got.add(e);
          return false;
        },
        stop);
    assertThat(got).hasSize(1);

    StopSignal stopped = new StopSignal();
    stopped.stop();
    source(settings(EventTypeSettings.of("Login"))).run(out, stopped);
    assertThat(out.entries()).isEmpty();
  }

  @Test
  @DisplayName("ELF-15: an unexpected worker failure is re-raised after the cycle")
  void elf15_unexpectedFailureReraised() {
    rest.failQuery("Login", new IllegalStateException("bug"));
    EventLogFileSource src =
        source(settings(EventTypeSettings.of("Login"), EventTypeSettings.of("API")));
    assertThatThrownBy(() -> src.runOnce(out, stop)).isInstanceOf(IllegalStateException.class);
    assertThat(typesQueried()).containsExactlyInAnyOrder("Login", "API");
  }

  @Test
  @DisplayName("ELF-2: '*' discovers types not explicit, not excluded and not owned elsewhere")
  void elf2_discovery() throws Exception {
    for (String t : List.of("Login", "API", "Logout", "ApexCallout")) {
      rest.file(t, "F" + t, sf("2024-06-05T10:30:00Z"), sf("2024-06-05T10:00:00Z"), threeRows());
    }
    EventLogFileSettings base =
        settings(EventTypeSettings.of("Login"), new EventTypeSettings("*", null, List.of(), 1.0));
    EventLogFileSettings s =
        new EventLogFileSettings(
            base.interval(),
            base.eventTypes(),
            List.of("Logout"),
            base.pollInterval(),
            base.lookback(),
            base.timestampColumn(),
            base.pageSize(),
            base.settleWindow(),
            base.downloadMaxAge(),
            1,
            base.structuredMetadataFields(),
            false);
    EventLogFileSource src =
        new EventLogFileSource(
            s,
            rest,
            SourceContext.of(time.timeSource(), cpu, m.metrics, store),
            RowTransform.NONE,
            name -> name.equals("ApexCallout"));

    src.runOnce(out, stop);

    assertThat(rest.queries().get(0))
        .isEqualTo("SELECT EventType FROM EventLogFile WHERE Interval='Hourly' GROUP BY EventType");
    assertThat(typesQueried()).containsExactly("Login", "API");
    assertThat(out.real())
        .extracting(e -> e.labels().get("event_type"))
        .containsOnly("Login", "API");
  }

  @Test
  @DisplayName(
      "ELF-2/ELF-3: a failed discovery uses explicit types; a throttled one processes none")
  void elf2_discoveryFailureAndThrottle() throws Exception {
    EventLogFileSource src =
        source(
            settings(
                EventTypeSettings.of("Login"), new EventTypeSettings("*", null, List.of(), 1.0)));
    rest.failQuery("*", new SoqlException("boom", 500, null, null));
    rest.failQuery("*", new SoqlThrottledException("REQUEST_LIMIT_EXCEEDED"));

    src.runOnce(out, stop);
    assertThat(typesQueried()).containsExactly("Login");
    var r = src.runOnce(out, stop);
    assertThat(r.throttled()).isTrue();
    assertThat(typesQueried()).containsExactly("Login");
    m.collect();
    assertThat(
            m.counter(
                "sf2loki_soql_poll_errors",
                Map.of("source", "eventlogfile", "object", "discovery")))
        .isEqualTo(1);
  }
}
