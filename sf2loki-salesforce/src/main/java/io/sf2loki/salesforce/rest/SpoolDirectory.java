package io.sf2loki.salesforce.rest;

import io.sf2loki.core.status.Redaction;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Objects;
import java.util.function.LongPredicate;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The per-process spool directory of ELF-16: {@code <parent>/sf2loki-spool-<pid>}, created on first
 * use and deleted (with its content) by {@link #close()}. {@link #deleteStale()} removes the
 * directories of processes that are no longer running. Failure logs mask credential-looking parts
 * of the error (SPEC OBS-34). Thread-safe.
 */
public final class SpoolDirectory implements AutoCloseable {
  /** Directory name prefix; the suffix is the owning process id. */
  public static final String PREFIX = "sf2loki-spool-";

  private static final Logger log = LoggerFactory.getLogger(SpoolDirectory.class);
  private static final Redaction REDACTION = Redaction.patternsOnly();

  /** Deletes a directory tree; a seam for tests. */
  @FunctionalInterface
  interface TreeDeleter {
    void delete(Path root) throws IOException;
  }

  private final Path parent;
  private final long pid;
  private final LongPredicate isAlive;
  private final Path directory;
  private final TreeDeleter deleter;

  /**
   * @param parent the temporary directory that holds spool directories
   * @param pid this process's id
   * @param isAlive whether a process id belongs to a running process
   */
  public SpoolDirectory(Path parent, long pid, LongPredicate isAlive) {
    this(parent, pid, isAlive, SpoolDirectory::deleteTree);
  }

  SpoolDirectory(Path parent, long pid, LongPredicate isAlive, TreeDeleter deleter) {
    this.parent = Objects.requireNonNull(parent, "parent");
    this.pid = pid;
    this.isAlive = Objects.requireNonNull(isAlive, "isAlive");
    this.directory = parent.resolve(PREFIX + pid);
    this.deleter = Objects.requireNonNull(deleter, "deleter");
  }

  /**
   * The directory of the current process under {@code java.io.tmpdir}, with liveness checked by
   * {@link ProcessHandle#of(long)}.
   */
  public static SpoolDirectory forCurrentProcess() {
    return new SpoolDirectory(
        Path.of(System.getProperty("java.io.tmpdir")),
        ProcessHandle.current().pid(),
        p -> ProcessHandle.of(p).map(ProcessHandle::isAlive).orElse(false));
  }

  /** {@code <parent>/sf2loki-spool-<pid>} (may not exist yet). */
  public Path directory() {
    return directory;
  }

  /**
   * Creates a new empty spool file in the directory (creating the directory when needed).
   *
   * @throws IOException when the directory or file cannot be created
   */
  public Path newFile() throws IOException {
    Files.createDirectories(directory);
    return Files.createTempFile(directory, "body-", ".spool");
  }

  /**
   * Startup cleanup (ELF-16): deletes every {@code sf2loki-spool-<pid>} directory under the parent
   * whose pid is not this process and not running. Failures are logged and skipped.
   *
   * @return the number of directories deleted
   */
  public int deleteStale() {
    int deleted = 0;
    if (!Files.isDirectory(parent)) {
      return 0;
    }
    try (DirectoryStream<Path> ds = Files.newDirectoryStream(parent, PREFIX + "*")) {
      for (Path p : ds) {
        String suffix = p.getFileName().toString().substring(PREFIX.length());
        long other;
        try {
          other = Long.parseLong(suffix);
        } catch (NumberFormatException e) {
          continue;
        }
        if (other == pid || isAlive.test(other) || !Files.isDirectory(p)) {
          continue;
        }
        try {
          deleter.delete(p);
          deleted++;
          log.atInfo().addKeyValue("path", p).log("deleted stale spool directory");
        } catch (IOException | UncheckedIOException e) {
          log.atWarn()
              .addKeyValue("path", p)
              .addKeyValue("error", REDACTION.forLog(e.toString()))
              .log("cannot delete stale spool directory");
        }
      }
    } catch (IOException e) {
      log.atWarn()
          .addKeyValue("path", parent)
          .addKeyValue("error", REDACTION.forLog(e.toString()))
          .log("cannot list spool directories");
    }
    return deleted;
  }

  /** Deletes this process's directory and its content; idempotent. */
  @Override
  public void close() {
    try {
      deleter.delete(directory);
    } catch (IOException | UncheckedIOException e) {
      log.atWarn()
          .addKeyValue("path", directory)
          .addKeyValue("error", REDACTION.forLog(e.toString()))
          .log("cannot delete spool directory");
    }
  }

  private static void deleteTree(Path root) throws IOException {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(root)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
