package io.sf2loki.core.shape;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Timestamp parsing of SPEC SRC-11. */
public final class TimestampParser {
  private TimestampParser() {}

  /**
   * Parses one value: numbers are epoch milliseconds; strings ISO-8601 (extended or basic; {@code
   * Z}, {@code ±HH:MM}, {@code ±HHMM} or none = UTC; any fraction; date alone = midnight), then the
   * ELF compact form {@code yyyyMMddHHmmss[.SSS]}; booleans and everything else never parse.
   *
   * @return the instant, or empty when the value does not parse
   */
  public static Optional<Instant> parse(Object value) {
    throw new UnsupportedOperationException("TODO(shaping helper)");
  }

  /** Tries {@code fields} of {@code payload} in order; the first value that parses wins. */
  public static Optional<Instant> firstParsed(Map<String, ?> payload, List<String> fields) {
    for (String f : fields) {
      Optional<Instant> t = parse(payload.get(f));
      if (t.isPresent()) {
        return t;
      }
    }
    return Optional.empty();
  }
}
