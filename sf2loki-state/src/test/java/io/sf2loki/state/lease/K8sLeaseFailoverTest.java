package io.sf2loki.state.lease;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.sf2loki.core.spi.CheckpointStore;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.state.file.FileCheckpointStore;
import io.sf2loki.state.k8s.K8sLeaseClient;
import io.sf2loki.state.k8s.K8sLeaseProtocol;
import io.sf2loki.state.lease.LeaseFailoverHarness.Replica;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.io.TempDir;

/**
 * Failover on {@code k8s_lease} against fabric8's CRUD mock API server (409 on a stale {@code
 * resourceVersion}), two replicas over one file store in term-lock mode. Forced losses in turn: an
 * intruder takes the Lease (foreign holder), the Lease is deleted (404), and a 409 storm (four
 * threads rewriting the Lease as fast as they can) until the holder's renewal is refused.
 */
@DisplayName("HA-12…HA-15/HA-8: k8s_lease failover on the CRUD mock while producing")
@EnableKubernetesMockClient(crud = true)
class K8sLeaseFailoverTest extends LeaseFailoverContract {
  static final String NS = "ha";
  static final String NAME = "sf2loki-leader";

  KubernetesMockServer server;
  @TempDir Path dir;
  private KubernetesClient client;

  @BeforeEach
  void connect() {
    client =
        server.createClient(b -> b.editOrNewConfig().withRequestRetryBackoffLimit(0).endConfig());
  }

  @AfterEach
  void disconnect() {
    client.close();
  }

  @Override
  protected CheckpointStore store() {
    return new FileCheckpointStore(dir.resolve("state.json"), FileCheckpointStore.LockMode.TERM);
  }

  @Override
  protected LeaseStorage lease() {
    throw new UnsupportedOperationException("k8s_lease has no lease document");
  }

  @Override
  protected void addReplicas(LeaseFailoverHarness h) {
    for (String id : List.of("a", "b")) {
      // leaseDurationSeconds is whole seconds (HA-12), so a 1 s lease_duration is the shortest
      LeaseSettings s =
          new LeaseSettings(
              id, Duration.ofSeconds(1), Duration.ofMillis(250), Duration.ofSeconds(2));
      h.add(
          id,
          store(),
          binding ->
              new LeaseCoordinator(
                  "k8s_lease",
                  new K8sLeaseProtocol(
                      new K8sLeaseClient(client, NS, NAME),
                      s,
                      binding,
                      TimeSource.system(),
                      LeaseEvents.none()),
                  s,
                  binding,
                  TimeSource.system(),
                  LeaseEvents.none()));
    }
  }

  @Override
  protected Runnable forceLoss(int i, Replica l) throws Exception {
    switch (i % 3) {
      case 0 -> takeOver(l.coordinator.epoch());
      case 1 -> client.leases().inNamespace(NS).withName(NAME).delete();
      default -> {
        return storm(4);
      }
    }
    return () -> {};
  }

  @Override
  protected void stillLeading(int i, Replica l) {
    // the Lease is compare-and-swap: a fault once applied is never undone by a renewal
  }

  /** An intruder writes itself into the Lease (retrying its own 409s). */
  private void takeOver(long epoch) {
    while (true) {
      Lease cur = client.leases().inNamespace(NS).withName(NAME).get();
      if (cur == null) {
        return; // nothing to take over: the leader will re-create it; the loop waits for a loss
      }
      Lease mine =
          new LeaseBuilder(cur)
              .editSpec()
              .withHolderIdentity("intruder")
              .withLeaseTransitions((int) epoch)
              .endSpec()
              .build();
      try {
        client.leases().inNamespace(NS).resource(mine).update();
        return;
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409) {
          throw e;
        }
      }
    }
  }

  /** Threads touching the Lease (an annotation, holder and epoch kept) until stopped. */
  private Runnable storm(int threads) {
    AtomicBoolean on = new AtomicBoolean(true);
    List<Thread> ts = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      String who = "storm-" + t;
      ts.add(
          Thread.ofPlatform()
              .name(who)
              .start(
                  () -> {
                    long n = 0;
                    while (on.get()) {
                      Lease cur = client.leases().inNamespace(NS).withName(NAME).get();
                      if (cur == null) {
                        continue;
                      }
                      Lease touched =
                          new LeaseBuilder(cur)
                              .editMetadata()
                              .addToAnnotations(Map.of("storm", who + "-" + n++))
                              .endMetadata()
                              .build();
                      try {
                        client.leases().inNamespace(NS).resource(touched).update();
                      } catch (KubernetesClientException e) {
                        // 409 among the storm's own writers: expected
                      }
                    }
                  }));
    }
    return () -> {
      on.set(false);
      for (Thread t : ts) {
        try {
          t.join();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    };
  }

  @Override
  protected String rawState() {
    try {
      return Files.readString(dir.resolve("state.json"));
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  protected int losses() {
    return 6;
  }
}
