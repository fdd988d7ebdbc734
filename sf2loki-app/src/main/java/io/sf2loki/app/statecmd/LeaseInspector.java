package io.sf2loki.app.statecmd;

import io.sf2loki.app.config.CoordinateConfig;
import io.sf2loki.state.gcs.GcsAuth;
import io.sf2loki.state.gcs.GcsBackend;
import io.sf2loki.state.gcs.GcsStoreSettings;
import io.sf2loki.state.lease.ObjectLeaseStorage;
import io.sf2loki.state.s3.S3Backend;
import java.io.IOException;
import java.time.Instant;
import java.util.Optional;

/**
 * Reads a lease coordinator's lease without taking it (SPEC CLI-9, DOC-2 row 11, DOC-3: nothing is
 * written). One implementation per lease back end; {@link #of(CoordinateConfig)} picks it, so a new
 * back end is one class plus one {@code case}.
 */
public interface LeaseInspector {
  /**
   * What the lease says now.
   *
   * @param holder the holder identity, empty when the lease is absent (claimable)
   * @param expiresAt when the holder's claim runs out, empty when absent
   * @param where the lease's place, e.g. the file path (no secrets)
   */
  record LeaseView(Optional<String> holder, Optional<Instant> expiresAt, String where) {
    /** CLI-9: a holder whose claim has not run out at {@code now}. */
    public boolean heldAt(Instant now) {
      return holder.isPresent() && expiresAt.isPresent() && expiresAt.get().isAfter(now);
    }
  }

  /** The lease could not be read (CLI-9: refuses; DOC-2: FAIL). */
  final class UnreadableLeaseException extends IOException {
    public UnreadableLeaseException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /**
   * Reads the lease.
   *
   * @throws UnreadableLeaseException when it cannot be read
   */
  LeaseView read() throws UnreadableLeaseException;

  /**
   * The inspector of the configured coordinator.
   *
   * @return empty for {@code noop} (no lease)
   */
  static Optional<LeaseInspector> of(CoordinateConfig c) {
    return switch (c.type()) {
      case NOOP -> Optional.empty();
      case FILE_LEASE -> Optional.of(new FileLeaseInspector(c.fileLease().path()));
      case S3_LEASE ->
          Optional.of(
              new FileLeaseInspector(new ObjectLeaseStorage(new S3Backend(c.s3Lease().object()))));
      case GCS_LEASE -> {
        GcsStoreSettings g = c.gcsLease().object();
        yield Optional.of(
            new FileLeaseInspector(new ObjectLeaseStorage(new GcsBackend(g, GcsAuth.of(g)))));
      }
      case K8S_LEASE -> Optional.of(new K8sLeaseInspector(c.k8sLease()));
    };
  }
}
