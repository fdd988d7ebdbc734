package io.sf2loki.app.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.api.OpenTelemetry;
import io.sf2loki.app.config.ConfigException;
import io.sf2loki.app.config.ConfigLoader;
import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.state.file.FileCheckpointStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code coordinate.type: k8s_lease} as {@link Coordinators} builds it (HA-12, CFG). */
class K8sLeaseCoordinatorsTest {
  @TempDir Path dir;

  private Sf2lokiConfig config(String kubeconfig) throws Exception {
    Path cfg =
        Files.writeString(
            dir.resolve("c.yaml"),
            """
            salesforce:
              login_url: "http://127.0.0.1:9"
              client_id: "x"
              auth_mode: client_credentials
              client_secret: "y"
            sink:
              loki:
                url: "http://127.0.0.1:9/loki/api/v1/push"
            state:
              file:
                path: "%s"
            coordinate:
              type: k8s_lease
              k8s_lease:
                kubeconfig: "%s"
            """
                .formatted(dir.resolve("state.json"), kubeconfig));
    return new ConfigLoader().load(cfg, Map.of());
  }

  @Test
  @DisplayName(
      "HA-12: k8s_lease is no longer refused at build time; an unreadable kubeconfig is a"
          + " configuration error naming coordinate.k8s_lease.kubeconfig (exit 2)")
  void buildsOrNamesTheKubeconfig() throws Exception {
    Sf2lokiConfig cfg = config(dir.resolve("missing-kubeconfig").toString());
    BuildSupport.check(cfg); // no refusal
    try (FileCheckpointStore store =
        new FileCheckpointStore(dir.resolve("state.json"), FileCheckpointStore.LockMode.TERM)) {
      assertThatThrownBy(
              () ->
                  Coordinators.build(
                      cfg.coordinate(),
                      Duration.ofSeconds(30),
                      store,
                      TimeSource.system(),
                      new Sf2lokiMetrics(OpenTelemetry.noop().getMeterProvider(), "test")))
          .isInstanceOf(ConfigException.class)
          .hasMessageContaining("coordinate.k8s_lease.kubeconfig");
    }
    assertThat(Coordinators.leased(cfg.coordinate().type())).isTrue();
  }
}
