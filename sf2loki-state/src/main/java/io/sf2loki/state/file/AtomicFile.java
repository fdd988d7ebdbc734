package io.sf2loki.state.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;

/**
 * The durable whole-file replace shared by the file checkpoint store (STATE-3) and the file lease
 * (HA-9): write a temporary file in the same directory, fsync it, rename it atomically over the
 * target, fsync the directory. A reader sees the old or the new content, never a torn one.
 */
public final class AtomicFile {
  private AtomicFile() {}

  /**
   * Replaces {@code path} with {@code bytes}.
   *
   * @param path the target; its parent directories are created
   * @param bytes the complete new content
   * @param mode POSIX permissions for the new file, or null to keep the temp file's default
   * @throws IOException when any step fails; the temporary file is removed and the target is
   *     unchanged
   */
  public static void replace(Path path, byte[] bytes, Set<PosixFilePermission> mode)
      throws IOException {
    Path dir = path.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    Path tmp = Files.createTempFile(dir, "." + path.getFileName() + ".", ".tmp");
    boolean moved = false;
    try {
      if (mode != null) {
        try {
          Files.setPosixFilePermissions(tmp, mode);
        } catch (UnsupportedOperationException e) {
          // a non-POSIX file system
        }
      }
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE)) {
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        while (buf.hasRemaining()) {
          ch.write(buf);
        }
        ch.force(true);
      }
      Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      moved = true;
      fsyncDirectory(dir);
    } finally {
      if (!moved) {
        Files.deleteIfExists(tmp);
      }
    }
  }

  private static void fsyncDirectory(Path dir) {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException | UnsupportedOperationException e) {
      // a platform that cannot open directories: the rename itself is atomic
    }
  }
}
