package io.sf2loki.app.statecmd;

import io.sf2loki.app.config.CoordinateConfig;
import io.sf2loki.state.k8s.K8sLeaseClient;
import io.sf2loki.state.k8s.K8sLeaseRead;
import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Reads the {@code k8s_lease} Lease with one GET (SPEC CLI-9, HA-12): 404 is absent, any other
 * failure is {@link UnreadableLeaseException}. The holder's claim is shown as running out at {@code
 * renewTime + leaseDurationSeconds}; that instant is the holder's own clock, informational only
 * (replicas judge staleness by observed time, HA-13).
 */
final class K8sLeaseInspector implements LeaseInspector {
  private final Supplier<K8sLeaseClient> client;

  K8sLeaseInspector(CoordinateConfig.K8sLease k) {
    this(
        () ->
            K8sLeaseClient.connect(
                k.namespace(), k.name(), k.kubeconfig(), Duration.ofSeconds(10)));
  }

  /** {@code client} is opened per read and closed after it. */
  K8sLeaseInspector(Supplier<K8sLeaseClient> client) {
    this.client = client;
  }

  @Override
  public LeaseView read() throws UnreadableLeaseException {
    K8sLeaseRead r;
    String where;
    try (K8sLeaseClient c = client.get()) {
      where = "Kubernetes Lease " + c.describe();
      r = c.read();
    } catch (IllegalArgumentException e) {
      throw new UnreadableLeaseException("cannot read Kubernetes Lease: " + e.getMessage(), e);
    }
    if (r.error() != null) {
      throw new UnreadableLeaseException(
          "cannot read " + where + ": " + r.error().getMessage(), r.error());
    }
    Optional<String> holder = r.holder();
    Optional<java.time.Instant> until =
        holder.flatMap(h -> r.renewTime().flatMap(t -> r.durationSeconds().map(t::plusSeconds)));
    return new LeaseView(holder, until, where);
  }
}
