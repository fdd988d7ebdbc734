package io.sf2loki.app.e2e.support;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sf2loki.app.demo.DemoScenario;
import io.sf2loki.sim.loki.LokiReceiver;
import io.sf2loki.sim.loki.ReceivedEntry;
import io.sf2loki.sim.org.SimOrg;
import io.sf2loki.state.file.FileCheckpointStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A simulated org (customised before it starts: no-Interval org, error echo, …) and a Loki receiver
 * on loopback, and a configuration for the EventLogFile and/or ApexLog sources against them; for
 * end-to-end tests of Salesforce-side faults.
 */
public final class SalesforceScenario implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final SimOrg org;
  private final LokiReceiver receiver;
  private final Path dir;
  private final Path state;

  private SalesforceScenario(SimOrg org, LokiReceiver receiver, Path dir) {
    this.org = org;
    this.receiver = receiver;
    this.dir = dir;
    this.state = dir.resolve("state/state.json");
  }

  /** Starts the org (JWT bearer with a fresh key, then {@code orgOptions}) and the receiver. */
  public static SalesforceScenario start(Consumer<SimOrg.Builder> orgOptions) throws IOException {
    Path dir = Files.createTempDirectory("sf2loki-sf-e2e-");
    SimOrg.Builder b =
        SimOrg.builder().jwtPublicKey(DemoScenario.writeJwtKey(dir.resolve("jwt.key")));
    orgOptions.accept(b);
    SimOrg org = b.start();
    try {
      return new SalesforceScenario(org, LokiReceiver.start(), dir);
    } catch (IOException | RuntimeException e) {
      org.close();
      throw e;
    }
  }

  public SimOrg org() {
    return org;
  }

  public LokiReceiver receiver() {
    return receiver;
  }

  /** The work directory (child JVM output files go here). */
  public Path dir() {
    return dir;
  }

  /**
   * Writes the configuration.
   *
   * @param sources the {@code sources} keys after {@code pubsub: enabled: false}, indented by 2
   *     spaces (e.g. an {@code eventlogfile:} block)
   * @param lokiExtra further {@code sink.loki} keys, indented by 4 spaces, or ""
   * @return the YAML file
   */
  public Path writeConfig(String sources, String lokiExtra) {
    String yaml =
        """
        salesforce:
          login_url: "%s"
          client_id: "sim-client-id"
          username: "integration@example.com"
          private_key_file: "%s"
        sources:
          pubsub:
            enabled: false
        %s\
        sink:
          loki:
            url: "%s"
        %s\
        state:
          file:
            path: "%s"
        service:
          health_addr: "127.0.0.1:0"
          log_level: warning
          log_format: logfmt
        """
            .formatted(
                org.instanceUrl(),
                dir.resolve("jwt.key"),
                sources,
                receiver.pushUrl(),
                lokiExtra,
                state);
    Path cfg = dir.resolve("sf2loki-sf.yaml");
    try {
      Files.writeString(cfg, yaml, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return cfg;
  }

  /** The configured {@code state.file.path}: {@code <dir>/state/state.json}. */
  public Path statePath() {
    return state;
  }

  /**
   * Stored entries per record {@code Id} (each line is a record's canonical JSON, as the
   * SOQL-object sources ship it).
   */
  public Map<String, Integer> receivedPerId() {
    return perId(receiver.entries());
  }

  /** Stored entries per record {@code Id} (the line is the record's canonical JSON). */
  public static Map<String, Integer> perId(List<ReceivedEntry> entries) {
    Map<String, Integer> out = new HashMap<>();
    for (ReceivedEntry e : entries) {
      try {
        out.merge(JSON.readTree(e.line()).path("Id").asText(), 1, Integer::sum);
      } catch (IOException ex) {
        throw new UncheckedIOException(ex);
      }
    }
    return out;
  }

  /** The state file's committed checkpoints (empty when the file does not exist yet). */
  public Map<String, String> checkpoints() {
    if (!Files.exists(state)) {
      return Map.of();
    }
    try (var store = new FileCheckpointStore(state, FileCheckpointStore.LockMode.NONE)) {
      return store.snapshot();
    }
  }

  @Override
  public void close() {
    org.close();
    receiver.close();
    try (var walk = Files.walk(dir)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // best effort
    }
  }
}
