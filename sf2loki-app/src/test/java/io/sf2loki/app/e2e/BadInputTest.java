package io.sf2loki.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.spi.ILoggingEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.opentelemetry.api.common.Attributes;
import io.sf2loki.app.demo.DemoScenario;
import io.sf2loki.app.e2e.support.ConfigText;
import io.sf2loki.app.e2e.support.FiniteDaemon;
import io.sf2loki.app.e2e.support.LogCapture;
import io.sf2loki.app.run.AppCommandActions;
import io.sf2loki.app.testing.RetainingMetricReader;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.Batch;
import io.sf2loki.core.spi.PushResult;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.salesforce.elf.EventLogFileSource;
import io.sf2loki.sim.loki.ReceivedEntry;
import io.sf2loki.sim.org.Fault;
import io.sf2loki.sim.org.SimLogFile;
import io.sf2loki.state.file.FileCheckpointStore;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.UnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * End to end with bad inputs: the real configuration loader and daemon (in-process) against a
 * simulated org ({@link DemoScenario}) and the built-in Loki receiver, on loopback.
 */
class BadInputTest {
  /** Rows of each generated EventLogFile; small keeps the suite fast. */
  private static final long ROWS = 50;

  /** Bound on one finite in-process daemon run. */
  private static final Duration RUN_LIMIT = Duration.ofSeconds(20);

  private static final String UNKNOWN_KEY_LINE =
      "  sources.eventlogfile.evnt_types: unknown configuration key (check for typos; see the"
          + " configuration reference for valid keys)";

  private static final DateTimeFormatter SF_DATETIME =
      DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSxx", Locale.ROOT)
          .withZone(ZoneOffset.UTC);

  /** stdout/stderr of one in-process CLI action. */
  private record Streams(ByteArrayOutputStream out, ByteArrayOutputStream err) {
    static Streams create() {
      return new Streams(new ByteArrayOutputStream(), new ByteArrayOutputStream());
    }

    AppCommandActions actions() {
      return new AppCommandActions(
          Map.of(),
          new PrintStream(out, true, StandardCharsets.UTF_8),
          new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    String stdout() {
      return out.toString(StandardCharsets.UTF_8);
    }

    String stderr() {
      return err.toString(StandardCharsets.UTF_8);
    }
  }

  private static DemoScenario scenario() throws IOException {
    return DemoScenario.start(ROWS, false, true, Instant.now());
  }

  private static Path stateFile(DemoScenario s) {
    return s.dir().resolve("state").resolve("state.json");
  }

  private static Path config(DemoScenario s) throws IOException {
    return s.writeConfig(s.receiver().pushUrl(), stateFile(s));
  }

  private static List<Path> listTree(Path dir) throws IOException {
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.sorted().toList();
    }
  }

  // ------------------------------------------------------------------------------------ STATE-3

  @ParameterizedTest(name = "state file content: {0}")
  @ValueSource(strings = {"{\"eventlogfile:Login\": ", "[1]"})
  @DisplayName(
      "STATE-3, CLI-5: a corrupt state file stops the run with exit 2 and move-aside advice; the"
          + " file is left byte-for-byte as it was and nothing is pushed or fetched")
  void corruptStateFileIsNeverReplaced(String content) throws Exception {
    try (DemoScenario s = scenario()) {
      Path cfg = config(s);
      Path state = stateFile(s);
      Files.createDirectories(state.getParent());
      byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
      Files.write(state, bytes);

      Streams io = Streams.create();
      int status = io.actions().run(cfg, false);

      assertThat(status).isEqualTo(2);
      String advice =
          "; move it aside (e.g. rename it to state.json.corrupt) to reset all checkpoints";
      String err = io.stderr();
      assertThat(err).startsWith("sf2loki: state file " + state + " is not ");
      assertThat(err.strip()).endsWith(advice);
      if (content.equals("[1]")) {
        assertThat(err)
            .isEqualTo("sf2loki: state file " + state + " is not a JSON object" + advice + "\n");
      } else {
        assertThat(err).contains(" is not valid JSON (");
      }
      assertThat(err).doesNotContain("\tat ");
      assertThat(Files.readAllBytes(state)).isEqualTo(bytes);
      assertThat(s.receiver().requestCount()).isZero();
      // the state check comes before the auth probe: Salesforce was not contacted either
      assertThat(s.org().callCount("token")).isZero();
      assertThat(s.org().callCount("query")).isZero();
    }
  }

