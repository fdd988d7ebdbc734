package io.sf2loki.state.lease;

import java.util.Optional;

/**
 * One read of the lease (SPEC HA-9).
 *
 * @param status what was found
 * @param document the parsed lease when {@code status} is {@link Status#PRESENT}
 * @param version the stored object's version token (S3 ETag, GCS generation) to guard the next
 *     write with, also for a corrupt document; null when no object exists or the back end has no
 *     versions (file)
 * @param error the read failure when {@link Status#UNREADABLE}, else null
 */
public record LeaseRead(
    Status status, Optional<LeaseDocument> document, String version, Exception error) {

  /** HA-9 outcome of a read. */
  public enum Status {
    /** No lease, or a corrupt one: claimable. */
    ABSENT,
    /** A well-formed lease (live or expired). */
    PRESENT,
    /** An I/O error other than "not found": never contested (HA-10). */
    UNREADABLE
  }

  /** No document (or a corrupt one stored at {@code version}). */
  public static LeaseRead absent(String version) {
    return new LeaseRead(Status.ABSENT, Optional.empty(), version, null);
  }

  /** A parsed document stored at {@code version}. */
  public static LeaseRead present(LeaseDocument d, String version) {
    return new LeaseRead(Status.PRESENT, Optional.of(d), version, null);
  }

  /** A read that failed with {@code error}. */
  public static LeaseRead unreadable(Exception error) {
    return new LeaseRead(Status.UNREADABLE, Optional.empty(), null, error);
  }

  /** Whether this is the lease of {@code holder} at {@code epoch}. */
  public boolean ownedBy(String holder, long epoch) {
    return document.filter(d -> d.holder().equals(holder) && d.epoch() == epoch).isPresent();
  }
}
