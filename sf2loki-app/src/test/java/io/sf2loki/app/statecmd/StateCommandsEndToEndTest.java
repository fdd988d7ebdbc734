package io.sf2loki.app.statecmd;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.app.cli.Cli;
import io.sf2loki.app.cli.HealthProbe;
import io.sf2loki.app.run.AppCommandActions;
import io.sf2loki.state.file.FileCheckpointStore;
import io.sf2loki.state.testing.FakeGcsServer;
import io.sf2loki.state.testing.S3ProxyProcess;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The {@code state} commands on the file store, s3proxy and the GCS fake (CLI-7…CLI-9, FEAT-8). */
class StateCommandsEndToEndTest {
  private static final String BUCKET = "sf2loki-state-cmd";
  private static final AtomicInteger NAMES = new AtomicInteger();
  @TempDir static Path shared;
  private static S3ProxyProcess s3;
  private static FakeGcsServer gcs;

  @TempDir Path dir;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @BeforeAll
  static void startStores() throws Exception {
    s3 = S3ProxyProcess.start(shared.resolve("s3proxy"));
    s3.createBucket(BUCKET);
    gcs = FakeGcsServer.start();
    gcs.createBucket(BUCKET);
    System.setProperty("aws.accessKeyId", "local");
    System.setProperty("aws.secretAccessKey", "local");
  }

  @AfterAll
  static void stopStores() throws Exception {
    System.clearProperty("aws.accessKeyId");
    System.clearProperty("aws.secretAccessKey");
    gcs.close();
    s3.close();
  }

  @BeforeEach
  void reset() {
    out.reset();
    err.reset();
  }

  private Path config(String stateYaml) throws Exception {
    return Files.writeString(
        dir.resolve("c" + NAMES.incrementAndGet() + ".yaml"),
        """
        salesforce:
          login_url: "http://127.0.0.1:9"
          client_id: "x"
          auth_mode: client_credentials
          client_secret: "y"
        sink:
          loki:
            url: "http://127.0.0.1:9/loki/api/v1/push"
        """
            + stateYaml);
  }

  private Path fileConfig(Path state) throws Exception {
    return config("state:\n  file:\n    path: \"" + state + "\"\n");
  }

  private Path objectConfig(String kind, String name) throws Exception {
    return kind.equals("s3")
        ? config(
            "state:\n  store: s3\n  s3:\n    bucket: "
                + BUCKET
                + "\n    key: "
                + name
                + "\n    endpoint_url: \""
                + s3.endpoint()
                + "\"\n")
        : config(
            "state:\n  store: gcs\n  gcs:\n    bucket: "
                + BUCKET
                + "\n    object_name: "
                + name
                + "\n    endpoint_url: \""
                + gcs.endpoint()
                + "\"\n    anonymous: true\n");
  }

  private int state(Path cfg, String... args) {
    List<String> a = new ArrayList<>(List.of("state"));
    a.addAll(List.of(args));
    a.add("--config");
    a.add(cfg.toString());
    PrintWriter w = new PrintWriter(err, true, StandardCharsets.UTF_8);
    return new Cli(
            new AppCommandActions(
                Map.of(),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8)),
            w,
            w,
            new HealthProbe())
        .execute(a.toArray(String[]::new));
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  @Test
  @DisplayName(
      "CLI-7/CLI-8/STATE-12: set, show (sorted, glob, count line), delete on the file store;"
          + " __fence_epoch__ is hidden, refused and preserved")
  void fileRoundTrip() throws Exception {
    Path state = dir.resolve("state.json");
    Files.writeString(state, "{\"__fence_epoch__\":\"7\",\"pubsub:/event/B\":\"AAE=\"}");
    Path cfg = fileConfig(state);
    assertThat(state(cfg, "set", "pubsub:/event/A", "AAI=")).isZero();
    assertThat(out()).isEqualTo("sf2loki: set pubsub:/event/A = AAI=\n");
    out.reset();
    assertThat(state(cfg, "show")).isZero();
    assertThat(out())
        .isEqualTo("pubsub:/event/A\tAAI=\npubsub:/event/B\tAAE=\n\n2 checkpoint(s)\n");
    out.reset();
    assertThat(state(cfg, "show", "--key", "*B")).isZero();
    assertThat(out()).isEqualTo("pubsub:/event/B\tAAE=\n\n1 checkpoint(s) matching '*B'\n");
    out.reset();
    assertThat(state(cfg, "show", "--key", "apexlog")).isZero();
    assertThat(out()).isEqualTo("(no checkpoints match)\n");
    out.reset();
    assertThat(state(cfg, "delete", "pubsub:/event/B")).isZero();
    assertThat(out())
        .isEqualTo(
            "sf2loki: deleted pubsub:/event/B (its source restarts from preset/lookback on next"
                + " run)\n");
    assertThat(state(cfg, "delete", "never-there")).as("missing key: no-op").isZero();
    assertThat(state(cfg, "set", "__fence_epoch__", "9")).isEqualTo(1);
    assertThat(Files.readString(state))
        .isEqualTo("{\"__fence_epoch__\":\"7\",\"pubsub:/event/A\":\"AAI=\"}");
  }

