package io.sf2loki.salesforce.rest;

import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Collects a body: in memory up to {@code memoryThresholdBytes}, then in a file of the spool
 * directory (ELF-8, ELF-16). Not thread-safe; {@link #finish()} or {@link #abort()} ends it.
 */
final class SpoolWriter extends OutputStream {
  private final SpoolDirectory directory;
  private final long memoryThresholdBytes;
  private ByteArrayOutputStream memory = new ByteArrayOutputStream();
  private Path file;
  private OutputStream fileOut;
  private long size;

  SpoolWriter(SpoolDirectory directory, long memoryThresholdBytes) {
    this.directory = directory;
    this.memoryThresholdBytes = memoryThresholdBytes;
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    if (fileOut == null && size + len > memoryThresholdBytes) {
      file = directory.newFile();
      fileOut = new BufferedOutputStream(Files.newOutputStream(file), 64 * 1024);
      memory.writeTo(fileOut);
      memory = null;
    }
    if (fileOut != null) {
      fileOut.write(b, off, len);
    } else {
      memory.write(b, off, len);
    }
    size += len;
  }

  /** Bytes written so far. */
  long size() {
    return size;
  }

  /** Completes the body. */
  Spool finish() throws IOException {
    if (fileOut != null) {
      try {
        fileOut.close();
      } catch (IOException e) {
        abort();
        throw e;
      }
      return new FileSpool(file, size);
    }
    byte[] bytes = memory.toByteArray();
    return new MemorySpool(bytes);
  }

  /** Drops the body and its file, if any. */
  void abort() {
    if (fileOut != null) {
      try {
        fileOut.close();
      } catch (IOException e) {
        // ignored: the file is deleted next
      }
    }
    if (file != null) {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        // best effort
      }
    }
    memory = null;
  }

  @Override
  public void close() {
    // finish() or abort() end the writer
  }
}
