package io.sf2loki.state.object;

import io.sf2loki.core.spi.StateException;
import java.util.Optional;

/**
 * One object in an object store holding the checkpoint document, with its version token (S3 ETag,
 * GCS generation). Implementations make exactly one request per call and never retry: {@link
 * ObjectCheckpointStore} owns the STATE-9 retries and the STATE-10 resolution.
 */
public interface ObjectBackend extends AutoCloseable {
  /**
   * The stored object.
   *
   * @param body the raw bytes, read completely
   * @param version the ETag (S3, quoted as returned) or the decimal generation (GCS)
   */
  record Stored(byte[] body, String version) {}

  /**
   * Reads the object and its whole body.
   *
   * @return empty when the object does not exist (S3 {@code NoSuchKey}/404, GCS 404)
   * @throws TransientStoreException for a failure STATE-9 retries
   * @throws StateException for any other failure (access denied, missing bucket)
   */
  Optional<Stored> read();

  /**
   * One conditional write of the whole object.
   *
   * @param body the new content (compact JSON)
   * @param expectedVersion the version the caller last saw; null = create only (S3 {@code
   *     If-None-Match: *}, GCS {@code ifGenerationMatch=0})
   * @return the new version, taken from the write response
   * @throws PreconditionFailedException when the stored object is not at {@code expectedVersion}
   * @throws TransientStoreException for a failure STATE-9 retries (the outcome is unknown)
   * @throws StateException for any other failure
   */
  String write(byte[] body, String expectedVersion);

  /**
   * Deletes the object if it is still at {@code expectedVersion} (S3 {@code If-Match}, GCS {@code
   * ifGenerationMatch}); used by {@code doctor}'s probe object (SPEC DOC-2), never on the
   * checkpoint document.
   *
   * @throws PreconditionFailedException when the stored object is at another version
   * @throws StateException for any other failure
   */
  void delete(String expectedVersion);

  /** Where the object lives, e.g. {@code s3://bucket/sf2loki/state.json}; no secrets. */
  String describe();

  @Override
  void close();
}
