package io.sf2loki.app.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sf2loki.app.config.ConfigLoader;
import io.sf2loki.app.demo.DemoScenario;
import io.sf2loki.app.run.Daemon;
import io.sf2loki.app.run.DaemonOptions;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.Ticker;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.sim.loki.LokiReceiver;
import io.sf2loki.sim.loki.ReceivedEntry;
import io.sf2loki.sim.org.Fault;
import io.sf2loki.sim.org.SimEndpoint;
import io.sf2loki.sim.org.SimOrg;
import io.sf2loki.sim.pubsub.PublishedEvent;
import io.sf2loki.sim.pubsub.SimPubSub;
import io.sf2loki.state.file.FileCheckpointStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Multi-org Pub/Sub end to end (issue 15 acceptance, streaming side; SPEC ORG-1, ORG-3, ORG-6,
 * PS-14): two simulated orgs with different org ids, each with its own simulated Pub/Sub API, under
 * {@code orgs:} in one daemon process; one org's token endpoint fails while both keep publishing.
 * The timing side (p99 push latency) is the {@code OrgIsolation} benchmark's.
 */
class MultiOrgPubSubEndToEndTest {
  private static final String ALPHA_ID = "00D0000000000AAAAA";
  private static final String BETA_ID = "00D0000000000BBBBB";
  private static final String LOGIN = SimPubSub.LOGIN_TOPIC;

  /** Real clocks; every wait (reconnect backoff, poll) lasts at most 20 ms. */
  private static final TimeSource FAST =
      new TimeSource(
          InstantSource.system(),
          Ticker.system(),
          (d, stop) -> !stop.await(Duration.ofMillis(Math.min(20, Math.max(0, d.toMillis())))));

  @TempDir Path dir;
  private SimOrg alpha;
  private SimOrg beta;
  private SimPubSub alphaBus;
  private SimPubSub betaBus;
  private LokiReceiver loki;
  private final List<PublishedEvent> alphaEvents = new ArrayList<>();
  private final List<PublishedEvent> betaEvents = new ArrayList<>();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  @BeforeEach
  void start() throws Exception {
    RSAPublicKey key = DemoScenario.writeJwtKey(dir.resolve("jwt.key"));
    alpha = SimOrg.builder().jwtPublicKey(key).orgId(ALPHA_ID).start();
    beta = SimOrg.builder().jwtPublicKey(key).orgId(BETA_ID).start();
    alphaBus = SimPubSub.builder().org(alpha).port(0).seed(1).start();
    betaBus = SimPubSub.builder().org(beta).port(0).seed(2).start();
    loki = LokiReceiver.start();
  }

  @AfterEach
  void stop() {
    alphaBus.close();
    betaBus.close();
    alpha.close();
    beta.close();
    loki.close();
  }

  private String orgYaml(String name, SimOrg org, SimPubSub bus) {
    return """
          - name: %s
            salesforce:
              login_url: "%s"
              client_id: sim-client-id
              username: integration@example.com
              private_key_file: "%s"
            sources:
              pubsub:
                enabled: true
                endpoint: "%s"
                tls: false
                replay_preset: EARLIEST
                topics: ["%s"]
              eventlogfile:
                enabled: false
        """
        .formatted(name, org.instanceUrl(), dir.resolve("jwt.key"), bus.target(), LOGIN);
  }

