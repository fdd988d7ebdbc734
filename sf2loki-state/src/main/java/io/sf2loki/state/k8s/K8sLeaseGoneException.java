package io.sf2loki.state.k8s;

import io.sf2loki.state.lease.LeaseWriteException;

/**
 * A Lease replace answered 404: the Lease object was deleted since our read (SPEC HA-15: a holder
 * surrenders). Never retried.
 */
public final class K8sLeaseGoneException extends LeaseWriteException {
  public K8sLeaseGoneException(String message, Throwable cause) {
    super(message, cause);
  }
}
