package io.sf2loki.state;

import io.sf2loki.core.spi.StateFenceException;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * What a lease coordinator installs on a store (SPEC HA-7, STATE-2, STATE-7): a leadership check
 * run before every write, and the current term's epoch. {@code noop} installs none.
 *
 * @param leadershipCheck throws {@link StateFenceException} when this replica is no longer leader
 * @param epoch the term's epoch (HA-8), at least 1
 */
public record Fencing(Runnable leadershipCheck, LongSupplier epoch) {
  public Fencing {
    Objects.requireNonNull(leadershipCheck, "leadershipCheck");
    Objects.requireNonNull(epoch, "epoch");
  }
}
