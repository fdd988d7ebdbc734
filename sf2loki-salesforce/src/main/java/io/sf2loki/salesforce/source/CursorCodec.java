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