  private Daemon daemon() throws Exception {
    String yaml =
        "orgs:\n"
            + orgYaml("alpha", alpha, alphaBus)
            + orgYaml("beta", beta, betaBus)
            + """
            sink:
              loki:
                url: "%s"
                structured_metadata_fields: [replay_id, event_identifier]
            state:
              file:
                path: "%s"
            service:
              health_addr: "127.0.0.1:0"
              log_level: warning
            """
                .formatted(loki.pushUrl(), dir.resolve("state.json"));
    Path file = dir.resolve("sf2loki.yaml");
    Files.writeString(file, yaml);
    return new Daemon(
        new ConfigLoader().load(file, Map.of()),
        new DaemonOptions(false, null, UnaryOperator.identity(), FAST),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  private void publish(int n) {
    alphaEvents.addAll(alphaBus.publish(LOGIN, n));
    betaEvents.addAll(betaBus.publish(LOGIN, n));
  }

  /** Distinct entries the receiver holds for {@code org}. */
  private long rows(String org) {
    return loki.entries(Map.of("org", org)).size();
  }

  private Map<String, String> checkpoints() {
    if (!Files.exists(dir.resolve("state.json"))) {
      return Map.of();
    }
    try (var store =
        new FileCheckpointStore(dir.resolve("state.json"), FileCheckpointStore.LockMode.NONE)) {
      return store.snapshot();
    }
  }

  /** The published events as {@code replay_id/event_identifier} (replay ids repeat across orgs). */
  private static Set<String> ids(List<PublishedEvent> events) {
    return events.stream()
        .map(e -> e.replayIdBase64() + "/" + e.fields().get("EventIdentifier"))
        .collect(Collectors.toSet());
  }

  private Set<String> receivedIds(String org) {
    return loki.entries(Map.of("org", org)).stream()
        .map(
            e ->
                e.structuredMetadata().get("replay_id")
                    + "/"
                    + e.structuredMetadata().get("event_identifier"))
        .collect(Collectors.toSet());
  }

  @Test
  @DisplayName(
      "ORG-1, ORG-3, ORG-6, PS-14: two orgs streaming Pub/Sub in one process; while beta's token"
          + " endpoint fails alpha ships every event and beta none; once it heals beta resumes"
          + " where it stopped: every event of both orgs exactly once, with its org and"
          + " sf_org_id, and each org's checkpoint at its last event")
  void org6_streamingOrgsIsolatedAcrossTokenFailure() throws Exception {
    StopSignal stop = new StopSignal();
    AtomicInteger status = new AtomicInteger(-1);
    Daemon daemon = daemon();
    Thread thread = Thread.ofPlatform().name("daemon").start(() -> status.set(daemon.run(stop)));
    try {
      publish(150);
      await()
          .atMost(Duration.ofSeconds(90))
          .until(() -> rows("alpha") == 150 && rows("beta") == 150);

      // beta: the token endpoint refuses the grant and its tokens are revoked (its stream ends)
      long tokenCalls = beta.callCount(SimEndpoint.TOKEN);
      beta.faults()
          .add(
              SimEndpoint.TOKEN,
              Fault.salesforceError(400, "invalid_grant", "authentication failure").untilCleared());
      beta.expireAllTokens();
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> beta.callCount(SimEndpoint.TOKEN) > tokenCalls);
      publish(150);
      await().atMost(Duration.ofSeconds(90)).until(() -> rows("alpha") == 300);
      long callsAtAlphaDone = beta.callCount(SimEndpoint.TOKEN);
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> beta.callCount(SimEndpoint.TOKEN) > callsAtAlphaDone);
      assertThat(rows("beta")).as("beta cannot read while its token fails").isEqualTo(150);

      beta.faults().clear(SimEndpoint.TOKEN);
      await().atMost(Duration.ofSeconds(90)).until(() -> rows("beta") == 300);
      await()
          .atMost(Duration.ofSeconds(30))
          .until(
              () ->
                  alphaEvents
                          .getLast()
                          .replayIdBase64()
                          .equals(checkpoints().get("org=alpha:pubsub:" + LOGIN))
                      && betaEvents
                          .getLast()
                          .replayIdBase64()
                          .equals(checkpoints().get("org=beta:pubsub:" + LOGIN)));
    } finally {
      stop.stop();
      thread.join(Duration.ofSeconds(60));
    }
    assertThat(thread.isAlive()).isFalse();
    assertThat(status.get()).as(err.toString(StandardCharsets.UTF_8)).isZero();

    assertThat(receivedIds("alpha")).isEqualTo(ids(alphaEvents));
    assertThat(receivedIds("beta")).isEqualTo(ids(betaEvents));
    assertThat(ids(alphaEvents)).doesNotContainAnyElementsOf(ids(betaEvents));
    List<ReceivedEntry> got = loki.entries();
    assertThat(got).hasSize(alphaEvents.size() + betaEvents.size());
    assertThat(loki.duplicatesDropped()).as("nothing sent twice").isZero();
    assertThat(got)
        .allSatisfy(
            e -> {
              String org = e.labels().get("org");
              assertThat(org).isIn("alpha", "beta");
              assertThat(e.labels())
                  .containsEntry("source", "pubsub")
                  .containsEntry("sf_org_id", org.equals("alpha") ? ALPHA_ID : BETA_ID);
            });
  }
}
