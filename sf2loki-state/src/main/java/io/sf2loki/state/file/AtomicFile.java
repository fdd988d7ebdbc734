package io.sf2loki.state.file;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The durable whole-file replace shared by the file checkpoint store (STATE-4) and the file lease
 * (HA-9): write a temporary file {@code .<name>.<digits>.tmp} in the same directory, fsync it,
 * rename it atomically over the target, fsync the directory. A reader sees the old or the new
 * content, never a torn one. {@link #removeLeftovers} deletes the temporary files a writer killed
 * mid-write left behind (STATE-17).
 */
public final class AtomicFile {
  private static final Logger log = LoggerFactory.getLogger(AtomicFile.class);

  private AtomicFile() {}

  /**
   * STATE-17: deletes every {@code .<name>.<digits>.tmp} beside {@code path} — the temporary files
   * of {@link #replace} that an earlier writer left (killed between create and rename, or its
   * clean-up failed because the file system had turned read-only). Call it only while holding the
   * document's exclusive lock, so no live writer owns such a file. A file that cannot be deleted is
   * logged at WARN and left.
   *
   * @param path the target whose leftovers to delete; a missing directory has none
   * @return how many files were deleted
   */
  public static int removeLeftovers(Path path) {
    Path dir = path.toAbsolutePath().getParent();
    Pattern leftover =
        Pattern.compile("\\." + Pattern.quote(path.getFileName().toString()) + "\\.\\d+\\.tmp");
    int removed = 0;
    try (DirectoryStream<Path> files =
        Files.newDirectoryStream(
            dir, p -> leftover.matcher(p.getFileName().toString()).matches())) {
      for (Path f : files) {
        try {
          if (!Files.deleteIfExists(f)) {
            continue;
          }
          removed++;
          log.atWarn()
              .addKeyValue("file", f)
              .log("removed a temporary file an earlier write left behind");
        } catch (IOException e) {
          log.atWarn()
              .addKeyValue("file", f)
              .log(
                  "cannot remove a temporary file an earlier write left behind: " + e.getMessage());
        }
      }
    } catch (NoSuchFileException e) {
      return 0;
    } catch (IOException e) {
      log.atWarn()
          .addKeyValue("dir", dir)
          .log("cannot list the state directory for leftover temporary files: " + e.getMessage());
    }
    return removed;
  }

  /**
   * Replaces {@code path} with {@code bytes}.
   *
   * @param path the target; its parent directories are created
   * @param bytes the complete new content
   * @param mode POSIX permissions for the new file, or null to keep the temp file's default
   * @throws IOException when any step fails; the target is unchanged and the temporary file is
   *     removed (if that fails too, it is logged and left for {@link #removeLeftovers})
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
        discard(tmp);
      }
    }
  }

  /**
   * Deletes an unused temporary file. A failure (the file system turned read-only after the file
   * was created) must not hide the write's own failure: it is logged, and STATE-17 removes the file
   * when the lock is next taken.
   */
  private static void discard(Path tmp) {
    try {
      Files.deleteIfExists(tmp);
    } catch (IOException e) {
      log.atWarn()
          .addKeyValue("file", tmp)
          .log("cannot remove the temporary file of a failed write: " + e.getMessage());
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
