package io.sf2loki.app.statecmd;

import io.sf2loki.core.spi.StateCorruptException;
import io.sf2loki.core.spi.StateException;
import io.sf2loki.core.spi.StateLockException;
import io.sf2loki.state.file.FileCheckpointStore;
import io.sf2loki.state.file.FileCheckpointStore.LockMode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The file store (STATE-3…STATE-6) through {@link FileCheckpointStore}: reads never lock; writes
 * take the sidecar lock without waiting, so a running daemon's lock refuses them (CLI-9) unless
 * {@code force}. The store preserves {@code __fence_epoch__} (no fencing installed). A file-system
 * failure surfaces as {@link StateFileException} (CLI-21).
 */
final class FileStateTarget implements StateTarget {
  private final Path path;
  private final boolean force;

  FileStateTarget(Path path, boolean force) {
    this.path = Objects.requireNonNull(path, "path");
    this.force = force;
  }

  @Override
  public Map<String, String> show() {
    try (FileCheckpointStore s = new FileCheckpointStore(path, LockMode.NONE)) {
      return s.snapshot();
    } catch (StateException e) {
      throw fileProblem(FileProblem.Access.READ, e);
    }
  }

  @Override
  public Map<String, String> edit(UnaryOperator<Map<String, String>> edit) {
    Path parent = path.toAbsolutePath().getParent();
    if (parent != null && !java.nio.file.Files.exists(parent)) { // CLI-21: never create it
      throw new StateFileException(
          FileProblem.describe(
              FileProblem.Access.WRITE,
              "the state file",
              path,
              new java.nio.file.NoSuchFileException(path.toString()),
              "state.file.path"),
          null);
    }
    try {
      return doEdit(edit);
    } catch (StateException e) {
      throw fileProblem(FileProblem.Access.WRITE, e);
    }
  }

  /**
   * CLI-21: a file-system failure (not a corrupt document, a held lock or a conflict) becomes a
   * {@link StateFileException} naming the file, the problem and the fix; anything else as is.
   */
  private RuntimeException fileProblem(FileProblem.Access access, StateException e) {
    if (e instanceof StateCorruptException
        || e instanceof StateLockException
        || !(e.getCause() instanceof IOException io)
        || io instanceof com.fasterxml.jackson.core.JsonProcessingException) {
      return e;
    }
    return new StateFileException(
        FileProblem.describe(access, "the state file", path, io, "state.file.path"), e);
  }

  private Map<String, String> doEdit(UnaryOperator<Map<String, String>> edit) {
    try (FileCheckpointStore s =
        new FileCheckpointStore(path, force ? LockMode.NONE : LockMode.PROCESS)) {
      if (!force) {
        try {
          s.lock();
        } catch (StateLockException e) {
          throw new StateRefusedException(
              "refusing to write: the state file's lock "
                  + s.lockPath()
                  + " is held (a daemon is running); "
                  + StateRefusedException.STOP_OR_FORCE,
              e);
        }
      }
      Map<String, String> before = s.snapshot();
      Map<String, String> after = edit.apply(new LinkedHashMap<>(before));
      Map<String, String> values = new LinkedHashMap<>();
      after.forEach(
          (k, v) -> {
            if (!v.equals(before.get(k))) {
              values.put(k, v);
            }
          });
      Set<String> removed = new HashSet<>(before.keySet());
      removed.removeAll(after.keySet());
      if (!values.isEmpty() || !removed.isEmpty()) {
        s.commitMany(values, removed);
      }
      return before;
    }
  }

  @Override
  public String describe() {
    return path.toAbsolutePath().toString();
  }

  @Override
  public void close() {}
}
