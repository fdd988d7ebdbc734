package io.sf2loki.app.health;

import java.util.List;
import java.util.Objects;

/**
 * Read-only status snapshot served by {@code GET /statusz} (SPEC FEAT-3). Holds no secrets: only
 * names, positions, counts and scrubbed error messages.
 *
 * @param version the build version (OBS-6)
 * @param role the coordinator role ({@code leader}, {@code standby}, {@code starting})
 * @param epoch the fence epoch while leading, else -1
 * @param readiness the current {@code /readyz} body (OBS-8)
 * @param sources one entry per configured source
 * @param lanes one entry per pipeline lane
 * @param governor the egress governor state (EGR-8)
 */
public record StatusSnapshot(
    String version,
    String role,
    long epoch,
    String readiness,
    List<Source> sources,
    List<Lane> lanes,
    Governor governor) {

  /** Copies the lists; nulls are rejected. */
  public StatusSnapshot {
    Objects.requireNonNull(version, "version");
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(readiness, "readiness");
    sources = List.copyOf(sources);
    lanes = List.copyOf(lanes);
    Objects.requireNonNull(governor, "governor");
  }

  /**
   * One source (a Pub/Sub topic, an ELF type or an event-log object).
   *
   * @param name source name, e.g. {@code pubsub:/event/LoginEventStream}
   * @param position the committed cursor (replay id, watermark), or {@code -} when none or unknown
   * @param ageSeconds age of the position in seconds, or -1 when unknown
   * @param lastPoll last poll / stream result ({@code ok}, {@code error}), or {@code -} when
   *     unknown
   * @param lastError the last error message (scrubbed), or empty
   */
  public record Source(
      String name, String position, long ageSeconds, String lastPoll, String lastError) {}

  /**
   * One pipeline lane.
   *
   * @param name lane name
   * @param depth queued batches
   * @param bytes queued bytes, or -1 when unknown
   * @param failingSince ISO-8601 instant the sink started failing, or empty
   */
  public record Lane(String name, long depth, long bytes, String failingSince) {}

  /**
   * The egress governor.
   *
   * @param paused whether pushes are paused (EGR-8)
   * @param reason the pause reason, or empty
   */
  public record Governor(boolean paused, String reason) {}
}
