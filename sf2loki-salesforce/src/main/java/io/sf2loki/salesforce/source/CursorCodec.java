package io.sf2loki.salesforce.source;

import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * How a source's cursor is stored as a checkpoint value (SPEC SRC-2, SRC-15): {@link #encode} gives
 * the value carried by entries' {@code CheckpointToken}s, {@link #decode} reads a stored value
 * back.
 *
 * @param <C> the cursor type
 */
public interface CursorCodec<C> {
  /**
   * @param value a stored checkpoint value
   * @return the cursor, or empty when the value is unusable (the caller falls back, SRC-12)
   */
  Optional<C> decode(String value);

  /** The checkpoint value of {@code cursor}. */
  String encode(C cursor);

  /**
   * A stored value read for a start (SRC-12).
   *
   * @param cursor the cursor to continue from
   * @param usable false when the value was unusable: the loader logs WARN and counts it
   */
  record Decoded<C>(C cursor, boolean usable) {}

  /**
   * Reads {@code value} for a start: the decoded cursor, or {@code fresh} marked unusable. A codec
   * that can salvage part of an unusable value (APX-2 keeps valid ids) overrides this.
   */
  default Decoded<C> decodeOr(String value, C fresh) {
    return decode(value)
        .map(c -> new Decoded<>(c, true))
        .orElseGet(() -> new Decoded<>(fresh, false));
  }

  /** A codec from two functions. */
  static <C> CursorCodec<C> of(Function<String, Optional<C>> decode, Function<C, String> encode) {
    Objects.requireNonNull(decode, "decode");
    Objects.requireNonNull(encode, "encode");
    return new CursorCodec<>() {
      @Override
      public Optional<C> decode(String value) {
        return decode.apply(value);
      }

      @Override
      public String encode(C cursor) {
        return encode.apply(cursor);
      }
    };
  }
}
