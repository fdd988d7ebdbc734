package io.sf2loki.state.lease;

import io.sf2loki.core.spi.StateException;

/**
 * A lease write failed (SPEC HA-10: wait {@code renew_interval}; HA-11: tolerated until the renew
 * deadline); counted by {@code sf2loki_lease_errors{operation="write"}} (OBS-16).
 */
public class LeaseWriteException extends StateException {
  public LeaseWriteException(String message, Throwable cause) {
    super(message, cause);
  }
}
