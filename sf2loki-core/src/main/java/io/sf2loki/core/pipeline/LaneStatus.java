package io.sf2loki.core.pipeline;

import io.sf2loki.core.model.Lane;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A read-only view of one lane of the running term (SPEC FEAT-3 {@code /statusz}), read without
 * taking the lane's lock: the figures are those of the queue's last completed put or take.
 *
 * @param lane the lane's kind
 * @param group the lane's Loki identity group (PIPE-28), empty for the deployment's identity
 * @param depth entries queued (PIPE-3), ≥ 0
 * @param bytes bytes charged to the lane's budget (PIPE-3 cost), ≥ 0
 * @param failingSince the lane's PIPE-11 failing mark (wall clock), empty while healthy
 */
public record LaneStatus(
    Lane lane, String group, long depth, long bytes, Optional<Instant> failingSince) {
  /** Rejects nulls. */
  public LaneStatus {
    Objects.requireNonNull(lane, "lane");
    Objects.requireNonNull(group, "group");
    Objects.requireNonNull(failingSince, "failingSince");
  }

  /** A lane of the deployment's identity. */
  public LaneStatus(Lane lane, long depth, long bytes, Optional<Instant> failingSince) {
    this(lane, "", depth, bytes, failingSince);
  }

  /** The lane's name (OBS-39): {@code streaming}, {@code bulk}, or {@code <kind>/<group>}. */
  public String name() {
    return LaneId.label(lane, group);
  }
}