  @Test
  @DisplayName(
      "CLI-7, BF-2: show lists the backfill document's cursors (state-backfill.json) after the"
          + " daemon's, read-only and glob-filtered; nothing when that document does not exist")
  void cli7_showListsBackfillCursors() throws Exception {
    Path state = dir.resolve("state.json");
    Files.writeString(state, "{\"pubsub:/event/A\":\"AAI=\"}");
    Path cfg = fileConfig(state);
    assertThat(state(cfg, "show")).isZero();
    assertThat(out()).isEqualTo("pubsub:/event/A\tAAI=\n\n1 checkpoint(s)\n");

    String cursor = "{\"done_ids\":[\"0AT1\"],\"last_created\":\"2026-11-02T01:00:00.000+0000\"}";
    try (FileCheckpointStore b = new FileCheckpointStore(dir.resolve("state-backfill.json"))) {
      b.commitMany(Map.of("backfill:Daily:Login", cursor), java.util.Set.of());
    }
    out.reset();
    assertThat(state(cfg, "show")).isZero();
    assertThat(out())
        .isEqualTo(
            "pubsub:/event/A\tAAI=\n\n1 checkpoint(s)\n\n# backfill cursors ("
                + dir.resolve("state-backfill.json")
                + ", read-only):\nbackfill:Daily:Login\t"
                + cursor
                + "\n\n1 backfill cursor(s)\n");
    out.reset();
    assertThat(state(cfg, "show", "--key", "pubsub:*")).isZero();
    assertThat(out()).doesNotContain("backfill");
  }

  @Test
  @DisplayName(
      "CLI-17: import merges by default, --replace drops absent keys, an imported"
          + " __fence_epoch__ is ignored with a WARN, export is compact JSON sorted by key")
  void cli17_importMergeReplaceAndSortedExport() throws Exception {
    Path state = dir.resolve("state.json");
    Files.writeString(state, "{\"__fence_epoch__\":\"3\",\"z\":\"26\",\"m\":\"13\"}");
    Path cfg = fileConfig(state);
    Path imp =
        Files.writeString(dir.resolve("in.json"), "{\"__fence_epoch__\":\"99\",\"b\":\"2\"}");

    assertThat(state(cfg, "import", imp.toString())).isZero();
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("WARN: ignoring __fence_epoch__ in " + imp);
    assertThat(Files.readString(state))
        .as("merge keeps z and m, the target keeps its own epoch")
        .isEqualTo("{\"__fence_epoch__\":\"3\",\"z\":\"26\",\"m\":\"13\",\"b\":\"2\"}");

    out.reset();
    assertThat(state(cfg, "export")).isZero();
    assertThat(out().strip()).isEqualTo("{\"b\":\"2\",\"m\":\"13\",\"z\":\"26\"}");

    Path only = Files.writeString(dir.resolve("only.json"), "{\"m\":\"14\"}");
    assertThat(state(cfg, "import", only.toString(), "--replace")).isZero();
    assertThat(Files.readString(state)).isEqualTo("{\"__fence_epoch__\":\"3\",\"m\":\"14\"}");
  }

  @Test
  @DisplayName(
      "CLI-8: set WARNs on stderr when SRC-15 cannot read the value, and writes it verbatim")
  void setWarnsOnUnreadableValue() throws Exception {
    Path state = dir.resolve("state.json");
    Path cfg = fileConfig(state);
    assertThat(state(cfg, "set", "eventlogfile:Login", "{\"ids\": 3}")).isZero();
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("WARN: value of eventlogfile:Login");
    assertThat(Files.readString(state)).isEqualTo("{\"eventlogfile:Login\":\"{\\\"ids\\\": 3}\"}");
  }

