package io.sf2loki.core.spi;

/**
 * A conditional write of the checkpoint document was refused because the stored document changed
 * since this store read it: S3 {@code 412 PreconditionFailed} / {@code 409
 * ConditionalRequestConflict}, GCS {@code 412 conditionNotMet} (SPEC STATE-8, STATE-11). Never
 * retried blindly; under {@code noop} STATE-13 re-applies once, under a lease coordinator the term
 * demotes (HA-5).
 */
public class StateConflictException extends StateException {
  public StateConflictException(String message) {
    super(message);
  }

  public StateConflictException(String message, Throwable cause) {
    super(message, cause);
  }
}
