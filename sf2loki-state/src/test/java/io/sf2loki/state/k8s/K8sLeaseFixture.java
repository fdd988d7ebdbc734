package io.sf2loki.state.k8s;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.sf2loki.core.spi.StateException;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.state.Fencing;
import io.sf2loki.state.lease.LeaseEvents;
import io.sf2loki.state.lease.LeaseStoreBinding;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** The fabric8 CRUD mock seen as one Lease, plus fakes of the store binding and the metrics. */
final class K8sLeaseFixture {
  static final String NS = "ha";

  final KubernetesMockServer server;
  final KubernetesClient client;
  final String name;
  private int puts;

  K8sLeaseFixture(KubernetesMockServer server, String name) {
    this.server = server;
    // one attempt per request, as K8sLeaseClient.connect configures it
    this.client =
        server.createClient(b -> b.editOrNewConfig().withRequestRetryBackoffLimit(0).endConfig());
    this.name = name;
  }

  K8sLeaseClient leaseClient() {
    return new K8sLeaseClient(client, NS, name);
  }

  Resource<Lease> resource() {
    return client.leases().inNamespace(NS).withName(name);
  }

  Lease stored() {
    return resource().get();
  }

  /**
   * Creates or overwrites the Lease as another replica (or an operator) would; each call writes a
   * different (ancient) {@code renewTime}, so it is never a no-op update.
   */
  Lease put(String holder, Integer transitions, boolean renewTime, Integer durationSeconds) {
    Lease cur = stored();
    LeaseBuilder b =
        cur == null
            ? new LeaseBuilder().withNewMetadata().withName(name).withNamespace(NS).endMetadata()
            : new LeaseBuilder(cur);
    Lease l =
        b.editOrNewSpec()
            .withHolderIdentity(holder)
            .withLeaseTransitions(transitions)
            .withRenewTime(
                renewTime ? ZonedDateTime.parse("2020-01-01T00:00:00Z").plusSeconds(++puts) : null)
            .withLeaseDurationSeconds(durationSeconds)
            .endSpec()
            .build();
    var r = client.leases().inNamespace(NS).resource(l);
    return cur == null ? r.create() : r.update();
  }

  String leasePath() {
    return "/apis/coordination.k8s.io/v1/namespaces/" + NS + "/leases/" + name;
  }

  String collectionPath() {
    return "/apis/coordination.k8s.io/v1/namespaces/" + NS + "/leases";
  }

  static Status status(int code) {
    return new StatusBuilder().withCode(code).withMessage("injected " + code).build();
  }

  /** A store binding with a settable {@code __fence_epoch__}. */
  static final class Binding implements LeaseStoreBinding {
    volatile long fenceEpoch;
    volatile boolean failStoreReads;
    volatile Fencing fencing;
    volatile int termsEnded;

    @Override
    public long freshFenceEpoch() {
      if (failStoreReads) {
        throw new StateException("store down");
      }
      return fenceEpoch;
    }

    @Override
    public void install(Fencing f) {
      fencing = f;
    }

    @Override
    public boolean beginTerm(Duration maxWait, StopSignal stop) {
      return !stop.isStopped();
    }

    @Override
    public void endTerm() {
      termsEnded++;
    }

    @Override
    public void claimEpoch() {
      fenceEpoch = Math.max(fenceEpoch, fencing.epoch().getAsLong()); // HA-26
    }
  }

  /** Records {@code error:<operation>} and {@code surrendered:<reason>}. */
  static final class Events implements LeaseEvents {
    final List<String> seen = new CopyOnWriteArrayList<>();

    @Override
    public void error(String operation) {
      seen.add("error:" + operation);
    }

    @Override
    public void surrendered(String reason) {
      seen.add("surrendered:" + reason);
    }
  }
}
