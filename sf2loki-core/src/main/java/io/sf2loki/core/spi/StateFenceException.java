package io.sf2loki.core.spi;

/**
 * A checkpoint write was vetoed by epoch fencing: the stored {@code __fence_epoch__} is greater
 * than the writer's epoch, or the fence hook reports this replica is no longer leader (SPEC
 * STATE-7, HA-7). The term demotes instead of exiting (HA-5).
 */
public class StateFenceException extends StateException {
  public StateFenceException(String message) {
    super(message);
  }
}
