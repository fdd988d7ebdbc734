package io.sf2loki.app.doctor;

import io.sf2loki.app.config.CoordinateConfig;
import io.sf2loki.app.config.StateConfig;
import io.sf2loki.app.run.Components;
import io.sf2loki.app.statecmd.LeaseInspector;
import io.sf2loki.core.spi.StateException;
import io.sf2loki.state.CheckpointDocument;
import io.sf2loki.state.file.FileCheckpointStore;
import io.sf2loki.state.object.ObjectBackend;
import io.sf2loki.state.object.PreconditionFailedException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.Optional;

/**
 * DOC-2 rows 10 ({@code state}) and 11 ({@code coordinator}). Nothing is written to the real
 * checkpoint document or lease (DOC-3): writes go to probe files/objects beside them.
 */
final class StoreChecks {
  /** The probe beside the state file, and the suffix of the probe object. */
  static final String STATE_PROBE = ".sf2loki-doctor-probe";

  /** The probe beside the lease file. */
  static final String COORDINATOR_PROBE = ".sf2loki-doctor-coordinator-probe";

  private static final String PERMISSION_HINT =
      " — hint: the daemon runs as uid 10001 and needs to create files there (directory owned by"
          + " it, mode 0770)";

  private StoreChecks() {}

  /** Row 10 *(c)*. */
  static Check state(StateConfig c) {
    return c.store() == StateConfig.Store.FILE ? fileState(c.file().path()) : objectState(c);
  }

  private static Check fileState(Path path) {
    String found;
    int keys;
    try (FileCheckpointStore s = new FileCheckpointStore(path, FileCheckpointStore.LockMode.NONE)) {
      keys = s.snapshot().size();
      found = Files.exists(path) ? keys + " checkpoint(s) in " + path : path + " will be created";
    } catch (StateException e) {
      return Check.fail("state", e.getMessage());
    }
    Optional<String> probe = writeProbe(path.toAbsolutePath().getParent().resolve(STATE_PROBE));
    if (probe.isPresent()) {
      return Check.fail("state", probe.get() + PERMISSION_HINT);
    }
    Path lock = path.toAbsolutePath().resolveSibling(path.getFileName() + ".lock");
    if (lockHeld(lock)) {
      return Check.warn("state", found + "; daemon running (lock " + lock + " is held)");
    }
    return Check.pass("state", found + "; directory writable");
  }

  /** Whether another process holds the STATE-5 sidecar lock; never creates the lock file. */
  private static boolean lockHeld(Path lock) {
    if (!Files.exists(lock)) {
      return false;
    }
    try (FileChannel ch = FileChannel.open(lock, StandardOpenOption.WRITE)) {
      FileLock l = ch.tryLock();
      if (l == null) {
        return true;
      }
      l.release();
      return false;
    } catch (OverlappingFileLockException e) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  /** Create, write, fsync and delete {@code probe}; the failure, if any. */
  static Optional<String> writeProbe(Path probe) {
    try {
      Files.createDirectories(probe.getParent());
      try (FileChannel ch =
          FileChannel.open(
              probe,
              StandardOpenOption.CREATE,
              StandardOpenOption.WRITE,
              StandardOpenOption.TRUNCATE_EXISTING)) {
        ch.write(ByteBuffer.wrap("sf2loki doctor probe\n".getBytes(StandardCharsets.UTF_8)));
        ch.force(true);
      }
      Files.delete(probe);
      return Optional.empty();
    } catch (IOException | SecurityException e) {
      return Optional.of("cannot write " + probe + ": " + e);
    }
  }

  private static Check objectState(StateConfig c) {
    String where = Components.describe(c);
    int keys;
    try (ObjectBackend real = Components.objectBackend(c)) {
      Optional<ObjectBackend.Stored> stored = real.read();
      keys =
          stored.isEmpty()
              ? -1
              : CheckpointDocument.visible(
                      CheckpointDocument.parse(
                          stored.get().body(),
                          (what, cause) ->
                              new io.sf2loki.core.spi.StateCorruptException(
                                  "state object " + where + " " + what, cause)))
                  .size();
    } catch (StateException e) {
      return Check.fail("state", e.getMessage());
    }
    String found = keys < 0 ? where + " will be created" : keys + " checkpoint(s) in " + where;
    try (ObjectBackend probe = Components.objectBackend(probeConfig(c))) {
      byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
      // a probe left behind by an interrupted earlier run is overwritten at its version
      String v1 = probe.write(body, probe.read().map(ObjectBackend.Stored::version).orElse(null));
      String v2 = probe.write("{\"probe\":\"2\"}".getBytes(StandardCharsets.UTF_8), v1);
      boolean stale;
      try {
        probe.write(body, v1); // v1 is stale now: the store must refuse (STATE-8, STATE-11)
        stale = true;
      } catch (PreconditionFailedException expected) {
        stale = false;
      }
      probe.delete(stale ? null : v2);
      if (stale) {
        return Check.fail(
            "state",
            "store ignores conditional writes (a write with a stale version succeeded on "
                + probe.describe()
                + "): fencing and conflict detection would be silently off");
      }
    } catch (PreconditionFailedException e) {
      return Check.fail(
          "state",
          found + "; probe object already exists or changed during the check: " + e.getMessage());
    } catch (StateException e) {
      return Check.fail("state", found + "; probe write failed: " + e.getMessage());
    }
    return Check.pass("state", found + "; conditional writes enforced");
  }

  /** The same store aimed at {@code <key>.sf2loki-doctor-probe}. */
  private static StateConfig probeConfig(StateConfig c) {
    return switch (c.store()) {
      case S3 ->
          new StateConfig(
              c.store(),
              c.file(),
              c.s3().withKey(c.s3().key() + STATE_PROBE),
              c.gcs(),
              c.minWriteInterval());
      case GCS ->
          new StateConfig(
              c.store(),
              c.file(),
              c.s3(),
              c.gcs().withObjectName(c.gcs().objectName() + STATE_PROBE),
              c.minWriteInterval());
      case FILE -> c;
    };
  }

  /** Row 11 *(c)*: read the lease (holder, expiry); probe-write beside a file lease. */
  static Check coordinator(CoordinateConfig c, Instant now) {
    Optional<LeaseInspector> inspector = LeaseInspector.of(c);
    if (inspector.isEmpty()) {
      return Check.skip("coordinator", "coordinate.type=noop");
    }
    LeaseInspector.LeaseView v;
    try {
      v = inspector.get().read();
    } catch (LeaseInspector.UnreadableLeaseException e) {
      return Check.fail("coordinator", e.getMessage());
    }
    String seen =
        v.holder().isEmpty()
            ? "lease " + v.where() + " is free"
            : "lease "
                + v.where()
                + " held by "
                + v.holder().get()
                + (v.heldAt(now) ? " until " : ", expired at ")
                + v.expiresAt().orElseThrow();
    if (c.type() == CoordinateConfig.Type.FILE_LEASE) {
      Path probe = c.fileLease().path().toAbsolutePath().resolveSibling(COORDINATOR_PROBE);
      Optional<String> failed = writeProbe(probe);
      if (failed.isPresent()) {
        return Check.fail("coordinator", seen + "; " + failed.get() + PERMISSION_HINT);
      }
    }
    return Check.pass("coordinator", seen);
  }
}