  // ------------------------------------------------------------------------------ CFG-4 / CLI-4/5

  @Test
  @DisplayName(
      "CFG-4, CLI-5: an unknown key fails `run` with exit 2 and `sf2loki: invalid configuration:`"
          + " plus the dotted path, and nothing is contacted")
  void unknownKeyFailsRun() throws Exception {
    try (DemoScenario s = scenario()) {
      Path cfg = misspelledKeyConfig(s);

      Streams io = Streams.create();
      int status = io.actions().run(cfg, false);

      assertThat(status).isEqualTo(2);
      assertThat(io.stderr())
          .isEqualTo("sf2loki: invalid configuration:\n" + UNKNOWN_KEY_LINE + "\n");
      assertThat(io.stdout()).isEmpty();
      assertThat(s.org().callCount("token")).isZero();
      assertThat(s.receiver().requestCount()).isZero();
      assertThat(stateFile(s).getParent()).doesNotExist();
    }
  }

  @Test
  @DisplayName(
      "CFG-4, CLI-4: `--check` with an unknown key prints `config check FAILED: invalid"
          + " configuration:` with the dotted path to stderr and exits 2")
  void unknownKeyFailsCheck() throws Exception {
    try (DemoScenario s = scenario()) {
      Path cfg = misspelledKeyConfig(s);

      Streams io = Streams.create();
      int status = io.actions().run(cfg, true);

      assertThat(status).isEqualTo(2);
      assertThat(io.stderr())
          .isEqualTo("config check FAILED: invalid configuration:\n" + UNKNOWN_KEY_LINE + "\n");
      assertThat(io.stdout()).isEmpty();
    }
  }

  @Test
  @DisplayName(
      "CLI-4: `--check` on a valid configuration prints `config check OK`, exits 0 and neither"
          + " writes a file (no state file, no lock file) nor touches the network")
  void validCheckWritesNothing() throws Exception {
    try (DemoScenario s = scenario()) {
      Path cfg = config(s);
      List<Path> before = listTree(s.dir());

      Streams io = Streams.create();
      int status = io.actions().run(cfg, true);

      assertThat(status).isZero();
      assertThat(io.stdout()).isEqualTo("config check OK\n");
      assertThat(io.stderr()).isEmpty();
      assertThat(listTree(s.dir())).isEqualTo(before);
      assertThat(stateFile(s)).doesNotExist();
      assertThat(Path.of(stateFile(s) + ".lock")).doesNotExist();
      assertThat(s.org().callCount("token")).isZero();
      assertThat(s.org().callCount("userinfo")).isZero();
      assertThat(s.receiver().requestCount()).isZero();
    }
  }

  private static Path misspelledKeyConfig(DemoScenario s) throws IOException {
    return ConfigText.read(config(s))
        .insertAfter("    interval: Hourly", "    evnt_types: [Login]\n")
        .writeTo(s.dir().resolve("misspelled.yaml"));
  }

  // -------------------------------------------------------------------------------- CFG-7/CFG-8

