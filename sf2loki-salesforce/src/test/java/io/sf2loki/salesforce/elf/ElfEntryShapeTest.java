package io.sf2loki.salesforce.elf;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import de.siegmar.fastcsv.reader.CsvReader;
import de.siegmar.fastcsv.reader.CsvRecord;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.shape.CanonicalJson;
import io.sf2loki.core.testing.InMemoryCheckpointStore;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.salesforce.elf.EventLogFileSettings.EventTypeSettings;
import io.sf2loki.salesforce.elf.EventLogFileSettings.Interval;
import io.sf2loki.salesforce.rest.SoqlException;
import io.sf2loki.salesforce.source.SourceContext;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Shape of every real ELF entry against real sample files (SRC-5, SRC-6) and the per-type
 * last-success gauge (OBS-14).
 */
class ElfEntryShapeTest {
  private static final Instant NOW = Instant.parse("2024-06-05T12:00:00Z");

  private final FakeTime time = new FakeTime(NOW);
  private final FakeSalesforceRest rest = new FakeSalesforceRest(time::now);
  private final ElfTestSupport.Metrics m = new ElfTestSupport.Metrics();
  private final ElfTestSupport.Collector out = new ElfTestSupport.Collector();
  private final StopSignal stop = new StopSignal();

  @AfterEach
  void tearDown() {
    m.close();
  }

  private static EventLogFileSettings settings(EventTypeSettings... types) {
    return new EventLogFileSettings(
        Interval.Hourly,
        List.of(types),
        List.of(),
        Duration.ofHours(1),
        Duration.ofHours(24),
        "TIMESTAMP_DERIVED",
        1000,
        Duration.ZERO,
        Duration.ofHours(24),
        2,
        List.of(),
        false);
  }

  private EventLogFileSource source(EventLogFileSettings s) {
    return new EventLogFileSource(
        s,
        rest,
        SourceContext.of(
            time.timeSource(), Runnable::run, m.metrics, new InMemoryCheckpointStore()));
  }

  private static String sf(String iso) {
    return Instant.parse(iso).toString().replace("Z", "") + ".000+0000";
  }

  /** The rows of a CSV body as ordered column → value maps, read independently with FastCSV. */
  private static List<Map<String, String>> rows(byte[] csv) throws Exception {
    String text = new String(csv, StandardCharsets.UTF_8);
    if (text.startsWith("\uFEFF")) {
      text = text.substring(1);
    }
    List<Map<String, String>> out = new ArrayList<>();
    try (CsvReader<CsvRecord> r = CsvReader.builder().ofCsvRecord(text)) {
      List<String> header = null;
      for (CsvRecord rec : r) {
        if (header == null) {
          header = rec.getFields();
          continue;
        }
        Map<String, String> row = new LinkedHashMap<>();
        for (int i = 0; i < header.size(); i++) {
          row.put(header.get(i), i < rec.getFieldCount() ? rec.getField(i) : "");
        }
        out.add(row);
      }
    }
    return out;
  }

  @Test
  @DisplayName(
      "SRC-5, SRC-6, SRC-7: every real entry of real sample files has exactly the labels source"
          + " and event_type, and its line is the canonical JSON of its CSV row")
  void src5_src6_labelsAndCanonicalLineOfEveryRow() throws Exception {
    Map<String, String> samples =
        Map.of(
            "Login", "sfdc_elf_Login_first300rows.csv",
            "UITracking", "sfdc_elf_UITracking.csv",
            "ApexUnexpectedException", "reconstructed_ApexUnexpectedException_multiline.csv");
    Map<String, List<Map<String, String>>> expected = new TreeMap<>();
    int minute = 0;
    for (var s : samples.entrySet()) {
      byte[] body = ElfCsvReaderTest.resource(s.getValue());
      rest.file(
          s.getKey(),
          "0AT" + s.getKey(),
          sf("2024-06-05T10:" + (10 + minute++) + ":00Z"),
          sf("2024-06-05T09:00:00Z"),
          body);
      expected.put(s.getKey(), rows(body));
    }
    List<EventTypeSettings> types =
        samples.keySet().stream().sorted().map(EventTypeSettings::of).toList();

    source(settings(types.toArray(EventTypeSettings[]::new))).runOnce(out, stop);

    ObjectMapper json = new ObjectMapper();
    Map<String, List<LogEntry>> byType = new TreeMap<>();
    for (LogEntry e : out.real()) {
      assertThat(e.labels()).containsOnlyKeys("source", "event_type");
      assertThat(e.labels()).containsEntry("source", "eventlogfile");
      byType.computeIfAbsent(e.labels().get("event_type"), k -> new ArrayList<>()).add(e);
    }
    assertThat(byType.keySet()).isEqualTo(expected.keySet());
    for (var t : expected.entrySet()) {
      List<LogEntry> got = byType.get(t.getKey());
      assertThat(got).as(t.getKey()).hasSameSizeAs(t.getValue()).isNotEmpty();
      for (int i = 0; i < got.size(); i++) {
        Map<String, String> row = t.getValue().get(i);
        String line = got.get(i).line();
        assertThat(line).as("%s row %d", t.getKey(), i).isEqualTo(CanonicalJson.write(row));
        // and the line is plain JSON of exactly the row's string values
        assertThat(json.readValue(line, Map.class)).isEqualTo(row);
      }
    }
  }

