package io.sf2loki.state.object;

import io.sf2loki.core.spi.StateException;

/**
 * A failure of one object-store request that STATE-9 retries: S3 codes {@code SlowDown}, {@code
 * InternalError}, {@code InternalFailure}, {@code ServiceUnavailable}, {@code RequestTimeout},
 * {@code RequestTimeTooSkewed}, {@code Throttling}, {@code ThrottlingException}, {@code
 * RequestLimitExceeded}; status 429 or ≥ 500; a timeout, a connection failure or an I/O error while
 * reading the body. After a write failing this way its outcome is unknown (STATE-10).
 */
public final class TransientStoreException extends StateException {
  public TransientStoreException(String message, Throwable cause) {
    super(message, cause);
  }
}
