package io.sf2loki.app.e2e;

import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;

/** {@link ShardedDaemonContract} on {@code k8s_lease} against fabric8's CRUD mock API server. */
@DisplayName("HA-29: per_org daemons on k8s_lease (CRUD mock)")
@EnableKubernetesMockClient(crud = true, https = false)
class ShardedK8sDaemonTest extends ShardedDaemonContract {
  KubernetesMockServer server;
  private Path kubeconfig;

  @Override
  protected String coordinate(String identity) throws Exception {
    if (kubeconfig == null) {
      kubeconfig =
          Files.writeString(
              dir.resolve("kubeconfig"),
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
    }
    return """
        coordinate:
          type: k8s_lease
          per_org: true
          k8s_lease:
            namespace: shard
            name: sf2loki
            identity: %s
            kubeconfig: "%s"
            lease_duration: %dms
            renew_interval: %dms
        """
        .formatted(identity, kubeconfig, LEASE.toMillis(), RENEW.toMillis());
  }
}