  @Test
  @DisplayName(
      "CLI-8: set WARNs on stderr after the write when no configured source reads the key (a typo, another mode's"
          + " prefix), and writes it all the same; a read key gets no such WARN")
  void setWarnsOnKeyNoSourceReads() throws Exception {
    Path state = dir.resolve("state.json");
    Path cfg =
        config(
            "sources:\n"
                + "  pubsub: {enabled: false}\n"
                + "  eventlogfile: {enabled: true, event_types: [Login]}\n"
                + "state: {file: {path: \""
                + state
                + "\"}}\n");
    String cursor = "{\"ids\": [], \"last_created\": \"2026-12-01T00:00:00.000+0000\"}";
    assertThat(state(cfg, "set", "eventlogfile:Login", cursor)).isZero();
    assertThat(err.toString(StandardCharsets.UTF_8)).doesNotContain("WARN");
    assertThat(state(cfg, "set", "eventlogfile:Logn", cursor)).isZero();
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains(
            "WARN: no configured source reads eventlogfile:Logn (sources.eventlogfile is not"
                + " enabled or has no event type 'Logn'); written all the same");
    err.reset();
    assertThat(state(cfg, "set", "org=eu:eventlogfile:Login", cursor)).isZero();
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("org-prefixed keys are read only in multi-org mode");
    assertThat(Files.readString(state)).contains("eventlogfile:Logn", "org=eu:eventlogfile:Login");
  }

