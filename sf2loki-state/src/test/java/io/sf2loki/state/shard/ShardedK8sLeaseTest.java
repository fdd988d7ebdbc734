package io.sf2loki.state.shard;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.state.k8s.K8sLeaseClient;
import io.sf2loki.state.k8s.K8sLeaseProtocol;
import io.sf2loki.state.lease.LeaseEvents;
import io.sf2loki.state.lease.LeaseProtocol;
import io.sf2loki.state.lease.LeaseSettings;
import io.sf2loki.state.lease.LeaseStoreBinding;
import java.time.Duration;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;

/** HA-27…HA-30 on {@code k8s_lease} against fabric8's CRUD mock API server (409 on stale rv). */
@DisplayName("HA-27…HA-30: k8s_lease sharding on the CRUD mock")
@EnableKubernetesMockClient(crud = true)
class ShardedK8sLeaseTest extends ShardedLeaseContract {
  private static final String NS = "shard";
  private static final String NAME = "sf2loki-leader";

  KubernetesMockServer server;
  private KubernetesClient client;

  @BeforeEach
  void connect() {
    client =
        server.createClient(b -> b.editOrNewConfig().withRequestRetryBackoffLimit(0).endConfig());
  }

  @Override
  protected void afterReplicas() {
    client.close();
  }

  @Override
  protected Duration lease() {
    return Duration.ofSeconds(1); // leaseDurationSeconds is whole seconds (HA-12)
  }

  @Override
  protected Duration renew() {
    return Duration.ofMillis(250);
  }

  @Override
  protected LeaseProtocol orgLease(String org, LeaseSettings s, LeaseStoreBinding b, TimeSource t) {
    return protocol(ShardNames.k8sOrg(NAME, org), s, b, t);
  }

  @Override
  protected LeaseProtocol seatLease(int i, LeaseSettings s, TimeSource t) {
    return protocol(ShardNames.k8sSeat(NAME, i), s, LeaseStoreBinding.none(), t);
  }

  private LeaseProtocol protocol(String name, LeaseSettings s, LeaseStoreBinding b, TimeSource t) {
    return new K8sLeaseProtocol(new K8sLeaseClient(client, NS, name), s, b, t, LeaseEvents.none());
  }
}
