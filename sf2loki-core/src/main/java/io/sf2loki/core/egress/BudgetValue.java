package io.sf2loki.core.egress;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.Comparator;
import java.util.Objects;
import java.util.Optional;

/**
 * The value of the {@code egress:budget} checkpoint (SPEC SRC-15): bytes pushed on one UTC day.
 *
 * <p>Written as {@code {"date": "YYYY-MM-DD", "bytes": N}} in exactly this key order. Read from any
 * valid JSON object that has a string {@code date} (ISO {@code YYYY-MM-DD}) and a non-negative
 * integral number {@code bytes}; other members are ignored and a repeated member's last occurrence
 * counts. Anything else is corrupt ({@link #parse} returns empty).
 *
 * <p>Ordering: values captured by one governor only grow in {@code (date, bytes)} order (the day
 * never moves backward and the count only grows within a day), so {@link #ORDER} orders captures by
 * capture time; a committer that merges two pending captures out of arrival order can keep the
 * {@link #later} one (EGR-6: "a later capture always wins").
 *
 * @param date the UTC day the count belongs to
 * @param bytes UTF-8 line bytes pushed on {@code date}, ≥ 0
 */
public record BudgetValue(LocalDate date, long bytes) {
  /** Orders by date, then bytes: the capture order of one governor. */
  public static final Comparator<BudgetValue> ORDER =
      Comparator.comparing(BudgetValue::date).thenComparingLong(BudgetValue::bytes);

  public BudgetValue {
    Objects.requireNonNull(date, "date");
    if (bytes < 0) {
      throw new IllegalArgumentException("bytes must be >= 0");
    }
  }

  /** The SRC-15 rendering, e.g. {@code {"date": "2026-11-29", "bytes": 1024}}. */
  public String toJson() {
    return "{\"date\": \"" + date + "\", \"bytes\": " + bytes + "}";
  }

  /**
   * Parses a stored value.
   *
   * @param json the stored string
   * @return the value, or empty when {@code json} is not a JSON object with a valid {@code date}
   *     and {@code bytes} (EGR-2: the caller counts a corrupt value as 0)
   */
  public static Optional<BudgetValue> parse(String json) {
    if (json == null) {
      return Optional.empty();
    }
    try {
      return Optional.ofNullable(new Reader(json).readTopLevel());
    } catch (IllegalArgumentException | DateTimeParseException | ArithmeticException e) {
      return Optional.empty();
    }
  }

  /**
   * The later of two stored strings of the {@code egress:budget} key under {@link #ORDER}; a
   * corrupt string loses to a valid one, and {@code b} wins a tie.
   */
  public static String later(String a, String b) {
    Optional<BudgetValue> va = parse(a);
    Optional<BudgetValue> vb = parse(b);
    if (va.isEmpty()) {
      return b;
    }
    if (vb.isEmpty()) {
      return a;
    }
    return ORDER.compare(va.get(), vb.get()) > 0 ? a : b;
  }

  /**
   * A minimal reader for one JSON object (RFC 8259 grammar): it extracts the top-level {@code date}
   * and {@code bytes} members and skips every other value. Throws IllegalArgumentException on any
   * syntax error.
   */
  private static final class Reader {
    private final String s;
    private int i;

    Reader(String s) {
      this.s = s;
    }

    BudgetValue readTopLevel() {
      ws();
      expect('{');
      String date = null;
      BigDecimal bytes = null;
      boolean sawDate = false;
      boolean sawBytes = false;
      ws();
      if (peek() == '}') {
        i++;
      } else {
        while (true) {
          ws();
          String key = string();
          ws();
          expect(':');
          ws();
          if (key.equals("date")) {
            sawDate = true;
            date = peek() == '"' ? string() : skipNonString();
          } else if (key.equals("bytes")) {
            sawBytes = true;
            bytes = peekIsNumberStart() ? number() : skipAsNull();
          } else {
            value();
          }
          ws();
          char c = next();
          if (c == '}') {
            break;
          }
          if (c != ',') {
            throw new IllegalArgumentException("expected , or }");
          }
        }
      }
      ws();
      if (i != s.length()) {
        throw new IllegalArgumentException("trailing characters");
      }
      if (!sawDate || !sawBytes || date == null || bytes == null) {
        return null;
      }
      if (date.length() != 10) {
        return null;
      }
      long n = bytes.stripTrailingZeros().longValueExact();
      if (n < 0) {
        return null;
      }
      return new BudgetValue(LocalDate.parse(date), n);
    }

