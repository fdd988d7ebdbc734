package io.sf2loki.salesforce.rest;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/** A body spilled to a temporary file (ELF-8); {@link #close()} deletes the file. */
final class FileSpool implements Spool {
  private final Path file;
  private final long size;

  FileSpool(Path file, long size) {
    this.file = file;
    this.size = size;
  }

  /** The backing file (for tests). */
  Path file() {
    return file;
  }

  @Override
  public long sizeBytes() {
    return size;
  }

  @Override
  public InputStream open() throws IOException {
    return new BufferedInputStream(Files.newInputStream(file), 64 * 1024);
  }

  @Override
  public void close() {
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // best effort: the directory is removed on shutdown and by the next startup's cleanup
    }
  }
}
