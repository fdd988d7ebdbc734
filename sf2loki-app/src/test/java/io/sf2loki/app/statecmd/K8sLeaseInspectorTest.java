package io.sf2loki.app.statecmd;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.EnableKubernetesMockClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.sf2loki.state.k8s.K8sLeaseClient;
import java.time.Instant;
import java.time.ZonedDateTime;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** CLI-9 for {@code k8s_lease}: the Lease read without taking it. */
@EnableKubernetesMockClient(crud = true)
class K8sLeaseInspectorTest {
  KubernetesMockServer server;
  KubernetesClient client;

  private LeaseInspector inspector() {
    return new K8sLeaseInspector(() -> new K8sLeaseClient(client, "ha", "sf2loki-leader"));
  }

  @Test
  @DisplayName(
      "CLI-9/HA-12: an absent Lease is not held; a held one names its holder and renewTime +"
          + " leaseDurationSeconds; a cleared holder is not held")
  void readsTheLease() throws Exception {
    Instant now = Instant.parse("2026-12-02T08:00:00Z");
    assertThat(inspector().read().heldAt(now)).isFalse();
    var lease =
        client
            .leases()
            .inNamespace("ha")
            .resource(
                new LeaseBuilder()
                    .withNewMetadata()
                    .withName("sf2loki-leader")
                    .endMetadata()
                    .withNewSpec()
                    .withHolderIdentity("pod-a")
                    .withRenewTime(ZonedDateTime.parse("2026-12-02T07:59:50Z"))
                    .withLeaseDurationSeconds(30)
                    .withLeaseTransitions(3)
                    .endSpec()
                    .build())
            .create();
    LeaseInspector.LeaseView v = inspector().read();
    assertThat(v.holder()).contains("pod-a");
    assertThat(v.expiresAt()).contains(Instant.parse("2026-12-02T08:00:20Z"));
    assertThat(v.heldAt(now)).isTrue();
    assertThat(v.where()).isEqualTo("Kubernetes Lease ha/sf2loki-leader");
    client
        .leases()
        .inNamespace("ha")
        .resource(new LeaseBuilder(lease).editSpec().withHolderIdentity(null).endSpec().build())
        .update();
    assertThat(inspector().read().heldAt(now)).isFalse();
  }

  @Test
  @DisplayName("CLI-9: a Lease that cannot be read refuses (UnreadableLeaseException)")
  void unreadable() {
    server
        .expect()
        .get()
        .withPath("/apis/coordination.k8s.io/v1/namespaces/ha/leases/sf2loki-leader")
        .andReturn(403, "forbidden")
        .always();
    assertThatThrownBy(() -> inspector().read())
        .isInstanceOf(LeaseInspector.UnreadableLeaseException.class)
        .hasMessageContaining("cannot read Kubernetes Lease ha/sf2loki-leader");
  }
}
