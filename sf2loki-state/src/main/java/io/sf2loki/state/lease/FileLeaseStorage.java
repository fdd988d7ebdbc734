package io.sf2loki.state.lease;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
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
    Path dir = path.getParent();
    Path tmp = null;
    try {
      Files.createDirectories(dir);
      tmp = Files.createTempFile(dir, "." + path.getFileName() + ".", ".tmp");
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
        ByteBuffer buf = ByteBuffer.wrap(body);
        while (buf.hasRemaining()) {
          ch.write(buf);
        }
        ch.force(true);
      }
      Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      tmp = null;
      fsyncDirectory(dir);
      return null;
    } catch (IOException | RuntimeException e) {
      throw new LeaseWriteException("cannot write lease file " + path + ": " + e.getMessage(), e);
    } finally {
      if (tmp != null) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
          // best effort after a failed write
        }
      }
    }
  }

  private static void fsyncDirectory(Path dir) throws IOException {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (UnsupportedOperationException e) {
      // a platform that cannot open directories: the rename itself is atomic
    }
  }

  @Override
  public String describe() {
    return path.toString();
  }

  @Override
  public void close() {}
}
