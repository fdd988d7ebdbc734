package io.sf2loki.salesforce.source;

import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;

/**
 * The one cursor load of the polling sources (SPEC SRC-2, SRC-12, ELF-4, OBJ-2, APX-2): reads a
 * stored checkpoint value through a {@link CursorCodec}; absent → the fresh cursor; unusable → what
 * the codec salvages (usually the fresh cursor), a WARN with {@code source, key, since} and one
 * {@code sf2loki_checkpoint_load_errors_total{source}}. Thread-safe when the reader is.
 *
 * @param cursors stored checkpoints, read-only
 * @param metrics the instance's metrics
 */
public record StoredCursors(CursorReader cursors, Sf2lokiMetrics metrics) {
  public StoredCursors {
    Objects.requireNonNull(cursors, "cursors");
    Objects.requireNonNull(metrics, "metrics");
  }

  /**
   * Loads one cursor.
   *
   * @param log the source's logger
   * @param source the {@code source} label
   * @param key the checkpoint key
   * @param codec reads the stored value
   * @param fresh the cursor to start from without a usable stored value
   * @param since the {@code since} logged for an unusable value (where {@code fresh} starts)
   * @param unusableMessage the WARN's message
   */
  public <C> C load(
      Logger log,
      String source,
      String key,
      CursorCodec<C> codec,
      C fresh,
      String since,
      String unusableMessage) {
    Optional<String> stored = cursors.load(key);
    if (stored.isEmpty()) {
      return fresh;
    }
    CursorCodec.Decoded<C> decoded = codec.decodeOr(stored.get(), fresh);
    if (decoded.usable()) {
      return decoded.cursor();
    }
    log.atWarn()
        .addKeyValue("source", source)
        .addKeyValue("key", key)
        .addKeyValue("since", since)
        .log(unusableMessage);
    metrics.checkpointLoadErrors.add(1, Attributes.of(Sf2lokiMetrics.SOURCE, source));
    return decoded.cursor();
  }
}
