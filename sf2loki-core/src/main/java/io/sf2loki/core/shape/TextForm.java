package io.sf2loki.core.shape;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.Collection;
import java.util.Map;

/**
 * The text form of a value (SPEC SRC-8): what hash/regex transforms, {@code drop_row} globs and
 * metadata values see.
 *
 * <ul>
 *   <li>strings (any {@code CharSequence}, {@code Character}) as-is;
 *   <li>booleans {@code True}/{@code False};
 *   <li>integers ({@code Integer/Long/Short/Byte/BigInteger}) in decimal;
 *   <li>{@code Double}/{@code Float} as in SRC-7, but non-finite as {@code nan}, {@code inf},
 *       {@code -inf};
 *   <li>{@code BigDecimal} exactly as {@link BigDecimal#toString()};
 *   <li>{@code Instant} as {@code YYYY-MM-DD HH:MM:SS[.ffffff]+00:00} (microseconds, truncated; the
 *       fraction only when non-zero); {@code OffsetDateTime}/{@code ZonedDateTime} likewise with
 *       their own offset, {@code LocalDateTime}/{@code LocalDate}/{@code LocalTime} as Python's
 *       {@code str} of the matching naive type;
 *   <li>{@code byte[]} and {@code ByteBuffer} (its remaining bytes) as a Python bytes literal
 *       ({@code b'a\x00'}, {@code b"it's"});
 *   <li>maps, collections and arrays as their canonical JSON ({@link CanonicalJson});
 *   <li>anything else as {@code toString()}.
 * </ul>
 *
 * Stateless and thread-safe.
 */
public final class TextForm {
  private TextForm() {}

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  /**
   * @param value any decoded payload value
   * @return its text form, or null when {@code value} is null (absent)
   */
  public static String of(Object value) {
    if (value == null) {
      return null;
    }
    if (value instanceof String s) {
      return s;
    }
    if (value instanceof Boolean b) {
      return b ? "True" : "False";
    }
    if (value instanceof Integer
        || value instanceof Long
        || value instanceof Short
        || value instanceof Byte
        || value instanceof BigInteger) {
      return value.toString();
    }
    if (value instanceof Double || value instanceof Float) {
      return ofDouble(((Number) value).doubleValue());
    }
    if (value instanceof CharSequence || value instanceof Character) {
      return value.toString();
    }
    if (value instanceof BigDecimal bd) {
      return bd.toString();
    }
    if (value instanceof Instant i) {
      return dateTime(i.atOffset(ZoneOffset.UTC).toLocalDateTime(), "+00:00");
    }
    if (value instanceof OffsetDateTime o) {
      return dateTime(o.toLocalDateTime(), offset(o.getOffset()));
    }
    if (value instanceof ZonedDateTime z) {
      return dateTime(z.toLocalDateTime(), offset(z.getOffset()));
    }
    if (value instanceof LocalDateTime ldt) {
      return dateTime(ldt, "");
    }
    if (value instanceof LocalDate ld) {
      StringBuilder sb = new StringBuilder(10);
      appendDate(ld, sb);
      return sb.toString();
    }
    if (value instanceof LocalTime lt) {
      StringBuilder sb = new StringBuilder(15);
      appendTime(lt, sb);
      return sb.toString();
    }
    if (value instanceof byte[] bytes) {
      return bytesLiteral(bytes, 0, bytes.length);
    }
    if (value instanceof ByteBuffer bb) {
      ByteBuffer d = bb.duplicate();
      byte[] bytes = new byte[d.remaining()];
      d.get(bytes);
      return bytesLiteral(bytes, 0, bytes.length);
    }
    if (value instanceof Map<?, ?>
        || value instanceof Collection<?>
        || value.getClass().isArray()) {
      return CanonicalJson.write(value);
    }
    return value.toString();
  }

  /** Text form of a double: Python {@code str(float)}. */
  static String ofDouble(double d) {
    if (Double.isNaN(d)) {
      return "nan";
    }
    if (Double.isInfinite(d)) {
      return d > 0 ? "inf" : "-inf";
    }
    StringBuilder sb = new StringBuilder(24);
    PyFloat.appendFinite(d, sb);
    return sb.toString();
  }

  private static String offset(ZoneOffset off) {
    int total = off.getTotalSeconds();
    StringBuilder sb = new StringBuilder(9);
    sb.append(total < 0 ? '-' : '+');
    int a = Math.abs(total);
    two(a / 3600, sb);
    sb.append(':');
    two((a / 60) % 60, sb);
    if (a % 60 != 0) {
      sb.append(':');
      two(a % 60, sb);
    }
    return sb.toString();
  }

  private static String dateTime(LocalDateTime ldt, String offset) {
    StringBuilder sb = new StringBuilder(32);
    appendDate(ldt.toLocalDate(), sb);
    sb.append(' ');
    appendTime(ldt.toLocalTime(), sb);
    sb.append(offset);
    return sb.toString();
  }

  private static void appendDate(LocalDate d, StringBuilder sb) {
    int y = d.getYear();
    if (y >= 0 && y < 1000) {
      sb.append(y < 10 ? "000" : y < 100 ? "00" : "0");
    }
    sb.append(y).append('-');
    two(d.getMonthValue(), sb);
    sb.append('-');
    two(d.getDayOfMonth(), sb);
  }

  private static void appendTime(LocalTime t, StringBuilder sb) {
    two(t.getHour(), sb);
    sb.append(':');
    two(t.getMinute(), sb);
    sb.append(':');
    two(t.getSecond(), sb);
    int micros = t.getNano() / 1000;
    if (micros != 0) {
      sb.append('.');
      String m = Integer.toString(micros);
      for (int i = m.length(); i < 6; i++) {
        sb.append('0');
      }
      sb.append(m);
    }
  }

  private static void two(int v, StringBuilder sb) {
    if (v < 10) {
      sb.append('0');
    }
    sb.append(v);
  }

  /** Python {@code repr(bytes)} of {@code b[off, off+len)} (SRC-8). */
  static String bytesLiteral(byte[] b, int off, int len) {
    boolean hasSingle = false;
    boolean hasDouble = false;
    for (int i = off; i < off + len; i++) {
      if (b[i] == '\'') {
        hasSingle = true;
      } else if (b[i] == '"') {
        hasDouble = true;
      }
    }
    char quote = hasSingle && !hasDouble ? '"' : '\'';
    StringBuilder sb = new StringBuilder(len + 3);
    sb.append('b').append(quote);
    for (int i = off; i < off + len; i++) {
      int c = b[i] & 0xFF;
      if (c == quote || c == '\\') {
        sb.append('\\').append((char) c);
      } else if (c == '\t') {
        sb.append("\\t");
      } else if (c == '\n') {
        sb.append("\\n");
      } else if (c == '\r') {
        sb.append("\\r");
      } else if (c < 0x20 || c >= 0x7F) {
        sb.append("\\x").append(HEX[c >> 4]).append(HEX[c & 0xF]);
      } else {
        sb.append((char) c);
      }
    }
    sb.append(quote);
    return sb.toString();
  }
}
