package io.sf2loki.app.e2e.support;

import io.sf2loki.app.demo.DemoScenario;
import io.sf2loki.sim.loki.LokiReceiver;
import io.sf2loki.sim.org.SimOrg;
import io.sf2loki.sim.pubsub.SimPubSub;
import io.sf2loki.state.file.FileCheckpointStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A simulated org (OAuth JWT flow, REST), a simulated Pub/Sub API authenticating against that org
 * ({@link SimPubSub.Builder#org(SimOrg)}) and a Loki receiver, all on loopback ephemeral ports,
 * plus the YAML that points a Pub/Sub-only daemon at them ({@code sources.pubsub.tls: false}).
 */
public final class PubSubScenario implements AutoCloseable {
  private final SimOrg org;
  private final SimPubSub pubsub;
  private final LokiReceiver receiver;
  private final Path dir;
  private final Path state;

  private PubSubScenario(SimOrg org, SimPubSub pubsub, LokiReceiver receiver, Path dir) {
    this.org = org;
    this.pubsub = pubsub;
    this.receiver = receiver;
    this.dir = dir;
    this.state = dir.resolve("state/state.json");
  }

  /** Starts with the simulator's defaults. */
  public static PubSubScenario start() throws IOException {
    return start(b -> {});
  }

  /**
   * Starts the three servers; {@code pubsubOptions} customises the Pub/Sub simulator before it
   * starts (clock, keepalives, retention, invalid replay status).
   */
  public static PubSubScenario start(Consumer<SimPubSub.Builder> pubsubOptions) throws IOException {
    Path dir = Files.createTempDirectory("sf2loki-pubsub-e2e-");
    SimOrg org =
        SimOrg.builder().jwtPublicKey(DemoScenario.writeJwtKey(dir.resolve("jwt.key"))).start();
    SimPubSub pubsub = null;
    try {
      SimPubSub.Builder b = SimPubSub.builder().org(org);
      pubsubOptions.accept(b);
      pubsub = b.start();
      LokiReceiver receiver = LokiReceiver.start();
      return new PubSubScenario(org, pubsub, receiver, dir);
    } catch (IOException | RuntimeException e) {
      if (pubsub != null) {
        pubsub.close();
      }
      org.close();
      throw e;
    }
  }

  public SimOrg org() {
    return org;
  }

  public SimPubSub pubsub() {
    return pubsub;
  }

  public LokiReceiver receiver() {
    return receiver;
  }

  /** The state file the written configuration uses. */
  public Path stateFile() {
    return state;
  }

  /**
   * Writes the configuration: Pub/Sub enabled for {@code topics} (plaintext to the simulator), the
   * EventLogFile source off, structured metadata {@code replay_id, schema_id, event_uuid, user_id}.
   *
   * @param pubsubExtra further {@code sources.pubsub} keys, one per line, each indented by 4 spaces
   *     (e.g. {@code " default_num_requested: 10\n"}), or ""
   * @param lokiExtra further {@code sink.loki} keys, indented by 4 spaces, or ""
   * @return the YAML file
   */
  public Path writeConfig(List<String> topics, String pubsubExtra, String lokiExtra) {
    StringBuilder t = new StringBuilder();
    for (String topic : topics) {
      t.append("      - \"").append(topic).append("\"\n");
    }
    String yaml =
        """
        salesforce:
          login_url: "%s"
          client_id: "sim-client-id"
          username: "integration@example.com"
          private_key_file: "%s"
        sources:
          pubsub:
            enabled: true
            endpoint: "%s"
            tls: false
            topics:
        %s\
        %s\
          eventlogfile:
            enabled: false
        sink:
          loki:
            url: "%s"
            structured_metadata_fields: [replay_id, schema_id, event_uuid, user_id]
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
                pubsub.target(),
                t,
                pubsubExtra,
                receiver.pushUrl(),
                lokiExtra,
                state);
    Path cfg = dir.resolve("sf2loki-pubsub.yaml");
    try {
      Files.writeString(cfg, yaml, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return cfg;
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

  /** The committed {@code pubsub:<topic>} value. */
  public Optional<String> checkpoint(String topic) {
    return Optional.ofNullable(checkpoints().get("pubsub:" + topic));
  }

  /** Writes {@code pubsub:<topic>} = {@code base64} into the state file (pre-seeding, PS-12). */
  public void seedCheckpoint(String topic, String base64) {
    try {
      Files.createDirectories(state.getParent());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    try (var store = new FileCheckpointStore(state, FileCheckpointStore.LockMode.NONE)) {
      store.commitMany(Map.of("pubsub:" + topic, base64), Set.of());
    }
  }

  @Override
  public void close() {
    pubsub.close();
    org.close();
    receiver.close();
    try (var walk = Files.walk(dir)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // best effort: a temp directory
    }
  }
}
