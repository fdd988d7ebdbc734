package io.sf2loki.state.file;

import io.sf2loki.core.spi.CheckpointStore;
import io.sf2loki.core.spi.StateCorruptException;
import io.sf2loki.core.spi.StateException;
import io.sf2loki.core.spi.StateLockException;
import io.sf2loki.core.time.Sleeper;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.Ticker;
import io.sf2loki.state.CheckpointDocument;
import io.sf2loki.state.Fencing;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Checkpoint store backed by one local JSON file (SPEC STATE-1…STATE-6, STATE-12).
 *
 * <p>The document is one flat JSON object of string keys to string values, stored verbatim (the
 * value formats of SRC-15 are opaque here). Behaviour:
 *
 * <ul>
 *   <li>STATE-1: the document is cached after the first read; every operation is serialised by one
 *       lock.
 *   <li>STATE-3: a missing file is an empty document; invalid UTF-8, invalid JSON, a non-object or
 *       a non-string value is a {@link StateCorruptException} advising to move the file aside, and
 *       the file is never overwritten.
 *   <li>STATE-4: a write serialises the whole document as compact JSON into a temporary file in the
 *       same directory, fsyncs it, atomically renames it over the target and fsyncs the directory;
 *       missing parent directories are created.
 *   <li>STATE-5: an exclusive OS lock on the sidecar {@code <path>.lock} (created with mode 0644).
 *       In {@link LockMode#PROCESS} (coordinate.type=noop) it is taken without waiting on first
 *       access and held until {@link #close()}; a lock held elsewhere is a {@link
 *       StateLockException}. In {@link LockMode#TERM} (lease coordinators) the caller takes it at
 *       term start with {@link #lockAwait} and releases it with {@link #unlock()}; commits without
 *       it fail. {@link LockMode#NONE} never locks (read-only {@code state show}, CLI-9). STATE-17:
 *       taking the lock deletes the temporary files an earlier writer left behind.
 *   <li>STATE-6: before each write the on-disk file (size, modification time, SHA-256 content
 *       digest) is compared with what this store last read or wrote; if it changed, the commit is
 *       applied on top of the freshly read document, so external edits to other keys survive.
 *   <li>STATE-7: with {@link Fencing} installed each write runs the leadership check, fails with
 *       {@code StateFenceException} when the on-disk {@code __fence_epoch__} exceeds the caller's
 *       epoch, and stores the caller's epoch; without it an existing epoch is preserved untouched;
 *       STATE-12: it is hidden from {@link #load} and {@link #snapshot} and callers may not set or
 *       remove it.
 * </ul>
 */
public final class FileCheckpointStore implements CheckpointStore {
  /** The reserved key of STATE-7 / STATE-12. */
  public static final String FENCE_EPOCH_KEY = CheckpointDocument.FENCE_EPOCH_KEY;

  private static final Set<PosixFilePermission> MODE_0644 =
      PosixFilePermissions.fromString("rw-r--r--");

  private final Path path;
  private final Path lockPath;
  private final LockMode lockMode;
  private final ReentrantLock mutex = new ReentrantLock();

  // guarded by mutex
  private Map<String, String> cache;
  private Fingerprint fingerprint;
  private FileChannel lockChannel;
  private FileLock fileLock;
  private boolean closed;
  private volatile Fencing fencing;

  /** How the sidecar lock of STATE-5 is taken. */
  public enum LockMode {
    /** Taken on first access, held until {@link #close()} ({@code coordinate.type=noop}). */
    PROCESS,
    /**
     * Taken per leadership term with {@link #lockAwait} and released with {@link #unlock()} (lease
     * coordinators); reads work without it, writes require it.
     */
    TERM,
    /** Never taken: read-only callers ({@code state show}); do not commit through such a store. */
    NONE
  }

  /** Default pause between two lock attempts of {@link #lockAwait}. */
  public static final Duration DEFAULT_LOCK_RETRY = Duration.ofMillis(100);

  /**
   * A store in {@link LockMode#PROCESS} (the daemon under {@code noop} and the writing {@code
   * state} commands, STATE-5).
   *
   * @param path the checkpoint document, e.g. {@code /var/lib/sf2loki/state.json}
   */
  public FileCheckpointStore(Path path) {
    this(path, LockMode.PROCESS);
  }

  /**
   * @param path the checkpoint document
   * @param lockMode how the sidecar lock is taken (STATE-5)
   */
  public FileCheckpointStore(Path path, LockMode lockMode) {
    this.path = Objects.requireNonNull(path, "path").toAbsolutePath();
    this.lockPath = this.path.resolveSibling(this.path.getFileName() + ".lock");
    this.lockMode = Objects.requireNonNull(lockMode, "lockMode");
  }

  /**
   * Installs (or, with null, removes) a lease coordinator's fence hook and epoch (STATE-7, HA-7).
   */
  public void fencing(Fencing f) {
    this.fencing = f;
  }

  /**
   * HA-8: drops the cache and reads the stored {@code __fence_epoch__} fresh from disk (no lock
   * needed).
   *
   * @return the stored epoch, 0 when absent or not an integer
   * @throws StateCorruptException when the document is corrupt
   * @throws StateException when the file cannot be read
   */
  public long freshFenceEpoch() {
    mutex.lock();
    try {
      ensureOpen();
      Snapshot s = readDisk();
      cache = s.document();
      fingerprint = s.fingerprint();
      return CheckpointDocument.fenceEpoch(cache).orElse(0);
    } finally {
      mutex.unlock();
    }
  }

  /** The checkpoint document path (absolute). */
  public Path path() {
    return path;
  }

  /** The sidecar lock path {@code <path>.lock} (STATE-5). */
  public Path lockPath() {
    return lockPath;
  }

  /**
   * Takes the sidecar lock now if it is not yet held (it is otherwise taken on first access).
   *
   * @throws StateLockException when another process (or another store in this JVM) holds it
   * @throws StateException when the lock file cannot be created or opened
   */
  public void lock() {
    mutex.lock();
    try {
      ensureOpen();
      ensureLocked();
    } finally {
      mutex.unlock();
    }
  }

  /**
   * STATE-5 under a lease coordinator: waits, stop-aware, for the sidecar lock, retrying every
   * {@code retry} (the previous leader may still be letting go of it).
   *
   * @param maxWait how long to wait, SPEC: {@code shutdown_grace} + 5 s
   * @param retry pause between attempts, e.g. {@link #DEFAULT_LOCK_RETRY}
   * @param stop the term's stop signal
   * @param ticker monotonic clock measuring {@code maxWait}
   * @param sleeper stop-aware sleeper used between attempts
   * @return true when the lock is held (also if it already was); false when {@code stop} fired
   * @throws StateLockException when the lock is still held elsewhere after {@code maxWait}
   * @throws InterruptedException when the thread is interrupted while waiting
   */
  public boolean lockAwait(
      Duration maxWait, Duration retry, StopSignal stop, Ticker ticker, Sleeper sleeper)
      throws InterruptedException {
    long deadline = ticker.nanoTime() + maxWait.toNanos();
    while (true) {
      StateLockException last;
      mutex.lock();
      try {
        ensureOpen();
        ensureLocked();
        return true;
      } catch (StateLockException e) {
        last = e;
      } finally {
        mutex.unlock();
      }
      long remaining = deadline - ticker.nanoTime();
      if (remaining <= 0) {
        throw last;
      }
      if (stop.isStopped()
          || !sleeper.sleep(Duration.ofNanos(Math.min(remaining, retry.toNanos())), stop)) {
        return false;
      }
    }
  }

  /**
   * Releases the sidecar lock at the end of a term or on leadership loss (STATE-5, HA-4) and drops
   * the cache; the store stays usable for a later term. No-op when the lock is not held.
   */
  public void unlock() {
    mutex.lock();
    try {
      cache = null;
      fingerprint = null;
      releaseLock();
    } finally {
      mutex.unlock();
    }
  }

  /** Whether this store currently holds the sidecar lock. */
  public boolean isLocked() {
    mutex.lock();
    try {
      return fileLock != null;
    } finally {
      mutex.unlock();
    }
  }

  @Override
  public Optional<String> load(String key) {
    Objects.requireNonNull(key, "key");
    mutex.lock();
    try {
      ensureReady();
      if (FENCE_EPOCH_KEY.equals(key)) {
        return Optional.empty();
      }
      return Optional.ofNullable(cache.get(key));
    } finally {
      mutex.unlock();
    }
  }

  @Override
  public void commitMany(Map<String, String> values, Set<String> keysToRemove) {
    CheckpointDocument.checkCommit(values, keysToRemove);
    mutex.lock();
    try {
      ensureReady();
      if (lockMode == LockMode.TERM && fileLock == null) {
        throw new StateException(
            "state file " + path + " is not locked for this term; refusing to write");
      }
      Map<String, String> base = refreshIfChangedOnDisk();
      Map<String, String> next = CheckpointDocument.merge(base, values, keysToRemove);
      Fencing f = fencing;
      if (f != null) {
        f.stamp(base, next, "file " + path); // STATE-7: base is the document on disk now
      }
      if (next.equals(base)) {
        cache = next;
        return; // nothing changes: no write (STATE-2 delete of a missing key)
      }
      write(next);
    } finally {
      mutex.unlock();
    }
  }

  /**
   * HA-26: stamps the installed fencing's epoch into {@code __fence_epoch__} on disk now (a write
   * only when it changes), vetoed as any commit by STATE-7.
   *
   * @throws IllegalStateException when no fencing is installed
   * @throws io.sf2loki.core.spi.StateFenceException when the file already carries this epoch or a
   *     greater one (another replica claimed it; the term lock makes read and write one step)
   */
  public void claimEpoch() {
    Fencing f = fencing;
    if (f == null) {
      throw new IllegalStateException("claimEpoch needs a lease coordinator's fencing");
    }
    mutex.lock();
    try {
      f.requireUnclaimed(freshFenceEpoch(), "file " + path);
      commitMany(Map.of(), Set.of());
    } finally {
      mutex.unlock();
    }
  }

  @Override
  public void delete(String key) {
    commitMany(Map.of(), Set.of(key));
  }

  @Override
  public Map<String, String> snapshot() {
    mutex.lock();
    try {
      ensureReady();
      return CheckpointDocument.visible(cache);
    } finally {
      mutex.unlock();
    }
  }

  @Override
  public void reset() {
    mutex.lock();
    try {
      cache = null;
      fingerprint = null;
    } finally {
      mutex.unlock();
    }
  }

  /** Releases the sidecar lock and drops the cache; idempotent. Later operations fail. */
  @Override
  public void close() {
    mutex.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      cache = null;
      fingerprint = null;
      releaseLock();
    } finally {
      mutex.unlock();
    }
  }

  private void releaseLock() {
    try {
      if (fileLock != null) {
        fileLock.release();
      }
      if (lockChannel != null) {
        lockChannel.close();
      }
    } catch (IOException e) {
      throw new StateException("cannot release state lock " + lockPath + ": " + e.getMessage(), e);
    } finally {
      fileLock = null;
      lockChannel = null;
    }
  }

  // ---- internals (all called with mutex held) ----

  private void ensureOpen() {
    if (closed) {
      throw new StateException("state store " + path + " is closed");
    }
  }

  private void ensureReady() {
    ensureOpen();
    if (lockMode == LockMode.PROCESS) {
      ensureLocked();
    }
    if (cache == null) {
      Snapshot s = readDisk();
      cache = s.document();
      fingerprint = s.fingerprint();
    }
  }

  private void ensureLocked() {
    if (fileLock != null) {
      return;
    }
    FileChannel channel = null;
    try {
      Files.createDirectories(lockPath.getParent());
      createLockFile();
      channel = FileChannel.open(lockPath, StandardOpenOption.WRITE);
      FileLock l;
      try {
        l = channel.tryLock();
      } catch (OverlappingFileLockException e) {
        throw lockHeld(e);
      }
      if (l == null) {
        throw lockHeld(null);
      }
      lockChannel = channel;
      fileLock = l;
      channel = null;
      AtomicFile.removeLeftovers(path); // STATE-17: no live writer owns one now
      // whatever was cached before (e.g. HA-8's fresh epoch read ahead of a lock wait) may predate
      // the previous holder's last commits: the first read under the lock goes to disk
      cache = null;
      fingerprint = null;
    } catch (IOException e) {
      throw new StateException("cannot open state lock " + lockPath + ": " + e.getMessage(), e);
    } finally {
      if (channel != null) {
        try {
          channel.close();
        } catch (IOException ignored) {
          // best effort: the lock was not taken
        }
      }
    }
  }

  private StateLockException lockHeld(Throwable cause) {
    return new StateLockException(
        "state file "
            + path
            + " is locked by another process (another instance running?); lock file "
            + lockPath,
        cause);
  }

  private void createLockFile() throws IOException {
    try {
      Files.createFile(lockPath);
    } catch (FileAlreadyExistsException e) {
      return;
    }
    try {
      Files.setPosixFilePermissions(lockPath, MODE_0644);
    } catch (UnsupportedOperationException e) {
      // non-POSIX file system: the default permissions apply
    }
  }

  private Snapshot readDisk() {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(path);
    } catch (NoSuchFileException e) {
      return new Snapshot(new LinkedHashMap<>(), Fingerprint.ABSENT);
    } catch (IOException e) {
      throw new StateException("cannot read state file " + path + ": " + e.getMessage(), e);
    }
    Map<String, String> doc = parse(bytes);
    return new Snapshot(doc, fingerprintOf(bytes));
  }

  private Map<String, String> parse(byte[] bytes) {
    return CheckpointDocument.parse(bytes, this::corrupt);
  }

  private StateCorruptException corrupt(String what, Throwable cause) {
    return new StateCorruptException(
        "state file "
            + path
            + " "
            + what
            + "; move it aside (e.g. rename it to "
            + path.getFileName()
            + ".corrupt) to reset all checkpoints",
        cause);
  }

  /** STATE-6: returns the document a commit must apply on top of. */
  private Map<String, String> refreshIfChangedOnDisk() {
    Fingerprint current = statDisk();
    if (current.sameFileAs(fingerprint)) {
      return cache;
    }
    Snapshot s = readDisk();
    if (s.fingerprint().equals(fingerprint)) {
      return cache;
    }
    cache = s.document();
    fingerprint = s.fingerprint();
    return cache;
  }

  /** Size and modification time, plus the digest when those match the known fingerprint. */
  private Fingerprint statDisk() {
    try {
      if (!Files.exists(path)) {
        return Fingerprint.ABSENT;
      }
      long size = Files.size(path);
      long mtime = Files.getLastModifiedTime(path).toMillis();
      if (fingerprint == null
          || !fingerprint.exists()
          || size != fingerprint.size()
          || mtime != fingerprint.mtimeMillis()) {
        return new Fingerprint(true, size, mtime, null);
      }
      return fingerprintOf(Files.readAllBytes(path));
    } catch (NoSuchFileException e) {
      return Fingerprint.ABSENT;
    } catch (IOException e) {
      throw new StateException("cannot inspect state file " + path + ": " + e.getMessage(), e);
    }
  }

  private void write(Map<String, String> next) {
    byte[] bytes = CheckpointDocument.serialise(next);
    try {
      AtomicFile.replace(path, bytes, currentMode());
    } catch (IOException e) {
      throw new StateException("cannot write state file " + path + ": " + e.getMessage(), e);
    }
    cache = next;
    fingerprint = fingerprintAfterWrite(bytes);
  }

  /** The mode to keep: the existing file's, else 0644; null on a non-POSIX file system. */
  private Set<PosixFilePermission> currentMode() throws IOException {
    try {
      return Files.exists(path) ? Files.getPosixFilePermissions(path) : MODE_0644;
    } catch (UnsupportedOperationException e) {
      return null;
    }
  }

  private Fingerprint fingerprintAfterWrite(byte[] bytes) {
    try {
      long mtime = Files.getLastModifiedTime(path).toMillis();
      return new Fingerprint(true, bytes.length, mtime, sha256(bytes));
    } catch (IOException e) {
      throw new StateException("cannot inspect state file " + path + ": " + e.getMessage(), e);
    }
  }

  private Fingerprint fingerprintOf(byte[] bytes) {
    try {
      long mtime = Files.getLastModifiedTime(path).toMillis();
      return new Fingerprint(true, bytes.length, mtime, sha256(bytes));
    } catch (NoSuchFileException e) {
      return Fingerprint.ABSENT;
    } catch (IOException e) {
      throw new StateException("cannot inspect state file " + path + ": " + e.getMessage(), e);
    }
  }

  private static String sha256(byte[] bytes) {
    try {
      return java.util.HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 unavailable", e);
    }
  }

  private record Snapshot(Map<String, String> document, Fingerprint fingerprint) {}

  /** What this store last saw on disk (STATE-6). {@code digest} null = not computed. */
  private record Fingerprint(boolean exists, long size, long mtimeMillis, String digest) {
    static final Fingerprint ABSENT = new Fingerprint(false, 0, 0, null);

    boolean sameFileAs(Fingerprint known) {
      if (known == null) {
        return false;
      }
      if (!exists) {
        return !known.exists;
      }
      return known.exists
          && size == known.size
          && mtimeMillis == known.mtimeMillis
          && digest != null
          && digest.equals(known.digest);
    }
  }
}
