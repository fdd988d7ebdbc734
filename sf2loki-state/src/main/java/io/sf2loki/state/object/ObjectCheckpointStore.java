package io.sf2loki.state.object;

import io.sf2loki.core.spi.CheckpointStore;
import io.sf2loki.core.spi.StateConflictException;
import io.sf2loki.core.spi.StateCorruptException;
import io.sf2loki.core.spi.StateException;
import io.sf2loki.state.CheckpointDocument;
import io.sf2loki.state.Fencing;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checkpoint store on one object of an object store (S3, GCS) with optimistic concurrency on its
 * version token (SPEC STATE-1, STATE-2, STATE-7…STATE-13).
 *
 * <ul>
 *   <li>STATE-1: the document is cached after the first read with its version; all operations are
 *       serialised by one lock.
 *   <li>STATE-8/11: a missing object is an empty document without version; a body that is not a
 *       JSON object of strings is {@link StateCorruptException} and is never overwritten (the store
 *       refuses every later write until {@link #reset()}). Writes are conditional on the cached
 *       version (create-only when none); a refusal is {@link StateConflictException}, never retried
 *       blindly.
 *   <li>STATE-9: reads and writes failing with {@link TransientStoreException} are retried per
 *       {@link StoreRetry}.
 *   <li>STATE-10: a refusal after an attempt with an unknown outcome reads the object once; when it
 *       holds exactly the bytes being written the write succeeded and its version is adopted.
 *   <li>STATE-7: with {@link Fencing} installed each write runs the leadership check, fails with
 *       {@link StateFenceException} when the cached {@code __fence_epoch__} exceeds the caller's
 *       epoch, and stores the caller's epoch; without it an existing epoch is preserved.
 *   <li>STATE-13: without fencing ({@code noop}) a conflict re-reads once and, when the stored
 *       epoch is unchanged, re-applies the commit on top; a conflict on the re-applied write, on
 *       the next commit after a conflicted one, or a changed epoch is fatal ({@link
 *       StateConflictException} with the SPEC message). With fencing a conflict drops the cache and
 *       is rethrown (HA-5).
 * </ul>
 */
public final class ObjectCheckpointStore implements CheckpointStore {
  private static final Logger log = LoggerFactory.getLogger(ObjectCheckpointStore.class);

  /** The STATE-13 message, verbatim. */
  public static final String SECOND_WRITER =
      "another writer modified the state object; is a second instance running without"
          + " coordination?";

  private final ObjectBackend backend;
  private final StoreRetry retry;
  private final ReentrantLock mutex = new ReentrantLock();

  // guarded by mutex
  private Map<String, String> cache;
  private String version;
  private boolean previousCommitConflicted;
  private byte[] unresolvedWrite; // STATE-10: the last write whose outcome stayed unknown
  private boolean closed;
  private volatile Fencing fencing;

  /**
   * @param backend the object (closed by {@link #close()})
   * @param retry the STATE-9 policy
   */
  public ObjectCheckpointStore(ObjectBackend backend, StoreRetry retry) {
    this.backend = Objects.requireNonNull(backend, "backend");
    this.retry = Objects.requireNonNull(retry, "retry");
  }

  /** Where the document lives, e.g. {@code s3://bucket/key}. */
  public String describe() {
    return backend.describe();
  }

  /**
   * Installs (or, with null, removes) the lease coordinator's fence hook and epoch (HA-7).
   *
   * @param f the coordinator's fencing, or null for {@code noop}
   */
  public void fencing(Fencing f) {
    this.fencing = f;
  }

  /**
   * HA-8: drops the cache and reads the stored {@code __fence_epoch__} fresh (with the STATE-9
   * retries).
   *
   * @return the stored epoch, 0 when absent or not an integer
   * @throws io.sf2loki.core.spi.StateCorruptException when the document is corrupt
   * @throws StateException when the object cannot be read
   */
  public long freshFenceEpoch() {
    mutex.lock();
    try {
      if (closed) {
        throw new StateException("state store " + backend.describe() + " is closed");
      }
      dropCache();
      previousCommitConflicted = false;
      readFresh();
      return CheckpointDocument.fenceEpoch(cache).orElse(0);
    } finally {
      mutex.unlock();
    }
  }

  /** The cached version token (ETag / generation), or empty when none is known (tests, doctor). */
  public Optional<String> version() {
    mutex.lock();
    try {
      return Optional.ofNullable(version);
    } finally {
      mutex.unlock();
    }
  }

  @Override
  public Optional<String> load(String key) {
    Objects.requireNonNull(key, "key");
    mutex.lock();
    try {
      ensureLoaded();
      if (CheckpointDocument.FENCE_EPOCH_KEY.equals(key)) {
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
      ensureLoaded();
      Fencing f = fencing;
      Map<String, String> next = fenced(CheckpointDocument.merge(cache, values, keysToRemove), f);
      if (next.equals(cache)) {
        return;
      }
      try {
        put(next);
        previousCommitConflicted = false;
      } catch (StateConflictException e) {
        if (f != null) {
          dropCache();
          throw e; // HA-5: the coordinator demotes
        }
        reapplyAfterConflict(values, keysToRemove, e);
      }
    } finally {
      mutex.unlock();
    }
  }

  /**
   * HA-26: reads the object fresh and writes the installed fencing's epoch into {@code
   * __fence_epoch__} (conditional on the version just read; a write only when it changes).
   *
   * @throws IllegalStateException when no fencing is installed
   * @throws io.sf2loki.core.spi.StateFenceException when the object already carries this epoch or a
   *     greater one (another replica claimed it)
   * @throws StateConflictException when the object changed between the read and the write (412)
   */
  public void claimEpoch() {
    Fencing f = fencing;
    if (f == null) {
      throw new IllegalStateException("claimEpoch needs a lease coordinator's fencing");
    }
    mutex.lock();
    try {
      f.requireUnclaimed(freshFenceEpoch(), "object " + backend.describe());
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
      ensureLoaded();
      return CheckpointDocument.visible(cache);
    } finally {
      mutex.unlock();
    }
  }

  @Override
  public void reset() {
    mutex.lock();
    try {
      dropCache();
      previousCommitConflicted = false;
    } finally {
      mutex.unlock();
    }
  }

  @Override
  public void close() {
    mutex.lock();
    try {
      if (closed) {
        return;
      }
      closed = true;
      dropCache();
      backend.close();
    } finally {
      mutex.unlock();
    }
  }

  // ---- internals (mutex held) ----

  private void dropCache() {
    cache = null;
    version = null;
    unresolvedWrite = null;
  }

  private void ensureLoaded() {
    if (closed) {
      throw new StateException("state store " + backend.describe() + " is closed");
    }
    if (cache == null) {
      readFresh();
    }
  }

  /** Replaces cache and version with what is stored now (STATE-8, STATE-11). */
  private void readFresh() {
    Optional<ObjectBackend.Stored> stored = readWithRetry();
    if (stored.isEmpty()) {
      cache = new LinkedHashMap<>();
      version = null;
      return;
    }
    cache = CheckpointDocument.parse(stored.get().body(), this::corrupt);
    version = stored.get().version();
  }

  private Optional<ObjectBackend.Stored> readWithRetry() {
    for (int attempt = 1; ; attempt++) {
      try {
        return backend.read();
      } catch (TransientStoreException e) {
        retryOrGiveUp("read", attempt, e);
      }
    }
  }

  /** STATE-7: applies the caller's epoch, or vetoes the write. */
  private Map<String, String> fenced(Map<String, String> next, Fencing f) {
    if (f != null) {
      f.stamp(cache, next, "object " + backend.describe());
    }
    return next;
  }

  /** One durable conditional write with STATE-9 retries and STATE-10 resolution. */
  private void put(Map<String, String> next) {
    byte[] body = CheckpointDocument.serialise(next);
    boolean outcomeUnknown = false;
    for (int attempt = 1; ; attempt++) {
      try {
        version = backend.write(body, version);
        cache = next;
        unresolvedWrite = null;
        return;
      } catch (PreconditionFailedException e) {
        if (outcomeUnknown && resolvedAsOurs(body, next)) {
          return;
        }
        if (!adoptedEarlierWrite()) {
          throw e;
        }
      } catch (TransientStoreException e) {
        outcomeUnknown = true;
        if (attempt >= retry.maxAttempts()) {
          unresolvedWrite = body;
        }
        retryOrGiveUp("write", attempt, e);
      }
    }
  }

  /** STATE-9: waits before the next attempt, or gives up after the last one. */
  private void retryOrGiveUp(String op, int attempt, TransientStoreException e) {
    if (attempt >= retry.maxAttempts()) {
      throw new StateException(
          "cannot "
              + op
              + " state object "
              + backend.describe()
              + " after "
              + attempt
              + " attempts: "
              + e.getMessage(),
          e);
    }
    log.atWarn()
        .addKeyValue("object", backend.describe())
        .addKeyValue("attempt", attempt)
        .log("state object " + op + " failed, retrying: " + e.getMessage());
    retry.pause(attempt);
  }

  /**
   * STATE-10 across commits: an earlier commit gave up with an unknown outcome; if that write did
   * land, its version is adopted so this commit (which carries its values too) retries on it.
   */
  private boolean adoptedEarlierWrite() {
    byte[] earlier = unresolvedWrite;
    unresolvedWrite = null;
    if (earlier == null) {
      return false;
    }
    Optional<ObjectBackend.Stored> now = readWithRetry();
    if (now.isEmpty() || !Arrays.equals(now.get().body(), earlier)) {
      return false;
    }
    log.atInfo()
        .addKeyValue("object", backend.describe())
        .log("the previous checkpoint write had landed after all; adopting its version");
    version = now.get().version();
    return true;
  }

  /** STATE-10: whether an earlier attempt of this write did land. */
  private boolean resolvedAsOurs(byte[] body, Map<String, String> next) {
    Optional<ObjectBackend.Stored> now = readWithRetry();
    if (now.isPresent() && Arrays.equals(now.get().body(), body)) {
      log.atInfo()
          .addKeyValue("object", backend.describe())
          .log("an earlier attempt of this checkpoint write had landed; adopting its version");
      version = now.get().version();
      cache = next;
      return true;
    }
    return false;
  }

  /** STATE-13 under {@code noop}. */
  private void reapplyAfterConflict(
      Map<String, String> values, Set<String> keysToRemove, StateConflictException first) {
    if (previousCommitConflicted) {
      throw secondWriter(first);
    }
    String epochBefore = cache.get(CheckpointDocument.FENCE_EPOCH_KEY);
    readFresh();
    if (!Objects.equals(epochBefore, cache.get(CheckpointDocument.FENCE_EPOCH_KEY))) {
      throw secondWriter(first);
    }
    log.atWarn()
        .addKeyValue("object", backend.describe())
        .log("state object changed since it was read; re-applying the commit on top of it");
    previousCommitConflicted = true;
    Map<String, String> next = CheckpointDocument.merge(cache, values, keysToRemove);
    if (next.equals(cache)) {
      return;
    }
    try {
      put(next);
    } catch (StateConflictException again) {
      throw secondWriter(again);
    }
  }

  private StateConflictException secondWriter(StateConflictException cause) {
    dropCache();
    log.atError().addKeyValue("object", backend.describe()).log(SECOND_WRITER);
    return new StateConflictException(SECOND_WRITER + " (" + backend.describe() + ")", cause);
  }

  private StateCorruptException corrupt(String what, Throwable cause) {
    return new StateCorruptException(
        "state object "
            + backend.describe()
            + " "
            + what
            + "; move it aside (copy it elsewhere, then delete it) to reset all checkpoints",
        cause);
  }
}
