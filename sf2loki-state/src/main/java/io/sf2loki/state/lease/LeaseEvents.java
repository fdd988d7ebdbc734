package io.sf2loki.state.lease;

/**
 * What the lease coordinator reports for metrics (SPEC OBS-16, OBS-17); the application maps it to
 * {@code sf2loki_lease_errors{operation}} and {@code sf2loki_lease_surrenders{reason}}. Must not
 * throw.
 */
public interface LeaseEvents {
  /**
   * A lease operation failed.
   *
   * @param operation {@code read} (lease unreadable), {@code write} (lease write failed or
   *     refused), {@code store_read} (the checkpoint store's {@code __fence_epoch__} could not be
   *     read, HA-8) or {@code store_write} (the term's epoch could not be written into the store,
   *     HA-26)
   */
  void error(String operation);

  /**
   * This replica gave up a lease it had won.
   *
   * @param reason {@code foreign_holder}, {@code renew_deadline}, {@code conflict}, {@code
   *     demoted}, {@code lock} or {@code rebalance} (HA-28)
   */
  void surrendered(String reason);

  /** Reports nothing. */
  static LeaseEvents none() {
    return new LeaseEvents() {
      @Override
      public void error(String operation) {}

      @Override
      public void surrendered(String reason) {}
    };
  }
}
