package io.sf2loki.app.health;

import java.util.List;
import java.util.Objects;

/**
 * Read-only status snapshot served by {@code GET /statusz} (SPEC FEAT-3, OBS-35, OBS-36). Holds no
 * secrets: only names, positions, counts and redacted error messages. Times are ISO-8601 instants
 * (UTC) or empty when unknown; the JSON field names are the record component names.
 *
 * @param version the build version (OBS-6)
 * @param role the coordinator role ({@code leader}, {@code standby}, {@code starting})
 * @param epoch the fence epoch while leading, else -1
 * @param readiness the current {@code /readyz} body (OBS-8)
 * @param time when the snapshot was taken (the "now" of every age)
 * @param sources one entry per configured (and discovered) source
 * @param lanes one entry per lane of the running term; empty when no term runs
 * @param governor the egress governor state (EGR-8)
 * @param orgs under {@code coordinate.per_org}: one row per configured org (OBS-38); else empty
 */
public record StatusSnapshot(
    String version,
    String role,
    long epoch,
    String readiness,
    String time,
    List<Source> sources,
    List<Lane> lanes,
    Governor governor,
    List<Org> orgs) {

  /** Copies the lists; nulls are rejected. */
  public StatusSnapshot {
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(readiness, "readiness");
    Objects.requireNonNull(time, "time");
    sources = List.copyOf(sources);
    lanes = List.copyOf(lanes);
    Objects.requireNonNull(governor, "governor");
    orgs = List.copyOf(orgs);
  }

  /** A snapshot without per-org rows (no {@code per_org}). */
  public StatusSnapshot(
      String version,
      String role,
      long epoch,
      String readiness,
      String time,
      List<Source> sources,
      List<Lane> lanes,
      Governor governor) {
    this(version, role, epoch, readiness, time, sources, lanes, governor, List.of());
  }

  /**
   * One source: a Pub/Sub topic, an ELF type, an event-log object or {@code apexlog} (OBS-35).
   *
   * @param name the checkpoint key, e.g. {@code pubsub:/event/LoginEventStream}
   * @param position the committed cursor (replay id, watermark), or {@code -} when none or unknown
   * @param positionTime the instant the position's age is measured from: the watermark for ELF
   *     ({@code last_created}), objects and ApexLog ({@code last_ts}); this process's last commit
   *     of the topic for Pub/Sub (a replay id carries no time); empty when unknown
   * @param ageSeconds {@code time − positionTime} in whole seconds (≥ 0), or -1 when unknown
   * @param ageBasis {@code watermark}, {@code last_commit}, or empty when unknown
   * @param lastPoll {@code ok}, {@code error}, {@code paused} (API reserve, OBS-21), {@code
   *     skipped}, or {@code -} before the first poll of this process
   * @param lastPollClass the failure's class when {@code lastPoll} is {@code error}, else empty
   * @param lastPollAt when the last poll ended, or empty
   * @param lastError the last failure's message: redacted, one line, at most 200 chars; empty when
   *     none (kept after later successes)
   * @param lastErrorAt when the last failure happened, or empty
   */
  public record Source(
      String name,
      String position,
      String positionTime,
      long ageSeconds,
      String ageBasis,
      String lastPoll,
      String lastPollClass,
      String lastPollAt,
      String lastError,
      String lastErrorAt) {}

  /**
   * One pipeline lane of the running term (OBS-36).
   *
   * @param name lane name ({@code streaming}, {@code bulk}; {@code <kind>/<group>} for a Loki
   *     identity group's lane, OBS-39)
   * @param depth entries queued (PIPE-3)
   * @param bytes bytes charged to the lane's budget (PIPE-3 cost)
   * @param failingSince ISO-8601 instant of the lane's PIPE-11 failing mark, or empty
   */
  public record Lane(String name, long depth, long bytes, String failingSince) {}

  /**
   * The egress governor.
   *
   * @param paused whether pushes are paused (EGR-8)
   * @param reason the pause reason, or empty
   */
  public record Governor(boolean paused, String reason) {}

  /**
   * One org under {@code coordinate.per_org} (OBS-38).
   *
   * @param name the org name
   * @param leader whether this replica runs the org's term now
   * @param epoch the org lease's epoch while leading it (its document's {@code __fence_epoch__}),
   *     else -1
   */
  public record Org(String name, boolean leader, long epoch) {}
}
