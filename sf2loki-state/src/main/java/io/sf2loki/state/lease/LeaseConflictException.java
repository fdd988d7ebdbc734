package io.sf2loki.state.lease;

/**
 * An object-store lease write was refused by its precondition (S3 {@code 412}/{@code 409}, GCS
 * {@code 412}): another replica wrote the lease since our read (SPEC HA-16). Never retried.
 */
public final class LeaseConflictException extends LeaseWriteException {
  public LeaseConflictException(String message, Throwable cause) {
    super(message, cause);
  }
}