  @ParameterizedTest(name = "private_key_file content: \"{0}\"")
  @ValueSource(strings = {"", " \n\t \n"})
  @DisplayName(
      "CFG-7, CFG-8, CLI-5: an empty or whitespace-only private_key_file counts as absent, so the"
          + " required private_key is reported (exit 2) and no secret appears in the message")
  void emptyPrivateKeyFileCountsAsAbsent(String content) throws Exception {
    try (DemoScenario s = scenario()) {
      Path emptyKey = s.dir().resolve("empty.key");
      Files.writeString(emptyKey, content, StandardCharsets.UTF_8);
      String sinkToken = "tok-e2e-very-secret-7f3a";
      Path cfg =
          ConfigText.read(config(s))
              .replace(
                  "private_key_file: \"" + s.dir().resolve("jwt.key") + "\"",
                  "private_key_file: \"" + emptyKey + "\"")
              .insertAfter("  loki:", "    auth_token: \"" + sinkToken + "\"\n")
              .writeTo(s.dir().resolve("empty-key.yaml"));

      for (boolean check : new boolean[] {false, true}) {
        Streams io = Streams.create();
        int status = io.actions().run(cfg, check);

        assertThat(status).as("exit status, check=%s", check).isEqualTo(2);
        String problem =
            "invalid configuration:\n"
                + "  salesforce.private_key: required when auth_mode is jwt_bearer (set private_key"
                + " or private_key_file)\n";
        assertThat(io.stderr())
            .isEqualTo((check ? "config check FAILED: " : "sf2loki: ") + problem);
        String realKey = Files.readString(s.dir().resolve("jwt.key"), StandardCharsets.US_ASCII);
        String keyBody = realKey.lines().skip(1).findFirst().orElseThrow();
        assertThat(io.stderr())
            .doesNotContain(sinkToken)
            .doesNotContain("PRIVATE KEY")
            .doesNotContain(keyBody);
      }
      assertThat(s.org().callCount("token")).isZero();
    }
  }

  // ------------------------------------------------------------------------------------- SRC-17

  @Test
  @DisplayName(
      "SRC-17, SRC-19: a non-JSON 200 from the SOQL endpoint is a counted poll error"
          + " (sf2loki_soql_poll_errors), never a crash, and every row still lands")
  void nonJsonQueryResponseIsAPollError() throws Exception {
    try (DemoScenario s = scenario()) {
      s.org().faults().add("query", Fault.nonJson200().times(1));
      RetainingMetricReader metrics = new RetainingMetricReader();

      FiniteDaemon.Result r = FiniteDaemon.run(config(s), metrics, RUN_LIMIT);

      assertThat(r.status()).as("exit status; stderr: %s", r.stderr()).isZero();
      assertThat(r.stderr()).isEmpty();
      Map<Attributes, Long> errors = incremented(metrics.counter("sf2loki_soql_poll_errors"));
      assertThat(errors).hasSize(1);
      Attributes attrs = errors.keySet().iterator().next();
      assertThat(attrs.get(Sf2lokiMetrics.SOURCE)).isEqualTo("eventlogfile");
      assertThat(attrs.get(Sf2lokiMetrics.OBJECT)).isIn(s.eventTypes());
      assertThat(errors.get(attrs)).isEqualTo(1L);
      assertDelivered(s, s.expectedPerType());
    }
  }

  // ------------------------------------------------------------------------------ AUTH-6/AUTH-7

