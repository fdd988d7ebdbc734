package io.sf2loki.state.object;

import io.sf2loki.core.spi.StateConflictException;

/**
 * A conditional write was refused: S3 {@code 412 PreconditionFailed}, {@code 409
 * ConditionalRequestConflict} or {@code 404 NoSuchKey} for an {@code If-Match} on a deleted object;
 * GCS {@code 412 conditionNotMet} (SPEC STATE-8, STATE-11).
 */
public final class PreconditionFailedException extends StateConflictException {
  private final int status;

  /**
   * @param message names the object and the service's error code
   * @param status the HTTP status (412, 409 or 404)
   */
  public PreconditionFailedException(String message, int status) {
    super(message);
    this.status = status;
  }

  /** The HTTP status of the refusal. */
  public int status() {
    return status;
  }
}
