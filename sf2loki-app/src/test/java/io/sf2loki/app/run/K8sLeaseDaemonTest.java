package io.sf2loki.app.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.sf2loki.app.config.ConfigLoader;
import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.app.demo.DemoScenario;
import io.sf2loki.app.testing.RetainingMetricReader;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.Ticker;
import io.sf2loki.core.time.TimeSource;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The real daemon with {@code coordinate.type: k8s_lease} against the simulated org, the Loki
 * receiver and fabric8's CRUD mock API server, reached through a kubeconfig file ({@code
 * coordinate.k8s_lease.kubeconfig}) exactly as a deployment outside the cluster would.
 */
@EnableKubernetesMockClient(crud = true)
class K8sLeaseDaemonTest {
  /** Real clocks; waits up to 60 s (retries, backoffs) last 2 ms, longer ones are real. */
  private static final TimeSource FAST =
      new TimeSource(
          InstantSource.system(),
          Ticker.system(),
          (d, stop) ->
              !stop.await(
                  d.compareTo(Duration.ofSeconds(60)) <= 0
                      ? Duration.ofMillis(Math.min(2, Math.max(0, d.toMillis())))
                      : d));

  KubernetesMockServer server;
  KubernetesClient client;
  private DemoScenario scenario;

  @BeforeEach
  void start() throws Exception {
    scenario = DemoScenario.start(5, false, true, Instant.now());
  }

  @AfterEach
  void stop() {
    scenario.close();
  }

  @Test
  @DisplayName(
      "HA-12/HA-14/HA-15/HA-19: a daemon with k8s_lease starts (no exit-2 refusal), creates the"
          + " Lease with epoch 1, ships its finite run fenced at that epoch and releases the Lease"
          + " (holderIdentity cleared) when it exits")
  void daemonLeadsThroughTheLease() throws Exception {
    Path state = scenario.dir().resolve("state/state.json");
    Path kubeconfig =
        Files.writeString(
            scenario.dir().resolve("kubeconfig"),
            """
            apiVersion: v1
            kind: Config
            clusters:
            - name: mock
              cluster: {server: "%s", insecure-skip-tls-verify: true}
            users:
            - name: sf2loki
              user: {token: not-checked}
            contexts:
            - name: mock
              context: {cluster: mock, user: sf2loki}
            current-context: mock
            """
                .formatted(server.url("")));
    Path cfgFile = scenario.writeConfig(scenario.receiver().pushUrl(), state);
    Files.writeString(
        cfgFile,
        Files.readString(cfgFile)
            + """
            coordinate:
              type: k8s_lease
              k8s_lease:
                namespace: ha
                name: sf2loki-leader
                identity: pod-a
                kubeconfig: "%s"
            """
                .formatted(kubeconfig));
    Sf2lokiConfig cfg = new ConfigLoader().load(cfgFile, Map.of());
    ByteArrayOutputStream err = new ByteArrayOutputStream();

    int status =
        new Daemon(
                cfg,
                new DaemonOptions(
                    true, new RetainingMetricReader(), UnaryOperator.identity(), FAST),
                new PrintStream(err, true, StandardCharsets.UTF_8))
            .run(new StopSignal());

    assertThat(status).as(err.toString(StandardCharsets.UTF_8)).isZero();
    Lease lease = client.leases().inNamespace("ha").withName("sf2loki-leader").get();
    assertThat(lease.getSpec().getLeaseTransitions()).isEqualTo(1);
    assertThat(lease.getSpec().getHolderIdentity()).isNull(); // released at shutdown
    assertThat(lease.getSpec().getLeaseDurationSeconds()).isEqualTo(30);
    assertThat(Files.readString(state)).contains("\"__fence_epoch__\":\"1\"");
    assertThat(scenario.receiver().requestCount()).isPositive();
  }
}
