package io.sf2loki.state.lease;

import io.sf2loki.state.object.ObjectBackend;
import io.sf2loki.state.object.PreconditionFailedException;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code s3_lease} / {@code gcs_lease} storage (SPEC FEAT-7, HA-16): the HA-9 document in one
 * object of the {@link ObjectBackend} the checkpoint stores use (S3 or GCS), written with a
 * conditional request guarded by the version of the preceding read: {@code If-None-Match: *} /
 * {@code ifGenerationMatch=0} when there was no object, else {@code If-Match: <etag>} / {@code
 * ifGenerationMatch=<generation>}. A refused precondition is a {@link LeaseConflictException}.
 */
public final class ObjectLeaseStorage implements LeaseStorage {
  private final ObjectBackend backend;

  /**
   * @param backend the lease object (closed by {@link #close()})
   */
  public ObjectLeaseStorage(ObjectBackend backend) {
    this.backend = Objects.requireNonNull(backend, "backend");
  }

  @Override
  public LeaseRead read() {
    Optional<ObjectBackend.Stored> stored;
    try {
      stored = backend.read();
    } catch (RuntimeException e) {
      return LeaseRead.unreadable(e);
    }
    if (stored.isEmpty()) {
      return LeaseRead.absent(null);
    }
    String version = stored.get().version();
    return LeaseDocument.parse(stored.get().body())
        .map(d -> LeaseRead.present(d, version))
        .orElseGet(() -> LeaseRead.absent(version));
  }

  @Override
  public String write(byte[] body, String expectedVersion) {
    try {
      return backend.write(body, expectedVersion);
    } catch (PreconditionFailedException e) {
      throw new LeaseConflictException(
          "lease " + backend.describe() + " changed since it was read: " + e.getMessage(), e);
    } catch (RuntimeException e) {
      throw new LeaseWriteException(
          "cannot write lease " + backend.describe() + ": " + e.getMessage(), e);
    }
  }

  @Override
  public String describe() {
    return backend.describe();
  }

  @Override
  public void close() {
    backend.close();
  }
}