  @Test
  @DisplayName(
      "AUTH-6, AUTH-7, SRC-17: tokens expiring mid-run make the next Salesforce call answer 401"
          + " INVALID_SESSION_ID; the client re-mints exactly once and continues, every row lands")
  void tokenExpiryMidRunReMintsOnce() throws Exception {
    try (DemoScenario s = scenario()) {
      // small batches and a small lane queue: the source cannot finish its first cycle before
      // several pushes completed, so Salesforce calls are still due after the first push
      Path cfg =
          ConfigText.read(config(s))
              .insertAfter(
                  "  loki:", "    batch:\n      max_entries: 20\n      queue_maxsize: 100\n")
              .writeTo(s.dir().resolve("small-batches.yaml"));
      AtomicBoolean expired = new AtomicBoolean();
      AtomicLong tokenCallsAtExpiry = new AtomicLong(-1);
      AtomicLong callsAtExpiry = new AtomicLong(-1);
      UnaryOperator<Sink> expireAfterFirstPush =
          sink ->
              new Sink() {
                @Override
                public PushResult push(Batch batch, boolean singleAttempt, StopSignal stop)
                    throws io.sf2loki.core.spi.RetryableSinkException,
                        io.sf2loki.core.spi.PermanentSinkException,
                        InterruptedException {
                  PushResult result = sink.push(batch, singleAttempt, stop);
                  if (expired.compareAndSet(false, true)) {
                    tokenCallsAtExpiry.set(s.org().callCount("token"));
                    callsAtExpiry.set(dataCalls(s));
                    s.org().expireAllTokens();
                  }
                  return result;
                }

                @Override
                public void close() {
                  sink.close();
                }
              };
      RetainingMetricReader metrics = new RetainingMetricReader();

      FiniteDaemon.Result r = FiniteDaemon.run(cfg, metrics, expireAfterFirstPush, RUN_LIMIT);

      assertThat(r.status()).as("exit status; stderr: %s", r.stderr()).isZero();
      assertThat(expired).isTrue();
      assertThat(tokenCallsAtExpiry.get())
          .as("mints before the expiry (AUTH-9 probe)")
          .isEqualTo(1);
      assertThat(dataCalls(s))
          .as("Salesforce data calls after the expiry")
          .isGreaterThan(callsAtExpiry.get());
      // AUTH-6: concurrent 401s of the same token discard it once; AUTH-7: one fresh mint
      assertThat(s.org().callCount("token")).isEqualTo(2);
      assertThat(metrics.counterTotal("sf2loki_auth_refreshes")).isEqualTo(2);
      assertThat(metrics.counterTotal("sf2loki_auth_errors")).isZero();
      assertThat(metrics.counterTotal("sf2loki_soql_poll_errors")).isZero();
      assertThat(metrics.counterTotal("sf2loki_eventlogfile_download_errors")).isZero();
      assertDelivered(s, s.expectedPerType());
    }
  }

  private static long dataCalls(DemoScenario s) {
    return s.org().callCount("query")
        + s.org().callCount("queryMore")
        + s.org().callCount("logfile");
  }

