package io.sf2loki.app.statecmd;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * One sentence for a file the {@code state} commands cannot use (SPEC CLI-21): {@code cannot
 * <read|write> <what> <path>: <what is wrong>; <what to do>}. The cause is read from the file
 * system (a parent that is a regular file, a directory where a file belongs, a missing directory)
 * and from the exception type (permission denied); never the Java exception text alone.
 */
final class FileProblem {
  /** The daemon's uid in the image (DEP-2), which owns the state directory. */
  static final int DAEMON_UID = 10001;

  /** What the command was doing. */
  enum Access {
    READ("read"),
    WRITE("write");

    private final String verb;

    Access(String verb) {
      this.verb = verb;
    }
  }

  private FileProblem() {}

  /**
   * @param access reading or writing
   * @param what e.g. {@code "the state file"}, {@code "the import file"}
   * @param path the file the command was given
   * @param cause the failure
   * @param configKey the configuration key that names {@code path} ({@code state.file.path}), or
   *     null when the path came from the command line
   * @return the operator-facing sentence, one line
   */
  static String describe(
      Access access, String what, Path path, IOException cause, String configKey) {
    String fix = configKey == null ? "choose another path" : "fix " + configKey;
    return "cannot " + access.verb + " " + what + " " + path + ": " + problem(path, cause, fix);
  }

  private static String problem(Path path, IOException cause, String fix) {
    Path blocking = fileAmongParents(path);
    if (blocking != null) {
      return blocking + " is a file, not a directory; " + fix;
    }
    if (Files.isDirectory(path)) {
      return "it is a directory; give the path of a file (" + fix + ")";
    }
    if (cause instanceof AccessDeniedException) {
      return "permission denied; run the command as the daemon's user (uid "
          + DAEMON_UID
          + " in the image) or make the file readable and writable by it (file mode 0660,"
          + " directory mode 0770)";
    }
    if (cause instanceof NoSuchFileException) {
      Path parent = path.toAbsolutePath().getParent();
      if (parent != null && !Files.exists(parent)) {
        return "its directory " + parent + " does not exist; create it or " + fix;
      }
      return "it does not exist; check the path";
    }
    String reason =
        cause instanceof FileSystemException fse && fse.getReason() != null
            ? fse.getReason()
            : cause.getClass().getSimpleName()
                + (cause.getMessage() == null ? "" : " " + cause.getMessage());
    return reason + "; check the file and its directory (" + fix + ")";
  }

  /** The nearest existing ancestor of {@code path} that is not a directory, or null. */
  private static Path fileAmongParents(Path path) {
    for (Path p = path.toAbsolutePath().getParent(); p != null; p = p.getParent()) {
      if (Files.exists(p)) {
        return Files.isDirectory(p) ? null : p;
      }
    }
    return null;
  }
}
