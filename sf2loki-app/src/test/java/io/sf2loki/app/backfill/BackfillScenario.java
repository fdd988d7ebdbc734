package io.sf2loki.app.backfill;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.app.config.ConfigLoader;
import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.app.e2e.support.SalesforceScenario;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.sim.elf.GeneratedLogFile;
import io.sf2loki.sim.loki.ReceivedEntry;
import io.sf2loki.state.file.FileCheckpointStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A simulated org with Daily EventLogFiles of two types over six days, a Loki receiver and a
 * configuration; the manifest (every generated row's identity per file) and helpers to run {@code
 * backfill} in process and read what arrived.
 */
final class BackfillScenario implements AutoCloseable {
  static final List<String> TYPES = List.of("Login", "API");
  private static final ObjectMapper JSON = new ObjectMapper();

  final SalesforceScenario sf;
  final LocalDate today = LocalDate.now(ZoneOffset.UTC);

  /** Every file: id → its generated body. */
  final Map<String, GeneratedLogFile> files = new LinkedHashMap<>();

  /** Files whose CreatedDate is inside [since, until). */
  final Set<String> inRange = new HashSet<>();

  final Path config;

  /**
   * @param rowsPerFile rows of each file
   * @param lokiExtra further {@code sink.loki} keys (4-space indent) or ""
   */
  BackfillScenario(long rowsPerFile, String lokiExtra) throws Exception {
    this(rowsPerFile, lokiExtra, "      - Login\n      - API\n");
  }

  /**
   * @param elfTail what follows {@code event_types:} in {@code sources.eventlogfile} (4-space
   *     indent): the type list and any further keys
   */
  BackfillScenario(long rowsPerFile, String lokiExtra, String elfTail) throws Exception {
    sf = SalesforceScenario.start(b -> {});
    long seed = 11;
    Instant since = since();
    Instant until = until();
    for (String type : TYPES) {
      for (int d = 6; d >= 1; d--) {
        Instant logDate = today.minusDays(d).atStartOfDay(ZoneOffset.UTC).toInstant();
        Instant created = logDate.plus(Duration.ofDays(1)).plus(Duration.ofHours(1));
        GeneratedLogFile f =
            sf.org().addGeneratedLogFile(type, "Daily", logDate, created, rowsPerFile, seed++);
        files.put(f.id(), f);
        if (!created.isBefore(since) && created.isBefore(until)) {
          inRange.add(f.id());
          if (d == 4) { // a second file with the same CreatedDate (done_ids, BF-5/BF-10)
            GeneratedLogFile twin =
                sf.org().addGeneratedLogFile(type, "Daily", logDate, created, rowsPerFile, seed++);
            files.put(twin.id(), twin);
            inRange.add(twin.id());
          }
        }
      }
    }
    config =
        sf.writeConfig(
            "  eventlogfile:\n"
                + "    enabled: true\n"
                + "    interval: Daily\n"
                + "    event_types:\n"
                + elfTail,
            "    batch:\n      max_entries: 100\n" + lokiExtra);
  }

  /** {@code --since}: four days ago. */
  LocalDate sinceDate() {
    return today.minusDays(4);
  }

  /** {@code --until}: yesterday. */
  LocalDate untilDate() {
    return today.minusDays(1);
  }

  Instant since() {
    return sinceDate().atStartOfDay(ZoneOffset.UTC).toInstant();
  }

  Instant until() {
    return untilDate().atStartOfDay(ZoneOffset.UTC).toInstant();
  }

  /** The {@code sf2loki} arguments of a backfill of the range. */
  List<String> args(String... extra) {
    List<String> a =
        new ArrayList<>(
            List.of(
                "backfill",
                "--config",
                config.toString(),
                "--since",
                sinceDate().toString(),
                "--until",
                untilDate().toString()));
    a.addAll(List.of(extra));
    return a;
  }

  BackfillRequest request(boolean dryRun) {
    return BackfillRequest.parse(
        sinceDate().toString(),
        untilDate().toString(),
        null,
        "Daily",
        false,
        2,
        null,
        dryRun,
        0,
        Instant.now());
  }

  /** Output of one in-process run. */
  record Result(int exit, String out, String err) {}

  Result run(BackfillRequest request) throws Exception {
    Sf2lokiConfig cfg = new ConfigLoader().load(config, Map.of());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit;
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      exit = new Backfill(cfg, o, e, TimeSource.system(), false).run(request, new StopSignal());
    }
    return new Result(
        exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /** Identity of a row: {@code <EventType>|<REQUEST_ID>|<TIMESTAMP>}. */
  Set<String> expectedRows(Set<String> fileIds) {
    Set<String> out = new HashSet<>();
    for (String id : fileIds) {
      GeneratedLogFile f = files.get(id);
      List<String> header = f.generator().header();
      int req = header.indexOf("REQUEST_ID");
      int ts = header.indexOf("TIMESTAMP");
      f.expectedRows()
          .forEach(r -> out.add(f.generator().eventType() + "|" + r.get(req) + "|" + r.get(ts)));
    }
    return out;
  }

  /** Row identities of entries. */
  static List<String> rowsOf(List<ReceivedEntry> entries) throws Exception {
    List<String> out = new ArrayList<>();
    for (ReceivedEntry e : entries) {
      JsonNode n = JSON.readTree(e.line());
      out.add(
          n.path("EVENT_TYPE").asText()
              + "|"
              + n.path("REQUEST_ID").asText()
              + "|"
              + n.path("TIMESTAMP").asText());
    }
    return out;
  }

  /** The backfill document (BF-2). */
  Path backfillState() {
    return sf.dir().resolve("state/state-backfill.json");
  }

  Map<String, String> backfillCursors() {
    if (!Files.exists(backfillState())) {
      return Map.of();
    }
    try (var store = new FileCheckpointStore(backfillState(), FileCheckpointStore.LockMode.NONE)) {
      return store.snapshot();
    }
  }

  /**
   * Files whose rows the committed cursors cover (CreatedDate before, or equal and in done_ids).
   */
  Set<String> committedFiles() {
    Set<String> out = new HashSet<>();
    Map<String, String> cursors = backfillCursors();
    for (String id : inRange) {
      var f = sf.org().logFile(id).orElseThrow();
      String v = cursors.get("backfill:Daily:" + f.eventType());
      if (v == null) {
        continue;
      }
      BackfillCursor c = BackfillCursor.parse(v).orElseThrow();
      Instant last = Instant.parse(normal(c.lastCreated()));
      if (f.createdDate().isBefore(last) || c.doneIds().contains(id)) {
        out.add(id);
      }
    }
    return out;
  }

  private static String normal(String raw) {
    // Salesforce form 2024-05-01T10:00:00.000+0000 → ISO
    return raw.replaceFirst("\\+0000$", "Z");
  }

  static Instant truncated(Instant t) {
    return t.truncatedTo(ChronoUnit.SECONDS);
  }

  @Override
  public void close() {
    sf.close();
  }
}
