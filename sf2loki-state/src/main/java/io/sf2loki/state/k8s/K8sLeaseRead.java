package io.sf2loki.state.k8s;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
import java.util.Optional;

/**
 * One GET of the Lease (SPEC HA-12…HA-15).
 *
 * @param lease the object as read, or null when it does not exist or the read failed
 * @param error the read failure other than 404, else null
 */
public record K8sLeaseRead(Lease lease, Exception error) {
  /** 404: no Lease object. */
  public static K8sLeaseRead notFound() {
    return new K8sLeaseRead(null, null);
  }

  /** Whether the Lease object does not exist (a clean 404, not an error). */
  public boolean notFoundAnswer() {
    return lease == null && error == null;
  }

  /** {@code spec.holderIdentity}; empty when absent or blank. */
  public Optional<String> holder() {
    return spec().map(LeaseSpec::getHolderIdentity).filter(h -> !h.isBlank());
  }

  /** {@code spec.leaseTransitions}, the epoch (HA-12); 0 when absent. */
  public long transitions() {
    return spec().map(LeaseSpec::getLeaseTransitions).map(Integer::longValue).orElse(0L);
  }

  /** {@code metadata.resourceVersion}, or null without a Lease. */
  public String resourceVersion() {
    return lease == null || lease.getMetadata() == null
        ? null
        : lease.getMetadata().getResourceVersion();
  }

  /** {@code spec.leaseDurationSeconds}; empty when absent. */
  public Optional<Integer> durationSeconds() {
    return spec().map(LeaseSpec::getLeaseDurationSeconds);
  }

  /** {@code spec.renewTime} (informational: never compared with this replica's clock, HA-13). */
  public Optional<java.time.Instant> renewTime() {
    return spec().map(LeaseSpec::getRenewTime).map(java.time.ZonedDateTime::toInstant);
  }

  /** Whether {@code spec.renewTime} is set. */
  public boolean hasRenewTime() {
    return spec().map(LeaseSpec::getRenewTime).isPresent();
  }

  /** Whether this Lease is held by {@code identity} at {@code epoch}. */
  public boolean ownedBy(String identity, long epoch) {
    return holder().filter(identity::equals).isPresent() && transitions() == epoch;
  }

  private Optional<LeaseSpec> spec() {
    return Optional.ofNullable(lease).map(Lease::getSpec);
  }
}
