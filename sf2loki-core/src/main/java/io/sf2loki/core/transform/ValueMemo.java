package io.sf2loki.core.transform;

import java.util.function.UnaryOperator;

/**
 * A small per-thread memo of a pure string function (SPEC XF-15): the result of a {@code
 * regex_replace} rule for a value seen recently on this thread is reused instead of being
 * recomputed. The fields this rule usually targets (URIs, user names) repeat across the rows of a
 * file, and a lookup costs one hash and one comparison of the value, far less than a regex scan (a
 * miss costs about one SHA-256 block, which is why {@code hash} has no memo). The result is always
 * what the function returns for the value (it is deterministic and its output depends on the value
 * alone), so a memo changes only the cost.
 *
 * <p>Direct-mapped: {@value #SLOTS} slots per thread and rule, a new value replaces the slot's old
 * one. Values longer than {@value #MAX_LENGTH} chars are not kept (bounded memory: at most {@value
 * #SLOTS} × 2 strings of that length per thread and rule). Thread-safe: each thread has its own
 * table.
 */
final class ValueMemo {
  /** Slots per thread (a power of two). */
  static final int SLOTS = 256;

  /** Longest value (in chars) that is memoised. */
  static final int MAX_LENGTH = 256;

  private static final int SHIFT = 32 - Integer.numberOfTrailingZeros(SLOTS);

  private final UnaryOperator<String> function;
  private final ThreadLocal<String[]> table = ThreadLocal.withInitial(() -> new String[2 * SLOTS]);

  /**
   * @param function a deterministic function of its argument alone (no other state)
   */
  ValueMemo(UnaryOperator<String> function) {
    this.function = function;
  }

  /** {@code function.apply(value)}, from this thread's memo when {@code value} is in it. */
  String apply(String value) {
    if (value.length() > MAX_LENGTH) {
      return function.apply(value);
    }
    String[] t = table.get();
    int slot = ((value.hashCode() * 0x9E3779B9) >>> SHIFT) << 1;
    if (value.equals(t[slot])) {
      return t[slot + 1];
    }
    String out = function.apply(value);
    t[slot] = value;
    t[slot + 1] = out;
    return out;
  }
}
