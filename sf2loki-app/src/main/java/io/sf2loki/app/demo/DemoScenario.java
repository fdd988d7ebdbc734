package io.sf2loki.app.demo;

import de.siegmar.fastcsv.reader.CsvReader;
import io.sf2loki.sim.elf.HardCaseCsv;
import io.sf2loki.sim.loki.LokiReceiver;
import io.sf2loki.sim.org.SimOrg;
import io.sf2loki.sim.pubsub.SimPubSub;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A simulated org filled with real-shaped EventLogFiles, the matching JWT key pair and an optional
 * built-in Loki receiver (SPEC FEAT-17). Used by {@code sf2loki demo} and by the end-to-end tests,
 * so both exercise exactly the same data.
 *
 * <p>Data: three generated Hourly event types (Login, API, URI) with two files each; the hard-case
 * file (quoted commas, CR/LF, doubled quotes, multi-byte UTF-8, empty fields, a field over 256 KiB)
 * as {@code ApexUnexpectedException}; and, when {@code includeSamples}, real sample files copied
 * from public repositories (their 2015/2024 timestamps are older than a real Loki accepts, so they
 * are left out when pushing to a real Loki).
 */
public final class DemoScenario implements AutoCloseable {
  /** Bundled real sample files: resource name → EventType. */
  static final Map<String, String> SAMPLES =
      Map.of(
          "sfdc_elf_Login_first300rows.csv", "Login",
          "sfdc_elf_API.csv", "API",
          "newrelic_ApexCallout.csv", "ApexCallout",
          "reconstructed_ApexUnexpectedException_multiline.csv", "ApexUnexpectedException");

  private static final List<String> GENERATED_TYPES = List.of("Login", "API", "URI");
  private static final String SAMPLE_DIR = "/io/sf2loki/sim/samples/";

  private final SimOrg org;
  private final LokiReceiver receiver;
  private final Path dir;
  private final Map<String, Long> expectedPerType = new LinkedHashMap<>();
  private final List<String> fileIds = new ArrayList<>();
  private long loginHistoryRows;
  private SimPubSub pubsub;
  private final Map<String, Long> expectedPerTopic = new LinkedHashMap<>();

  private DemoScenario(SimOrg org, LokiReceiver receiver, Path dir) {
    this.org = org;
    this.receiver = receiver;
    this.dir = dir;
  }

  /**
   * Starts the simulated org (and, unless {@code builtInReceiver} is false, a Loki receiver) on
   * loopback ephemeral ports and fills the org with files created before {@code now} − settle
   * window.
   *
   * @param rowsPerFile data rows of each generated file, ≥ 1
   * @param includeSamples whether to add the bundled real sample files
   * @param builtInReceiver whether to start the built-in Loki receiver
   * @param now the wall-clock instant the files are placed relative to
   * @throws IOException when a server cannot start or the work directory cannot be written
   */
  public static DemoScenario start(
      long rowsPerFile, boolean includeSamples, boolean builtInReceiver, Instant now)
      throws IOException {
    Path dir = Files.createTempDirectory("sf2loki-demo-");
    RSAPublicKey publicKey = writeJwtKey(dir.resolve("jwt.key"));
    SimOrg org = SimOrg.builder().jwtPublicKey(publicKey).start();
    LokiReceiver receiver = null;
    try {
      receiver = builtInReceiver ? LokiReceiver.start() : null;
      DemoScenario s = new DemoScenario(org, receiver, dir);
      s.fill(rowsPerFile, includeSamples, now);
      return s;
    } catch (IOException | RuntimeException e) {
      org.close();
      if (receiver != null) {
        receiver.close();
      }
      throw e;
    }
  }

  private void fill(long rowsPerFile, boolean includeSamples, Instant now) {
    Instant hour = now.truncatedTo(ChronoUnit.HOURS);
    long seed = 42;
    for (String type : GENERATED_TYPES) {
      for (int h = 3; h >= 2; h--) {
        Instant logDate = hour.minus(Duration.ofHours(h));
        Instant created = logDate.plus(Duration.ofMinutes(70));
        var f = org.addGeneratedLogFile(type, "Hourly", logDate, created, rowsPerFile, seed++);
        fileIds.add(f.id());
        expectedPerType.merge(type, f.rowCount(), Long::sum);
      }
    }
    HardCaseCsv hard = HardCaseCsv.build();
    Instant hardLog = hour.minus(Duration.ofHours(4));
    fileIds.add(
        org.addLogFile(
            "ApexUnexpectedException",
            "Hourly",
            hardLog,
            hardLog.plus(Duration.ofMinutes(65)),
            hard.csv()));
    expectedPerType.merge("ApexUnexpectedException", (long) hard.rows().size(), Long::sum);
    if (includeSamples) {
      Instant sampleLog = hour.minus(Duration.ofHours(5));
      int i = 0;
      for (Map.Entry<String, String> s : SAMPLES.entrySet()) {
        byte[] csv = sample(s.getKey());
        Instant created = sampleLog.plus(Duration.ofMinutes(61 + i++));
        fileIds.add(org.addLogFile(s.getValue(), "Hourly", sampleLog, created, csv));
        expectedPerType.merge(s.getValue(), countRecords(csv), Long::sum);
      }
    }
  }

