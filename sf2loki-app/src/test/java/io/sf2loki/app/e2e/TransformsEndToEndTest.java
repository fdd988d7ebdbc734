package io.sf2loki.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import de.siegmar.fastcsv.reader.CsvReader;
import de.siegmar.fastcsv.reader.CsvRecord;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.sf2loki.app.config.ConfigLoader;
import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.app.demo.DemoScenario;
import io.sf2loki.app.run.Daemon;
import io.sf2loki.app.run.DaemonOptions;
import io.sf2loki.app.testing.RetainingMetricReader;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.Ticker;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.sim.loki.ReceivedEntry;
import io.sf2loki.sim.org.SimLogFile;
import io.sf2loki.state.file.FileCheckpointStore;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Transforms end to end (SPEC XF-1…XF-7, XF-14; issue 15 acceptance): the simulated org serves
 * EventLogFiles, the real daemon applies a salted {@code hash} rule on the client IP columns, a
 * {@code regex_replace} and a {@code drop_row} rule, and ships to the Loki-compatible receiver.
 */
class TransformsEndToEndTest {
  private static final int ROWS_PER_FILE = 120;
  private static final String SALT = "pepper-7f3a";
  private static final List<String> IP_COLUMNS = List.of("CLIENT_IP", "SOURCE_IP");
  private static final Pattern DOTTED_QUAD =
      Pattern.compile("(?<![0-9.])[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}(?![0-9.])");
  private static final Pattern RAW_USER_NAME =
      Pattern.compile("\"USER_NAME\": \"[^\"]*@example\\.com\"");

  /** Real wall clock and ticker; every wait (retry backoff, poll interval) lasts 2 ms. */
  private static final TimeSource FAST =
      new TimeSource(
          InstantSource.system(),
          Ticker.system(),
          (d, stop) -> !stop.await(Duration.ofMillis(Math.min(2, Math.max(0, d.toMillis())))));

  private DemoScenario scenario;
  private Path state;
  private final RetainingMetricReader reader = new RetainingMetricReader();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @BeforeEach
  void start() throws Exception {
    scenario = DemoScenario.start(ROWS_PER_FILE, false, true, Instant.now());
    state = scenario.dir().resolve("state/state.json");
  }

  @AfterEach
  void stop() {
    scenario.close();
  }

  private Sf2lokiConfig config() throws Exception {
    Path file = scenario.writeConfig(scenario.receiver().pushUrl(), state);
    String yaml = Files.readString(file);
    yaml =
        yaml.replace("sources:\n", "sources:\n  transform_salt: \"" + SALT + "\"\n")
            .replace(
                "    event_types:\n",
                """
                    transforms:
                      - {action: hash, fields: [CLIENT_IP, SOURCE_IP]}
                      - {action: regex_replace, fields: [USER_NAME], pattern: '@.*', \
                replacement: '@example.invalid'}
                      - {action: drop_row, name: partner-uri, match: {EVENT_TYPE: URI, \
                USER_TYPE: Partner}}
                    event_types:
                """);
    Files.writeString(file, yaml);
    return new ConfigLoader().load(file, Map.of());
  }

