package io.sf2loki.state.lease;

/**
 * Where the lease document of SPEC HA-9 lives: one file (written by temp file + rename + directory
 * fsync) or one object (written with a conditional request, FEAT-7). Implementations make one
 * attempt per call and never retry; the {@link LeaseCoordinator} owns the HA-10/HA-11 timing.
 */
public interface LeaseStorage extends AutoCloseable {
  /**
   * Reads the lease; never throws for a missing, corrupt or unreadable lease.
   *
   * @return absent (missing or corrupt), present, or unreadable (any other I/O failure)
   */
  LeaseRead read();

  /**
   * Writes the whole document.
   *
   * @param body the serialised {@link LeaseDocument}
   * @param expectedVersion the version of the read this write follows ({@link
   *     LeaseRead#version()}); null = the object must not exist. Ignored by the file back end.
   * @return the new version token, or null for the file back end
   * @throws LeaseConflictException when a conditional write is refused (the lease changed since the
   *     read)
   * @throws LeaseWriteException for any other failure
   */
  String write(byte[] body, String expectedVersion);

  /** Where the lease lives, e.g. a path, {@code s3://bucket/key}; no secrets. */
  String describe();

  @Override
  void close();
}
