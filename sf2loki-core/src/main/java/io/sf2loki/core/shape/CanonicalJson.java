package io.sf2loki.core.shape;

/**
 * Byte-exact canonical JSON of SPEC SRC-7 (identical to sf2loki 1.x's {@code json.dumps(value,
 * sort_keys=True, default=str)}).
 *
 * <p>Accepted value types: {@code Map<String,?>} (keys sorted by Unicode code point), {@code
 * List<?>}/arrays, {@code CharSequence}, {@code Integer/Long/Short/Byte/BigInteger} (plain
 * decimal), {@code Double/Float} (shortest round-trip, Python repr rules), {@code Boolean}, {@code
 * null}; anything else is rendered as the JSON string of its text form ({@link TextForm}).
 */
public final class CanonicalJson {
  private CanonicalJson() {}

  /** Renders {@code value} as canonical JSON. */
  public static String write(Object value) {
    StringBuilder sb = new StringBuilder();
    write(value, sb);
    return sb.toString();
  }

  /** Appends the canonical JSON of {@code value} to {@code out}. */
  public static void write(Object value, StringBuilder out) {
    throw new UnsupportedOperationException("TODO(shaping helper)");
  }
}