    private String skipNonString() {
      value();
      return null;
    }

    private BigDecimal skipAsNull() {
      value();
      return null;
    }

    private void value() {
      char c = peek();
      switch (c) {
        case '{' -> {
          i++;
          ws();
          if (peek() == '}') {
            i++;
            return;
          }
          while (true) {
            ws();
            string();
            ws();
            expect(':');
            ws();
            value();
            ws();
            char d = next();
            if (d == '}') {
              return;
            }
            if (d != ',') {
              throw new IllegalArgumentException("expected , or }");
            }
          }
        }
        case '[' -> {
          i++;
          ws();
          if (peek() == ']') {
            i++;
            return;
          }
          while (true) {
            ws();
            value();
            ws();
            char d = next();
            if (d == ']') {
              return;
            }
            if (d != ',') {
              throw new IllegalArgumentException("expected , or ]");
            }
          }
        }
        case '"' -> string();
        case 't' -> literal("true");
        case 'f' -> literal("false");
        case 'n' -> literal("null");
        default -> number();
      }
    }

    private boolean peekIsNumberStart() {
      char c = peek();
      return c == '-' || (c >= '0' && c <= '9');
    }

    private BigDecimal number() {
      int start = i;
      if (peek() == '-') {
        i++;
      }
      if (peek() == '0') {
        i++;
      } else {
        digits();
      }
      if (i < s.length() && s.charAt(i) == '.') {
        i++;
        digits();
      }
      if (i < s.length() && (s.charAt(i) == 'e' || s.charAt(i) == 'E')) {
        i++;
        if (i < s.length() && (s.charAt(i) == '+' || s.charAt(i) == '-')) {
          i++;
        }
        digits();
      }
      return new BigDecimal(s.substring(start, i));
    }

    private void digits() {
      int start = i;
      while (i < s.length() && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
        i++;
      }
      if (i == start) {
        throw new IllegalArgumentException("digit expected");
      }
    }

    private void literal(String word) {
      if (!s.startsWith(word, i)) {
        throw new IllegalArgumentException("bad literal");
      }
      i += word.length();
    }

    private String string() {
      expect('"');
      StringBuilder out = new StringBuilder();
      while (true) {
        char c = next();
        if (c == '"') {
          return out.toString();
        }
        if (c < 0x20) {
          throw new IllegalArgumentException("control character in string");
        }
        if (c != '\\') {
          out.append(c);
          continue;
        }
        char e = next();
        switch (e) {
          case '"', '\\', '/' -> out.append(e);
          case 'b' -> out.append('\b');
          case 'f' -> out.append('\f');
          case 'n' -> out.append('\n');
          case 'r' -> out.append('\r');
          case 't' -> out.append('\t');
          case 'u' -> {
            int code = 0;
            for (int k = 0; k < 4; k++) {
              int d = Character.digit(next(), 16);
              if (d < 0) {
                throw new IllegalArgumentException("bad hex digit");
              }
              code = code * 16 + d;
            }
            out.append((char) code);
          }
          default -> throw new IllegalArgumentException("bad escape");
        }
      }
    }

    private void ws() {
      while (i < s.length()) {
        char c = s.charAt(i);
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
          return;
        }
        i++;
      }
    }

    private char peek() {
      if (i >= s.length()) {
        throw new IllegalArgumentException("unexpected end");
      }
      return s.charAt(i);
    }

    private char next() {
      char c = peek();
      i++;
      return c;
    }

    private void expect(char c) {
      if (next() != c) {
        throw new IllegalArgumentException("expected " + c);
      }
    }
  }
}