  /**
   * Adds a {@code LoginHistory} object feed (SPEC OBJ; issue "sf2loki demo adds a LoginHistory
   * object feed"): {@code rows} records over the last 50 minutes, older than the objects' default
   * settle window (1 m) and inside their default lookback (1 h). {@link #writeConfig} then enables
   * {@code sources.eventlog_objects} for it.
   */
  public void addLoginHistoryFeed(int rows, Instant now) {
    org.objects().defineObject("LoginHistory", "LoginTime");
    String[] types = {"Application", "Remote Access 2.0", "SAML Sfdc Initiated SSO"};
    String[] status = {"Success", "Success", "Success", "Invalid Password"};
    Instant start = now.minus(Duration.ofMinutes(50));
    for (int i = 0; i < rows; i++) {
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("UserId", String.format("005xx%010dAAA", i % 37));
      fields.put("LoginType", types[i % types.length]);
      fields.put("SourceIp", "198.51.100." + (i % 250 + 1));
      fields.put("Status", status[i % status.length]);
      fields.put("Application", "Browser");
      fields.put("Platform", "Mac OSX");
      fields.put("LoginUrl", "example.my.salesforce.com");
      org.objects()
          .add("LoginHistory", start.plusMillis(i * (45L * 60_000 / Math.max(rows, 1))), fields);
    }
    loginHistoryRows = rows;
  }

  /**
   * Topics {@link #addPubSubStreams} streams: Real-Time Event Monitoring logins and API anomalies.
   */
  public static final List<String> DEMO_TOPICS =
      List.of(SimPubSub.LOGIN_TOPIC, SimPubSub.API_ANOMALY_TOPIC);

  /**
   * Starts the simulated Pub/Sub API (SPEC FEAT-17) on a loopback port, authenticating against the
   * simulated org, and publishes {@code eventsPerTopic} generated events (real Avro payloads built
   * from the fixture schemas) on each of {@link #DEMO_TOPICS}. {@link #writeConfig} then enables
   * {@code sources.pubsub} for them with {@code replay_preset: EARLIEST}.
   *
   * @throws IOException when the gRPC server cannot start
   */
  public void addPubSubStreams(int eventsPerTopic) throws IOException {
    if (pubsub == null) {
      pubsub =
          SimPubSub.builder().port(0).org(org).keepaliveInterval(Duration.ofSeconds(5)).start();
    }
    for (String topic : DEMO_TOPICS) {
      pubsub.publish(topic, eventsPerTopic);
      expectedPerTopic.merge(topic, (long) eventsPerTopic, Long::sum);
    }
  }

  /**
   * Publishes {@code eventsPerTopic} more events on each demo topic (the daemon may be running).
   *
   * @throws IllegalStateException when {@link #addPubSubStreams} was not called
   */
  public void publishMore(int eventsPerTopic) {
    if (pubsub == null) {
      throw new IllegalStateException("no Pub/Sub streams in this scenario");
    }
    for (String topic : DEMO_TOPICS) {
      pubsub.publish(topic, eventsPerTopic);
      expectedPerTopic.merge(topic, (long) eventsPerTopic, Long::sum);
    }
  }

  /** The simulated Pub/Sub API, or null when {@link #addPubSubStreams} was not called. */
  public SimPubSub pubsub() {
    return pubsub;
  }

  /** Events per topic the Pub/Sub API holds for the daemon. */
  public Map<String, Long> expectedPerTopic() {
    return Map.copyOf(expectedPerTopic);
  }

