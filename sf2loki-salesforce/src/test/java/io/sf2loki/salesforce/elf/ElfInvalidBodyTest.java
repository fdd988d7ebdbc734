package io.sf2loki.salesforce.elf;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.testing.InMemoryCheckpointStore;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.salesforce.elf.EventLogFileSettings.EventTypeSettings;
import io.sf2loki.salesforce.elf.EventLogFileSettings.Interval;
import io.sf2loki.salesforce.rest.InvalidBodyException;
import io.sf2loki.salesforce.rest.InvalidFieldException;
import io.sf2loki.salesforce.source.SourceContext;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** SRC-27 (ELF-5 naming) and SRC-28 (ELF-12 invalid bodies) at the source level. */
class ElfInvalidBodyTest {
  private static final Instant NOW = Instant.parse("2024-06-05T12:00:00Z");
  private static final String KEY = "eventlogfile:Login";
  private static final String CSV =
      "\"EVENT_TYPE\",\"TIMESTAMP\",\"REQUEST_ID\"\n"
          + "\"Login\",\"20240605100000.000\",\"r1\"\n"
          + "\"Login\",\"20240605100001.000\",\"r2\"\n";

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

  private static EventLogFileSettings settings(Interval interval, Duration maxAge) {
    return new EventLogFileSettings(
        interval,
        List.of(EventTypeSettings.of("Login")),
        List.of(),
        Duration.ofHours(1),
        Duration.ofHours(24),
        "TIMESTAMP_DERIVED",
        1000,
        Duration.ZERO,
        maxAge,
        1,
        List.of(),
        false);
  }

  private EventLogFileSource source(EventLogFileSettings s) {
    return new EventLogFileSource(
        s, rest, SourceContext.of(time.timeSource(), cpu, m.metrics, store));
  }

  private static String sf(String iso) {
    return Instant.parse(iso).toString().replace("Z", "") + ".000+0000";
  }

  private static InvalidBodyException htmlPage() {
    return new InvalidBodyException(
        200, InvalidBodyException.Problem.HTML_PAGE, "text/html", 5842L, 1480);
  }

  @Test
  @DisplayName(
      "SRC-28, ELF-12: a 200 HTML page within download_max_age is never shipped and never"
          + " advances; counted invalid_body; the real body lands on the next cycle")
  void htmlWithinMaxAgeStopsTheType() throws Exception {
    rest.file("Login", "A", sf("2024-06-05T10:30:00Z"), sf("2024-06-05T10:00:00Z"), CSV);
    rest.file("Login", "B", sf("2024-06-05T10:40:00Z"), sf("2024-06-05T10:00:00Z"), CSV);
    rest.failDownload("A", htmlPage());
    rest.failDownload("A", htmlPage());
    EventLogFileSource src = source(settings(Interval.Hourly, Duration.ofHours(24)));

    src.runOnce(out, stop);
    src.runOnce(out, stop);
    assertThat(out.entries()).isEmpty();
    m.collect();
    assertThat(m.counter("sf2loki_eventlogfile_download_errors", Map.of("reason", "invalid_body")))
        .isEqualTo(2);
    assertThat(m.counter("sf2loki_eventlogfile_files_abandoned", Map.of())).isZero();

    src.runOnce(out, stop);
    assertThat(out.real()).hasSize(4);
    assertThat(out.real()).allSatisfy(e -> assertThat(e.line()).doesNotContain("html"));
  }

  @Test
  @DisplayName(
      "SRC-28, ELF-12: an HTML page on a file older than download_max_age still abandons it"
          + " (reason max_age), without shipping the page")
  void htmlPastMaxAgeAbandons() throws Exception {
    rest.file("Login", "A", sf("2024-06-05T09:00:00Z"), sf("2024-06-05T08:00:00Z"), CSV);
    rest.failDownload("A", htmlPage());

    source(settings(Interval.Hourly, Duration.ofHours(1))).runOnce(out, stop);

    assertThat(out.entries()).singleElement().matches(LogEntry::checkpointOnly);
    m.collect();
    assertThat(
            m.counter(
                "sf2loki_eventlogfile_files_abandoned",
                Map.of("event_type", "Login", "reason", "max_age")))
        .isEqualTo(1);
    assertThat(out.lastValue(KEY)).isNotNull();
  }

  @Test
  @DisplayName(
      "SRC-27, ELF-5: the fallback follows the rejected column, not the echoed query: a column"
          + " other than Interval/Sequence does not switch to the Daily form")
  void fallbackFollowsTheColumn() throws Exception {
    rest.file("Login", "A", sf("2024-06-05T10:30:00Z"), sf("2024-06-05T00:00:00Z"), CSV);
    String echo =
        "HTTP 400: [{\"message\":\"SELECT Id,EventType,Interval,LogDate FROM EventLogFile ^ ERROR"
            + " at Row:1:Column:8 No such column 'Foo' on entity 'EventLogFile'.\"";
    rest.failQuery("Login", new InvalidFieldException(echo, List.of("Foo"), java.util.Set.of()));

    source(settings(Interval.Daily, Duration.ofHours(24))).runOnce(out, stop);

    assertThat(rest.queries()).hasSize(1);
    assertThat(out.entries()).isEmpty();
    m.collect();
    assertThat(m.counter("sf2loki_soql_poll_errors", Map.of("source", "eventlogfile")))
        .isEqualTo(1);
  }
}
