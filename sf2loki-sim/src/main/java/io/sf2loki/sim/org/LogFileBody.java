package io.sf2loki.sim.org;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;

/**
 * The CSV content of one simulated EventLogFile. Implementations may produce the bytes on the fly
 * (see {@link io.sf2loki.sim.elf.GeneratedLogFile}) so very large files are never held in memory.
 */
public interface LogFileBody {
  /** Body size in bytes (the {@code LogFileLength} field); may be computed lazily. */
  long length();

  /** Opens a fresh stream over the whole body; the caller closes it. */
  InputStream open() throws IOException;

  /** Whether {@link #length()} is cheap (known without a pass over the body). */
  default boolean lengthKnown() {
    return true;
  }

  /** A body backed by a byte array (not copied; the caller must not modify it afterwards). */
  static LogFileBody of(byte[] bytes) {
    return new LogFileBody() {
      @Override
      public long length() {
        return bytes.length;
      }

      @Override
      public InputStream open() {
        return new ByteArrayInputStream(bytes);
      }
    };
  }
}
