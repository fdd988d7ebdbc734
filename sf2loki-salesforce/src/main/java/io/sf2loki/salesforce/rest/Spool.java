package io.sf2loki.salesforce.rest;

import java.io.IOException;
import java.io.InputStream;

/**
 * A fully received response body (ELF-8): kept in memory up to a threshold (8 MiB by default), then
 * in a temporary file in the per-process spool directory, deleted on {@link #close()}.
 */
public interface Spool extends AutoCloseable {
  /** Body size in bytes (after gzip decoding, ELF-16). */
  long sizeBytes();

  /** A fresh stream over the whole body; the caller closes it. */
  InputStream open() throws IOException;

  /** Deletes the temporary file, if any. Idempotent. */
  @Override
  void close();
}