  // -------------------------------------------------------------------------------- ELF-9/ELF-12

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"text after a closing quote", "unterminated quote"})
  @DisplayName(
      "ELF-9, ELF-12: a malformed CSV file is abandoned visibly (reason parse: counted, ERROR with"
          + " file id and row), its rows before the bad row land, the later good file of the type"
          + " lands, the cursor moves past both and the run exits 0")
  void malformedCsvFileIsAbandonedAndTheTypeContinues(String defect) throws Exception {
    Instant now = Instant.now();
    try (DemoScenario s = DemoScenario.start(ROWS, false, true, now)) {
      Instant logDate = now.truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(4));
      Instant created = logDate.plus(Duration.ofMinutes(65)); // before both generated URI files
      String badId = s.org().addLogFile("URI", "Hourly", logDate, created, badCsv(defect, logDate));
      RetainingMetricReader metrics = new RetainingMetricReader();

      FiniteDaemon.Result r;
      List<ILoggingEvent> abandoned;
      try (LogCapture logs = LogCapture.of(EventLogFileSource.class)) {
        r = FiniteDaemon.run(config(s), metrics, RUN_LIMIT);
        abandoned = logs.events(Level.ERROR, "eventlogfile file abandoned");
      }

      assertThat(r.status()).as("exit status; stderr: %s", r.stderr()).isZero();
      assertThat(incremented(metrics.counter("sf2loki_eventlogfile_files_abandoned")))
          .containsExactly(
              Map.entry(
                  Attributes.of(Sf2lokiMetrics.EVENT_TYPE, "URI", Sf2lokiMetrics.REASON, "parse"),
                  1L));
      assertThat(abandoned).hasSize(1);
      assertThat(LogCapture.keyValues(abandoned.getFirst()))
          .containsEntry("event_type", "URI")
          .containsEntry("file_id", badId)
          .containsEntry("reason", "parse")
          .containsEntry("rows_emitted", 3L)
          .containsEntry("row", 4L);

      // rows before the bad row landed, the bad row and everything after it did not
      List<String> uriLines =
          s.receiver().entries(Map.of("event_type", "URI")).stream()
              .map(ReceivedEntry::line)
              .toList();
      for (int i = 1; i <= 5; i++) {
        String marker = "bad-file-row-" + i;
        boolean landed = uriLines.stream().anyMatch(l -> l.contains(marker));
        assertThat(landed).as(marker + " delivered").isEqualTo(i <= 3);
      }
      Map<String, Long> expected = new java.util.HashMap<>(s.expectedPerType());
      expected.merge("URI", 3L, Long::sum);
      assertDelivered(s, expected);

      // the type's cursor moved past the abandoned file and the later good files
      List<SimLogFile> uriFiles =
          s.org().logFiles().stream().filter(f -> f.eventType().equals("URI")).toList();
      assertThat(uriFiles).hasSize(3);
      JsonNode cursor = cursor(s, "URI");
      List<String> windowIds = new ArrayList<>();
      cursor.get("ids").forEach(pair -> windowIds.add(pair.get(0).asText()));
      assertThat(windowIds)
          .containsExactlyInAnyOrderElementsOf(uriFiles.stream().map(SimLogFile::id).toList());
      Instant latest =
          uriFiles.stream().map(SimLogFile::createdDate).max(Instant::compareTo).orElseThrow();
      assertThat(cursor.get("last_created").asText()).isEqualTo(SF_DATETIME.format(latest));
    }
  }

  /** Five data rows whose fourth is malformed; every row carries a marker in its URI. */
  private static byte[] badCsv(String defect, Instant logDate) {
    DateTimeFormatter ts =
        DateTimeFormatter.ofPattern("yyyyMMddHHmmss.SSS", Locale.ROOT).withZone(ZoneOffset.UTC);
    StringBuilder csv = new StringBuilder("\"EVENT_TYPE\",\"TIMESTAMP\",\"REQUEST_ID\",\"URI\"\n");
    for (int i = 1; i <= 5; i++) {
      String uri = "\"/bad-file-row-" + i + "\"";
      if (i == 4) {
        uri =
            switch (defect) {
              case "text after a closing quote" -> "\"/bad-file-row-4\"junk";
              case "unterminated quote" -> "\"/bad-file-row-4";
              default -> throw new IllegalArgumentException(defect);
            };
      }
      csv.append("\"URI\",\"")
          .append(ts.format(logDate.plusSeconds(i)))
          .append("\",\"req-")
          .append(i)
          .append("\",")
          .append(uri)
          .append('\n');
    }
    return csv.toString().getBytes(StandardCharsets.UTF_8);
  }

  private static JsonNode cursor(DemoScenario s, String type) throws IOException {
    try (FileCheckpointStore store =
        new FileCheckpointStore(stateFile(s), FileCheckpointStore.LockMode.NONE)) {
      String value = store.snapshot().get("eventlogfile:" + type);
      assertThat(value).as("checkpoint of " + type).isNotNull();
      return new ObjectMapper().readTree(value);
    }
  }

  private static void assertDelivered(DemoScenario s, Map<String, Long> expectedPerType) {
    for (Map.Entry<String, Long> e : expectedPerType.entrySet()) {
      assertThat((long) s.receiver().entries(Map.of("event_type", e.getKey())).size())
          .as("entries of event_type " + e.getKey())
          .isEqualTo(e.getValue());
    }
    assertThat(s.receiver().totalEntries())
        .isEqualTo(expectedPerType.values().stream().mapToLong(Long::longValue).sum());
    assertThat(s.receiver().duplicatesDropped()).isZero();
  }

  /** The series a run incremented: OBS-20 serves every known attribute set from 0. */
  private static Map<Attributes, Long> incremented(Map<Attributes, Long> counter) {
    Map<Attributes, Long> out = new java.util.HashMap<>();
    counter.forEach(
        (k, v) -> {
          if (v != 0L) {
            out.put(k, v);
          }
        });
    return out;
  }
}
