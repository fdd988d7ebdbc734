package io.sf2loki.state.lease;

import io.sf2loki.state.file.AtomicFile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * {@code file_lease} storage (SPEC HA-9): one file on storage every replica sees, written into a
 * temporary file in the same directory, fsynced, atomically renamed over the lease and the
 * directory fsynced. The file system offers no compare-and-swap; the verify delay of HA-10 settles
 * races.
 */
public final class FileLeaseStorage implements LeaseStorage {
  private final Path path;

  /**
   * @param path {@code coordinate.file_lease.path}
   */
  public FileLeaseStorage(Path path) {
    this.path = Objects.requireNonNull(path, "path").toAbsolutePath();
  }

  @Override
  public LeaseRead read() {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(path);
    } catch (NoSuchFileException e) {
      return LeaseRead.absent(null);
    } catch (IOException | RuntimeException e) {
      return LeaseRead.unreadable(e);
    }
    return LeaseDocument.parse(bytes)
        .map(d -> LeaseRead.present(d, null))
        .orElseGet(() -> LeaseRead.absent(null));
  }

  @Override
  public String write(byte[] body, String expectedVersion) {
    try {
      AtomicFile.replace(path, body, null);
      return null;
    } catch (IOException | RuntimeException e) {
      throw new LeaseWriteException("cannot write lease file " + path + ": " + e.getMessage(), e);
    }
  }

  @Override
  public String describe() {
    return path.toString();
  }

  @Override
  public void close() {}
}