  @Test
  @DisplayName(
      "CLI-24, STATE-19: under coordinate.per_org set/delete go to the key's org document, show"
          + " lists every org document, an unprefixed key and export/import are refused; CLI-8:"
          + " deleting a key that is not set says so")
  void cli24_perOrgDocuments() throws Exception {
    Path state = dir.resolve("state.json");
    String org =
        "    salesforce: {login_url: 'http://127.0.0.1:9', client_id: x, auth_mode:"
            + " client_credentials, client_secret: y}\n"
            + "    sources: {pubsub: {enabled: false}, eventlogfile: {enabled: true, event_types:"
            + " [Login]}}\n";
    Path cfg =
        Files.writeString(
            dir.resolve("per-org.yaml"),
            "orgs:\n  - name: a\n"
                + org
                + "  - name: b\n"
                + org
                + "sink: {loki: {url: 'http://127.0.0.1:9/loki/api/v1/push'}}\n"
                + "coordinate: {type: file_lease, per_org: true, file_lease: {path: \""
                + dir.resolve("leader.lease")
                + "\"}}\n"
                + "state: {file: {path: \""
                + state
                + "\"}}\n");
    String cursor = "{\"ids\": [], \"last_created\": \"2026-12-01T00:00:00.000+0000\"}";
    assertThat(state(cfg, "set", "org=a:eventlogfile:Login", cursor)).isZero();
    assertThat(Files.readString(dir.resolve("state.org-a.json")))
        .contains("org=a:eventlogfile:Login");
    assertThat(Files.exists(state)).as("the deployment document is not written").isFalse();
    out.reset();
    assertThat(state(cfg, "show")).isZero();
    assertThat(out())
        .contains("# org a (" + dir.resolve("state.org-a.json") + ")")
        .contains("org=a:eventlogfile:Login\t")
        .contains("# org b (" + dir.resolve("state.org-b.json") + ")")
        .contains("1 checkpoint(s) in 2 org document(s)");
    err.reset();
    assertThat(state(cfg, "set", "eventlogfile:Login", cursor)).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8))
        .contains("prefix the key with org=<name>: of a configured org (a, b)");
    err.reset();
    assertThat(state(cfg, "export")).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("state export acts on one document");
    out.reset();
    assertThat(state(cfg, "delete", "org=a:eventlogfile:Login")).isZero();
    assertThat(out()).contains("sf2loki: deleted org=a:eventlogfile:Login");
    assertThat(Files.readString(dir.resolve("state.org-a.json")))
        .doesNotContain("org=a:eventlogfile:Login");
    out.reset();
    assertThat(state(cfg, "delete", "org=a:eventlogfile:Login")).isZero();
    assertThat(out()).contains("sf2loki: org=a:eventlogfile:Login was not set; nothing deleted");
  }

  @Test
  @DisplayName(
      "CLI-9: while a daemon holds the file store's lock, set/delete/import refuse with exit 1 and"
          + " the stop-or---force message; show still reads; --force writes")
  void refusesWhileLocked() throws Exception {
    Path state = dir.resolve("state.json");
    Files.writeString(state, "{\"a\":\"1\"}");
    Path cfg = fileConfig(state);
    Path imp = Files.writeString(dir.resolve("in.json"), "{\"b\":\"2\"}");
    try (FileCheckpointStore daemon = new FileCheckpointStore(state)) {
      daemon.lock();
      assertThat(state(cfg, "set", "a", "2")).isEqualTo(1);
      assertThat(state(cfg, "delete", "a")).isEqualTo(1);
      assertThat(state(cfg, "import", imp.toString())).isEqualTo(1);
      assertThat(err.toString(StandardCharsets.UTF_8))
          .contains("is held (a daemon is running); stop the daemon first, or pass --force");
      assertThat(Files.readString(state)).isEqualTo("{\"a\":\"1\"}");
      assertThat(state(cfg, "show")).isZero();
      assertThat(out()).startsWith("a\t1\n");
      assertThat(state(cfg, "set", "a", "3", "--force")).isZero();
    }
    assertThat(Files.readString(state)).isEqualTo("{\"a\":\"3\"}");
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"s3", "gcs"})
  @DisplayName(
      "CLI-8/CLI-9/FEAT-8: on an object store under noop, writes refuse without"
          + " --i-stopped-the-daemon; set/show/delete round-trip; export from the file store and"
          + " import --replace into the object store and back migrates state, __fence_epoch__"
          + " preserved")
  void objectStoreRoundTripAndMigration(String kind) throws Exception {
    String name = "state-" + NAMES.incrementAndGet() + ".json";
    Path ocfg = objectConfig(kind, name);
    assertThat(state(ocfg, "set", "apexlog", "2024-05-01T10:00:00.000+0000")).isEqualTo(1);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("--i-stopped-the-daemon");
    assertThat(state(ocfg, "set", "k1", "v1", "--i-stopped-the-daemon")).isZero();
    assertThat(state(ocfg, "set", "k2", "v2", "--i-stopped-the-daemon")).isZero();
    assertThat(state(ocfg, "delete", "k1", "--i-stopped-the-daemon")).isZero();
    out.reset();
    assertThat(state(ocfg, "show")).isZero();
    assertThat(out()).isEqualTo("k2\tv2\n\n1 checkpoint(s)\n");

    // file → object (replace), fence of the object kept
    put(kind, name, "{\"__fence_epoch__\":\"4\",\"k2\":\"v2\"}");
    Path fileState = dir.resolve("state.json");
    Files.writeString(fileState, "{\"__fence_epoch__\":\"1\",\"a\":\"1\",\"b\":\"2\"}");
    Path fcfg = fileConfig(fileState);
    Path dump = dir.resolve("dump.json");
    assertThat(state(fcfg, "export", "--out", dump.toString())).isZero();
    assertThat(Files.readString(dump)).isEqualTo("{\"a\":\"1\",\"b\":\"2\"}");
    assertThat(state(ocfg, "import", dump.toString(), "--replace", "--i-stopped-the-daemon"))
        .isZero();
    assertThat(get(kind, name)).isEqualTo("{\"__fence_epoch__\":\"4\",\"a\":\"1\",\"b\":\"2\"}");

    // object → file (merge)
    out.reset();
    assertThat(state(ocfg, "export")).isZero();
    Path back = Files.writeString(dir.resolve("back.json"), out().strip());
    Files.writeString(fileState, "{\"__fence_epoch__\":\"1\",\"z\":\"9\"}");
    assertThat(state(fcfg, "import", back.toString(), "--merge")).isZero();
    assertThat(Files.readString(fileState))
        .isEqualTo("{\"__fence_epoch__\":\"1\",\"z\":\"9\",\"a\":\"1\",\"b\":\"2\"}");
  }

  private static void put(String kind, String name, String body) {
    if (kind.equals("s3")) {
      s3.put(BUCKET, name, body);
    } else {
      gcs.put(BUCKET, name, body);
    }
  }

  private static String get(String kind, String name) {
    return kind.equals("s3") ? s3.get(BUCKET, name) : gcs.get(BUCKET, name);
  }
}