  @Test
  @DisplayName(
      "SRC-5, ELF-14: with promoted columns, the labels are the non-empty promoted columns plus"
          + " source and event_type, nothing else")
  void src5_promotedColumnsOnly() throws Exception {
    String csv =
        "\"EVENT_TYPE\",\"TIMESTAMP\",\"USER_TYPE\",\"API_TYPE\",\"REQUEST_ID\"\n"
            + "\"API\",\"20240605100000.000\",\"Standard\",\"REST\",\"r1\"\n"
            + "\"API\",\"20240605100001.000\",\"\",\"SOAP\",\"r2\"\n";
    rest.file("API", "0AT1", sf("2024-06-05T10:30:00Z"), sf("2024-06-05T10:00:00Z"), csv);
    EventTypeSettings t = new EventTypeSettings("API", null, List.of("USER_TYPE", "API_TYPE"), 1.0);

    source(settings(t)).runOnce(out, stop);

    List<LogEntry> e = out.real();
    assertThat(e).hasSize(2);
    assertThat(e.get(0).labels())
        .containsOnly(
            Map.entry("USER_TYPE", "Standard"),
            Map.entry("API_TYPE", "REST"),
            Map.entry("source", "eventlogfile"),
            Map.entry("event_type", "API"));
    assertThat(e.get(1).labels())
        .containsOnly(
            Map.entry("API_TYPE", "SOAP"),
            Map.entry("source", "eventlogfile"),
            Map.entry("event_type", "API"));
    // promoted columns stay in the line
    assertThat(e.get(0).line()).contains("\"USER_TYPE\": \"Standard\"");
  }

  @Test
  @DisplayName(
      "OBS-14: sf2loki_source_last_success_timestamp_seconds{source=eventlogfile,object=<T>} is"
          + " set to now after each clean poll of T, and not by a failed one")
  void obs14_lastSuccessAfterCleanPoll() throws Exception {
    rest.file(
        "Login",
        "0AT1",
        sf("2024-06-05T10:30:00Z"),
        sf("2024-06-05T10:00:00Z"),
        "\"EVENT_TYPE\",\"TIMESTAMP\"\n\"Login\",\"20240605100000.000\"\n");
    rest.failQuery("API", new SoqlException("boom", 500, null, null));
    EventLogFileSource src =
        source(settings(EventTypeSettings.of("Login"), EventTypeSettings.of("API")));
    Map<String, String> login = Map.of("source", "eventlogfile", "object", "Login");
    Map<String, String> api = Map.of("source", "eventlogfile", "object", "API");
    String gauge = "sf2loki_source_last_success_timestamp_seconds";

    src.runOnce(out, stop);
    m.collect();
    assertThat(m.gauge(gauge, login)).isEqualTo(NOW.getEpochSecond());
    assertThat(m.gauge(gauge, api)).as("the failed poll sets nothing").isNull();

    // next cycle, 10 minutes later: nothing new for Login (still a clean poll), API recovers
    time.advance(Duration.ofMinutes(10));
    src.runOnce(out, stop);
    m.collect();
    double later = NOW.plus(Duration.ofMinutes(10)).getEpochSecond();
    assertThat(m.gauge(gauge, login)).isEqualTo(later);
    assertThat(m.gauge(gauge, api)).isEqualTo(later);

    // a failed poll leaves the last success in place (its age grows on dashboards)
    rest.failQuery("Login", new SoqlException("boom", 500, null, null));
    time.advance(Duration.ofMinutes(10));
    src.runOnce(out, stop);
    m.collect();
    assertThat(m.gauge(gauge, login)).isEqualTo(later);
    Set<String> seen = new HashSet<>();
    out.real().forEach(e -> seen.add(e.labels().get("event_type")));
    assertThat(seen).containsExactly("Login");
  }
}