  /** The bytes of a bundled sample file. */
  public static byte[] sample(String name) {
    try (InputStream in = DemoScenario.class.getResourceAsStream(SAMPLE_DIR + name)) {
      return Objects.requireNonNull(in, "missing bundled sample " + name).readAllBytes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Data records of a CSV body (header and blank lines excluded), counted with FastCSV. */
  static long countRecords(byte[] csv) {
    String text = new String(csv, StandardCharsets.UTF_8);
    try (var reader = CsvReader.builder().ofCsvRecord(text)) {
      return reader.stream().count() - 1;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The event types the scenario holds files for, in a stable order. */
  public List<String> eventTypes() {
    return List.copyOf(expectedPerType.keySet());
  }

  /** Rows per EventType the org serves. */
  public Map<String, Long> expectedPerType() {
    return Map.copyOf(expectedPerType);
  }

  /**
   * Total entries the org serves: EventLogFile rows plus the LoginHistory feed and the Pub/Sub
   * events, if added.
   */
  public long expectedRows() {
    return expectedPerType.values().stream().mapToLong(Long::longValue).sum()
        + loginHistoryRows
        + expectedPerTopic.values().stream().mapToLong(Long::longValue).sum();
  }

  /** Ids of every file the org serves. */
  public List<String> fileIds() {
    return List.copyOf(fileIds);
  }

  public SimOrg org() {
    return org;
  }

  /** The built-in receiver, or null when pushing to a real Loki. */
  public LokiReceiver receiver() {
    return receiver;
  }

  /** The scenario's temporary work directory (key file, state, config). */
  public Path dir() {
    return dir;
  }

  /**
   * Writes a configuration file pointing sf2loki at the simulated org and at {@code lokiPushUrl}.
   *
   * @param lokiPushUrl the push URL (the built-in receiver's or a real Loki's)
   * @param stateFile where the file checkpoint store lives
   * @return the path of the written YAML file
   */
  public Path writeConfig(String lokiPushUrl, Path stateFile) throws IOException {
    StringBuilder types = new StringBuilder();
    for (String t : eventTypes()) {
      types.append("      - ").append(t).append('\n');
    }
    String yaml =
        """
        salesforce:
          login_url: "%s"
          client_id: "%s"
          username: "%s"
          private_key_file: "%s"
        sources:
        %s\
          eventlogfile:
            enabled: true
            interval: Hourly
            concurrency: 4
            event_types:
        %s\
        %s\
        sink:
          loki:
            url: "%s"
            structured_metadata_fields: [USER_ID, CLIENT_IP, REQUEST_ID, URI]
        state:
          file:
            path: "%s"
        service:
          health_addr: "127.0.0.1:0"
          log_level: warning
          log_format: logfmt
          telemetry:
            prometheus:
              enabled: true
        """
            .formatted(
                org.instanceUrl(),
                "sim-client-id",
                "integration@example.com",
                dir.resolve("jwt.key"),
                pubsubYaml(),
                types,
                loginHistoryRows == 0 && pubsub == null
                    ? ""
                    // LoginHistory, LoginEventStream and the ELF Login type share the
                    // category "login" (SRC-22): the demo shows all three side by side
                    : "  allow_overlap: true\n"
                        + (loginHistoryRows == 0
                            ? ""
                            : "  eventlog_objects:\n"
                                + "    enabled: true\n"
                                + "    objects:\n"
                                + "      - name: LoginHistory\n"
                                + "        timestamp_field: LoginTime\n"),
                lokiPushUrl,
                stateFile);
    Path cfg = dir.resolve("sf2loki-demo.yaml");
    Files.writeString(cfg, yaml, StandardCharsets.UTF_8);
    return cfg;
  }

  private String pubsubYaml() {
    if (pubsub == null) {
      return "  pubsub:\n    enabled: false\n";
    }
    StringBuilder topics = new StringBuilder();
    for (String t : DEMO_TOPICS) {
      topics.append(topics.isEmpty() ? "" : ", ").append('"').append(t).append('"');
    }
    return "  pubsub:\n"
        + "    enabled: true\n"
        + "    endpoint: \""
        + pubsub.target()
        + "\"\n"
        + "    tls: false\n"
        + "    replay_preset: EARLIEST\n"
        + "    topics: ["
        + topics
        + "]\n";
  }

  @Override
  public void close() {
    if (pubsub != null) {
      pubsub.close();
    }
    org.close();
    if (receiver != null) {
      receiver.close();
    }
    try (var walk = Files.walk(dir)) {
      walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // best effort: a temp directory
    }
  }

  /**
   * Generates a 2048-bit RSA key pair for the JWT bearer flow, writes the private key as a PKCS#8
   * PEM file (what {@code salesforce.private_key_file} reads) and returns the public key for the
   * simulated org.
   *
   * @param keyFile where the PEM is written
   * @throws IOException when it cannot be written
   */
  public static RSAPublicKey writeJwtKey(Path keyFile) throws IOException {
    KeyPair keys = rsaKeyPair();
    Files.writeString(keyFile, pkcs8Pem(keys), StandardCharsets.US_ASCII);
    return (RSAPublicKey) keys.getPublic();
  }

  private static KeyPair rsaKeyPair() {
    try {
      KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
      g.initialize(2048);
      return g.generateKeyPair();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String pkcs8Pem(KeyPair keys) {
    String b64 =
        Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
            .encodeToString(keys.getPrivate().getEncoded());
    return "-----BEGIN PRIVATE KEY-----\n" + b64 + "\n-----END PRIVATE KEY-----\n";
  }
}
