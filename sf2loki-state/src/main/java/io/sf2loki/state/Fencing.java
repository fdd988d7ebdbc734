package io.sf2loki.state;

import io.sf2loki.core.spi.StateFenceException;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalLong;
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

  /**
   * STATE-7 for one write: runs the leadership check, refuses the write when {@code current}
   * carries a greater {@code __fence_epoch__} than this term's, else stores this term's epoch in
   * {@code next}.
   *
   * @param current the document the write replaces (file: freshly read; object: the cached version
   *     that the conditional write guards)
   * @param next the document to write, changed in place
   * @param where the document's place for the error, e.g. {@code s3://bucket/key}
   * @throws StateFenceException when fenced out or no longer leader
   */
  public void stamp(Map<String, String> current, Map<String, String> next, String where) {
    leadershipCheck.run();
    long mine = epoch.getAsLong();
    OptionalLong stored = CheckpointDocument.fenceEpoch(current);
    if (stored.isPresent() && stored.getAsLong() > mine) {
      throw new StateFenceException(
          "state "
              + where
              + " is fenced at epoch "
              + stored.getAsLong()
              + " > this term's epoch "
              + mine);
    }
    next.put(CheckpointDocument.FENCE_EPOCH_KEY, Long.toString(mine));
  }

  /**
   * HA-26 claim check: a term may claim its epoch only while the store carries a smaller one. An
   * equal stored epoch was claimed by another replica that computed the same HA-8 epoch (a lost
   * HA-10 race its verify read did not see); two terms must never share one epoch.
   *
   * @param stored the store's {@code __fence_epoch__} read fresh (0 when absent)
   * @param where the document's place for the error
   * @throws StateFenceException when {@code stored} ≥ this term's epoch
   */
  public void requireUnclaimed(long stored, String where) {
    long mine = epoch.getAsLong();
    if (stored >= mine) {
      throw new StateFenceException(
          "state "
              + where
              + " already carries epoch "
              + stored
              + " ≥ this term's epoch "
              + mine
              + "; another replica claimed it");
    }
  }
}
