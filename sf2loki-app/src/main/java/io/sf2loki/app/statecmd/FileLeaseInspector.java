package io.sf2loki.app.statecmd;

import io.sf2loki.state.lease.FileLeaseStorage;
import io.sf2loki.state.lease.LeaseDocument;
import io.sf2loki.state.lease.LeaseRead;
import io.sf2loki.state.lease.LeaseStorage;
import java.util.Objects;
import java.util.Optional;

/**
 * Reads a lease through the coordinator's own {@link LeaseStorage} and its HA-9 rules ({@link
 * LeaseDocument#parse}): corrupt is absent, any other I/O error is {@link
 * UnreadableLeaseException}. Used for {@code file_lease}, {@code s3_lease} and {@code gcs_lease}.
 */
final class FileLeaseInspector implements LeaseInspector {
  private final LeaseStorage storage;

  FileLeaseInspector(java.nio.file.Path path) {
    this(new FileLeaseStorage(path));
  }

  FileLeaseInspector(LeaseStorage storage) {
    this.storage = Objects.requireNonNull(storage, "storage");
  }

  @Override
  public LeaseView read() throws UnreadableLeaseException {
    LeaseRead r = storage.read();
    String where = storage.describe();
    return switch (r.status()) {
      case ABSENT -> new LeaseView(Optional.empty(), Optional.empty(), where);
      case PRESENT ->
          new LeaseView(
              r.document().map(LeaseDocument::holder),
              r.document().map(LeaseDocument::expiresAt),
              where);
      case UNREADABLE ->
          throw new UnreadableLeaseException(
              (where.startsWith("/") ? "cannot read lease file " : "cannot read lease ")
                  + where
                  + ": "
                  + r.error().getMessage(),
              r.error());
    };
  }
}
