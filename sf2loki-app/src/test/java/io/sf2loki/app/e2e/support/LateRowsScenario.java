package io.sf2loki.app.e2e.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.app.demo.DemoScenario;
import io.sf2loki.sim.loki.LokiReceiver;
import io.sf2loki.sim.loki.ReceivedEntry;
import io.sf2loki.sim.org.SimOrg;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Issue 10 part 3 end to end: a simulated org with an ordinary object ({@code LoginHistory}), a Big
 * Object ({@code LoginEvent}) and ApexLogs, fed at run time with on-time rows and with rows whose
 * timestamp lies 5–20 minutes in the past when they become visible; a Loki-like receiver (1 h
 * out-of-order window, identical entries collapse); a config with the default settle window and a
 * short {@code revisit_interval}. Tracks every inserted key per object.
 */
public final class LateRowsScenario implements AutoCloseable {
  public static final String LH = "LoginHistory";
  public static final String LE = "LoginEvent";
  public static final String APEX = "apexlog";
  private static final String USER = "integration@example.com";
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Path dir;
  private final SimOrg org;
  private final LokiReceiver receiver;
  private final Map<String, Set<String>> expected = new HashMap<>();
  private int lateRows;
  private int step;

  private LateRowsScenario(Path dir, SimOrg org, LokiReceiver receiver) {
    this.dir = dir;
    this.org = org;
    this.receiver = receiver;
  }

  public static LateRowsScenario start() throws IOException {
    Path dir = Files.createTempDirectory("sf2loki-late-");
    SimOrg org =
        SimOrg.builder().jwtPublicKey(DemoScenario.writeJwtKey(dir.resolve("jwt.key"))).start();
    LokiReceiver receiver = LokiReceiver.builder().outOfOrderWindow(Duration.ofHours(1)).start();
    org.objects().defineObject(LH, "LoginTime");
    org.objects().defineBigObject(LE);
    return new LateRowsScenario(dir, org, receiver);
  }

  public SimOrg org() {
    return org;
  }

  public LokiReceiver receiver() {
    return receiver;
  }

  public Path dir() {
    return dir;
  }

  public Path stateFile() {
    return dir.resolve("state/state.json");
  }

  /**
   * On-time rows: timestamps just older than the 1 m settle window (objects) or just before now
   * (ApexLog), increasing, so the main path takes them.
   */
  public synchronized void onTime(int perObject) {
    Instant now = Instant.now();
    for (int i = 0; i < perObject; i++) {
      Instant ts = now.minusSeconds(65).plusMillis(i);
      add(LH, org.objects().add(LH, ts, Map.of()).id());
      add(LE, (String) org.objects().add(LE, ts, Map.of()).get("EventIdentifier"));
      add(APEX, org.apexLogs().add(USER, now.minusMillis(500 - i), "on time " + step++).id());
    }
  }

  /** Late rows: visible now, timestamps 5…20 minutes in the past (behind every watermark). */
  public synchronized void late(int perObject) {
    Instant now = Instant.now();
    for (int i = 0; i < perObject; i++) {
      Duration lag = Duration.ofSeconds(300 + (step * 97L + i * 131L) % 900); // 5 … 20 min
      Instant ts = now.minus(lag);
      add(LH, org.objects().add(LH, ts, Duration.ZERO, Map.of()).id());
      add(LE, (String) org.objects().add(LE, ts, Duration.ZERO, Map.of()).get("EventIdentifier"));
      add(APEX, org.apexLogs().addLate(USER, ts, lag, "late " + step++).id());
      lateRows++;
    }
  }

  private void add(String object, String key) {
    expected.computeIfAbsent(object, k -> new HashSet<>()).add(key);
  }

  /** Late rows inserted per object. */
  public synchronized int lateRows() {
    return lateRows;
  }

  /** Keys inserted per object. */
  public synchronized Map<String, Set<String>> expected() {
    Map<String, Set<String>> out = new HashMap<>();
    expected.forEach((k, v) -> out.put(k, Set.copyOf(v)));
    return out;
  }

  /** Keys stored by the receiver per object, with repeats (an entry stored twice shows twice). */
  public Map<String, List<String>> stored() {
    Map<String, List<String>> out = new HashMap<>();
    for (ReceivedEntry e : receiver.entries()) {
      String type = e.labels().get("event_type");
      String key;
      if (APEX.equals(type)) {
        key = e.structuredMetadata().get("Id");
      } else {
        try {
          JsonNode n = JSON.readTree(e.line());
          key = n.path(LE.equals(type) ? "EventIdentifier" : "Id").asText();
        } catch (IOException ex) {
          throw new UncheckedIOException(ex);
        }
      }
      out.computeIfAbsent(type, k -> new ArrayList<>()).add(key);
    }
    return out;
  }

  /** Whether every inserted key is stored. */
  public boolean allStored() {
    Map<String, List<String>> got = stored();
    for (var e : expected().entrySet()) {
      if (!new HashSet<>(got.getOrDefault(e.getKey(), List.of())).containsAll(e.getValue())) {
        return false;
      }
    }
    return true;
  }

  /** Listing (key-only) revisit queries received so far, per object. */
  public Map<String, Long> revisitListings() {
    return Map.of(
        LH, count(org.objects().queries(LH), "SELECT Id, LoginTime FROM"),
        LE, count(org.objects().queries(LE), "SELECT EventDate, EventIdentifier FROM"),
        APEX, count(org.apexLogs().queries(), "SELECT Id, StartTime FROM"));
  }

  /** Full-row revisit fetches received so far, per object. */
  public Map<String, Long> revisitFetches() {
    return Map.of(
        LH, count(org.objects().queries(LH), "SELECT FIELDS(ALL) FROM LoginHistory WHERE Id IN"),
        LE,
            count(
                org.objects().queries(LE), "SELECT FIELDS(ALL) FROM LoginEvent WHERE EventDate ="),
        APEX, org.apexLogs().queries().stream().filter(q -> q.contains("WHERE Id IN (")).count());
  }

  private static long count(List<String> queries, String prefix) {
    return queries.stream().filter(q -> q.startsWith(prefix)).count();
  }

  /** Writes the daemon configuration (default settle window, revisit every {@code interval}). */
  public Path writeConfig(String interval) throws IOException {
    String obj =
        """
              - name: %s
                %s
                poll_interval: 1s
                revisit_interval: %s
        """;
    String yaml =
        """
        salesforce:
          login_url: "%s"
          client_id: "sim-client-id"
          username: "%s"
          private_key_file: "%s"
        sources:
          allow_overlap: true
          pubsub:
            enabled: false
          eventlog_objects:
            enabled: true
            objects:
        %s%s\
          apexlog:
            enabled: true
            poll_interval: 1s
            revisit_interval: %s
        sink:
          loki:
            url: "%s"
            batch:
              flush_interval: 200ms
        state:
          file:
            path: "%s"
        service:
          health_addr: "127.0.0.1:0"
          log_level: info
          log_format: logfmt
        """
            .formatted(
                org.instanceUrl(),
                USER,
                dir.resolve("jwt.key"),
                obj.formatted(LH, "timestamp_field: LoginTime", interval),
                obj.formatted(LE, "big_object: true", interval),
                interval,
                receiver.pushUrl(),
                stateFile());
    Path cfg = dir.resolve("late.yaml");
    Files.writeString(cfg, yaml, StandardCharsets.UTF_8);
    return cfg;
  }

  @Override
  public void close() {
    org.close();
    receiver.close();
  }
}