  private int runDaemon(Sf2lokiConfig cfg) {
    Daemon d =
        new Daemon(
            cfg,
            new DaemonOptions(true, reader, UnaryOperator.identity(), FAST),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    return d.run(new StopSignal());
  }

  /** Every data row the org serves, as column → value. */
  private static List<Map<String, String>> rows(List<SimLogFile> files) throws Exception {
    List<Map<String, String>> out = new ArrayList<>();
    for (SimLogFile f : files) {
      byte[] body;
      try (InputStream in = f.body().open()) {
        body = in.readAllBytes();
      }
      try (CsvReader<CsvRecord> r =
          CsvReader.builder().ofCsvRecord(new String(body, StandardCharsets.UTF_8))) {
        List<String> header = null;
        for (CsvRecord rec : r) {
          if (header == null) {
            header = rec.getFields();
            continue;
          }
          Map<String, String> row = new HashMap<>();
          for (int i = 0; i < header.size() && i < rec.getFieldCount(); i++) {
            row.put(header.get(i), rec.getField(i));
          }
          out.add(row);
        }
      }
    }
    return out;
  }

  private static String hash(String text) throws Exception {
    byte[] d =
        MessageDigest.getInstance("SHA-256").digest((SALT + text).getBytes(StandardCharsets.UTF_8));
    return HexFormat.of().formatHex(d).substring(0, 16);
  }

  private long counter(String name, AttributeKey<String> key, String value) {
    long sum = 0;
    for (MetricData m : reader.collectAllMetrics()) {
      if (m.getName().equals(name)) {
        for (var p : m.getLongSumData().getPoints()) {
          if (value.equals(p.getAttributes().get(key))) {
            sum += p.getValue();
          }
        }
      }
    }
    return sum;
  }

  @Test
  @DisplayName(
      "XF-1, XF-2, XF-5, XF-6, XF-14: a salted hash on CLIENT_IP leaves no raw client IP in any"
          + " stored line, label or structured metadata; drop_row rows are counted and their"
          + " files still committed; a restart hashes the same input to the same output")
  void xf2_hashedClientIpsNeverStoredAndStableAcrossRestarts() throws Exception {
    List<Map<String, String>> rows = rows(scenario.org().logFiles());
    Set<String> rawIps = new TreeSet<>();
    long partnerUri = 0;
    for (Map<String, String> r : rows) {
      for (String c : IP_COLUMNS) {
        String v = r.get(c);
        if (v != null && !v.isEmpty()) {
          rawIps.add(v);
        }
      }
      if ("URI".equals(r.get("EVENT_TYPE")) && "Partner".equals(r.get("USER_TYPE"))) {
        partnerUri++;
      }
    }
    assertThat(rawIps).as("the simulated rows carry client IPs").hasSizeGreaterThan(50);
    List<String> otherRaw = rawIps.stream().filter(v -> !DOTTED_QUAD.matcher(v).matches()).toList();
    assertThat(partnerUri).as("some rows match the drop_row rule").isPositive();

    int status = runDaemon(config());

    assertThat(status).as(err.toString(StandardCharsets.UTF_8)).isZero();
    List<ReceivedEntry> got = scenario.receiver().entries();
    assertThat(got).hasSize((int) (rows.size() - partnerUri));
    for (ReceivedEntry e : got) {
      List<String> stored = new ArrayList<>();
      stored.add(e.line());
      stored.addAll(e.structuredMetadata().values());
      stored.addAll(e.labels().values());
      for (String text : stored) {
        Matcher m = DOTTED_QUAD.matcher(text);
        while (m.find()) {
          assertThat(rawIps).as("raw client IP in a stored entry").doesNotContain(m.group());
        }
        for (String other : otherRaw) {
          assertThat(text).as("raw client IP value in a stored entry").doesNotContain(other);
        }
      }
    }
    Map<String, String> byRequest = new HashMap<>();
    for (Map<String, String> r : rows) {
      if (r.containsKey("CLIENT_IP") && r.get("REQUEST_ID") != null) {
        byRequest.put(r.get("REQUEST_ID"), r.get("CLIENT_IP"));
      }
    }
    int checked = 0;
    for (ReceivedEntry e : got) {
      String raw = byRequest.get(e.structuredMetadata().get("REQUEST_ID"));
      if (raw != null && !raw.isEmpty()) {
        assertThat(e.structuredMetadata()).containsEntry("CLIENT_IP", hash(raw));
        assertThat(e.line()).contains("\"CLIENT_IP\": \"" + hash(raw) + "\"");
        checked++;
      }
    }
    assertThat(checked).as("entries whose hash was checked").isGreaterThan(100);
    assertThat(got).noneMatch(e -> RAW_USER_NAME.matcher(e.line()).find());
    assertThat(got).anyMatch(e -> e.line().contains("@example.invalid\""));
    assertThat(got)
        .filteredOn(e -> "URI".equals(e.labels().get("event_type")))
        .isNotEmpty()
        .allSatisfy(e -> assertThat(e.line()).doesNotContain("\"USER_TYPE\": \"Partner\""));
    assertThat(counter("sf2loki_rows_filtered", AttributeKey.stringKey("rule"), "partner-uri"))
        .isEqualTo(partnerUri);
    // XF-14: the dropped rows' files are committed like any other (at-least-once, not stuck)
    try (var store = new FileCheckpointStore(state, FileCheckpointStore.LockMode.NONE)) {
      String uri = store.snapshot().get("eventlogfile:URI");
      assertThat(uri).isNotNull();
      SimLogFile newest =
          scenario.org().logFiles().stream()
              .filter(f -> f.eventType().equals("URI"))
              .max(java.util.Comparator.comparing(SimLogFile::createdDate))
              .orElseThrow();
      assertThat(uri).contains(newest.id());
    }

    // restart: a new daemon (new chain) over the same files, checkpoints removed, yields
    // byte-identical entries: every one collapses in the receiver as a duplicate
    Files.delete(state);
    int again = runDaemon(config());
    assertThat(again).as(err.toString(StandardCharsets.UTF_8)).isZero();
    assertThat(scenario.receiver().totalEntries()).isEqualTo(got.size());
    assertThat(scenario.receiver().duplicatesDropped()).isEqualTo(got.size());
  }
}
