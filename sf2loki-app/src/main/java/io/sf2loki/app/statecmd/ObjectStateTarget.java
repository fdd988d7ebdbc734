package io.sf2loki.app.statecmd;

import io.sf2loki.core.spi.StateCorruptException;
import io.sf2loki.state.CheckpointDocument;
import io.sf2loki.state.object.ObjectBackend;
import io.sf2loki.state.object.PreconditionFailedException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * An s3/gcs store's object (STATE-8, STATE-11) read once and written once, conditionally on the
 * version read (S3 {@code If-Match}/{@code If-None-Match: *}, GCS {@code ifGenerationMatch}). A
 * refused write is the CLI-9 race, never re-applied: the operator re-runs the command. {@code
 * __fence_epoch__} is carried over from the object read.
 */
final class ObjectStateTarget implements StateTarget {
  private final ObjectBackend backend;

  ObjectStateTarget(ObjectBackend backend) {
    this.backend = Objects.requireNonNull(backend, "backend");
  }

  private record Read(Map<String, String> doc, String version) {}

  private Read read() {
    Optional<ObjectBackend.Stored> stored = backend.read();
    if (stored.isEmpty()) {
      return new Read(new LinkedHashMap<>(), null);
    }
    return new Read(
        CheckpointDocument.parse(stored.get().body(), this::corrupt), stored.get().version());
  }

  @Override
  public Map<String, String> show() {
    return CheckpointDocument.visible(read().doc());
  }

  @Override
  public Map<String, String> edit(UnaryOperator<Map<String, String>> edit) {
    Read r = read();
    Map<String, String> before = CheckpointDocument.visible(r.doc());
    Map<String, String> after = edit.apply(new LinkedHashMap<>(before));
    Map<String, String> next = new LinkedHashMap<>();
    String epoch = r.doc().get(CheckpointDocument.FENCE_EPOCH_KEY);
    if (epoch != null) {
      next.put(CheckpointDocument.FENCE_EPOCH_KEY, epoch); // STATE-12: preserved verbatim
    }
    next.putAll(after);
    if (next.equals(r.doc())) {
      return before;
    }
    try {
      backend.write(CheckpointDocument.serialise(next), r.version());
    } catch (PreconditionFailedException e) {
      throw new StateRefusedException(StateRefusedException.RACED, e);
    }
    return before;
  }

  private StateCorruptException corrupt(String what, Throwable cause) {
    return new StateCorruptException("state object " + backend.describe() + " " + what, cause);
  }

  @Override
  public String describe() {
    return backend.describe();
  }

  @Override
  public void close() {
    backend.close();
  }
}
