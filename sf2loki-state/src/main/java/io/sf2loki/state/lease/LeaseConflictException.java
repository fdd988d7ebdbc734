package io.sf2loki.state.lease;

/**
 * A lease write was refused by its precondition (S3 {@code 412}/{@code 409}, GCS {@code 412},
 * Kubernetes {@code 409} on a stale {@code resourceVersion} or an existing Lease): another replica
 * wrote the lease since our read (SPEC HA-16, HA-14, HA-15). Never retried.
 */
public final class LeaseConflictException extends LeaseWriteException {
  public LeaseConflictException(String message, Throwable cause) {
    super(message, cause);
  }
}
