package io.sf2loki.core.shape;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Timestamp parsing of SPEC SRC-11. Stateless and thread-safe; parsing never throws and uses no
 * exceptions for control flow.
 *
 * <p>Accepted values:
 *
 * <ul>
 *   <li>numbers ({@code Integer/Long/Short/Byte/BigInteger/Double/Float/BigDecimal}): epoch
 *       <b>milliseconds</b>; a fractional millisecond is kept to the nanosecond (exact value of the
 *       number, rounded half-even); non-finite or out-of-range values do not parse;
 *   <li>strings (surrounding whitespace ignored), first as ISO-8601: date {@code YYYY-MM-DD} or
 *       {@code YYYYMMDD} (year 0001–9999), optionally followed by {@code T} (or {@code t} or a
 *       space) and a time {@code HH[:MM[:SS]]} or {@code HH[MM[SS]]}, an optional fraction of the
 *       second after {@code .} or {@code ,} of any length (digits beyond the ninth are truncated),
 *       and an optional offset {@code Z}, {@code ±HH:MM}, {@code ±HHMM} or {@code ±HH}; no offset
 *       means UTC and a date alone means midnight UTC. Then as the ELF compact form {@code
 *       yyyyMMddHHmmss} with an optional fraction ({@code .SSS}, any length up to nanoseconds);
 *   <li>an {@code Instant} as itself.
 * </ul>
 *
 * Booleans and everything else never parse. Examples: {@code 2024-05-01T10:00:00.000+0000}, {@code
 * 2023-11-07T19:41:12.154Z}, {@code 20231107194112.154}, {@code 1714557600000}.
 */
public final class TimestampParser {
  private TimestampParser() {}

  private static final BigDecimal NANOS_PER_MILLI = BigDecimal.valueOf(1_000_000L);
  private static final BigInteger NANOS_PER_SECOND = BigInteger.valueOf(1_000_000_000L);

  /** Returned by {@link #timeOfDay} for a malformed time; its high half is no reachable value. */
  private static final long MALFORMED_TIME = Long.MIN_VALUE;

  /**
   * Parses one value (see class doc).
   *
   * @return the instant, or empty when the value does not parse (including null)
   */
  public static Optional<Instant> parse(Object value) {
    return Optional.ofNullable(parseOrNull(value));
  }

  /** Like {@link #parse(Object)} but returns null when the value does not parse. */
  public static Instant parseOrNull(Object value) {
    if (value == null || value instanceof Boolean) {
      return null;
    }
    if (value instanceof CharSequence cs) {
      return parseString(cs.toString());
    }
    if (value instanceof Long
        || value instanceof Integer
        || value instanceof Short
        || value instanceof Byte) {
      return Instant.ofEpochMilli(((Number) value).longValue());
    }
    if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      if (!Double.isFinite(d)) {
        return null;
      }
      if (d == Math.rint(d) && Math.abs(d) < 0x1p62) {
        return Instant.ofEpochMilli((long) d);
      }
      return fromMillis(new BigDecimal(d));
    }
    if (value instanceof BigInteger bi) {
      return bi.bitLength() < 64 ? Instant.ofEpochMilli(bi.longValue()) : null;
    }
    if (value instanceof BigDecimal bd) {
      return fromMillis(bd);
    }
    if (value instanceof Instant i) {
      return i;
    }
    return null;
  }

  /** Tries {@code fields} of {@code payload} in order; the first value that parses wins. */
  public static Optional<Instant> firstParsed(Map<String, ?> payload, List<String> fields) {
    for (String f : fields) {
      Instant t = parseOrNull(payload.get(f));
      if (t != null) {
        return Optional.of(t);
      }
    }
    return Optional.empty();
  }

  private static Instant fromMillis(BigDecimal millis) {
    if (millis.abs().compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
      return null;
    }
    BigInteger nanos =
        millis.multiply(NANOS_PER_MILLI).setScale(0, RoundingMode.HALF_EVEN).toBigInteger();
    BigInteger[] qr = nanos.divideAndRemainder(NANOS_PER_SECOND);
    long sec = qr[0].longValue();
    long nano = qr[1].longValue();
    if (nano < 0) {
      sec--;
      nano += 1_000_000_000L;
    }
    return Instant.ofEpochSecond(sec, nano);
  }

  /** Parses an ISO-8601 or ELF compact string; null when it does not parse. */
  static Instant parseString(String raw) {
    String s = raw;
    int n = s.length();
    if (n > 0 && (s.charAt(0) <= ' ' || s.charAt(n - 1) <= ' ')) {
      s = s.strip();
      n = s.length();
    }
    if (n < 8) {
      return null;
    }
    Instant iso = parseIso(s, n);
    return iso != null ? iso : parseCompact(s, n);
  }

  private static Instant parseIso(String s, int n) {
    int year = digits(s, 0, 4);
    if (year < 1) {
      return null;
    }
    int month;
    int day;
    int pos;
    if (s.charAt(4) == '-') {
      if (n < 10 || s.charAt(7) != '-') {
        return null;
      }
      month = digits(s, 5, 2);
      day = digits(s, 8, 2);
      pos = 10;
    } else {
      month = digits(s, 4, 2);
      day = digits(s, 6, 2);
      pos = 8;
    }
    if (!validDate(year, month, day)) {
      return null;
    }
    long epochDay = daysFromCivil(year, month, day);
    if (pos == n) {
      return Instant.ofEpochSecond(epochDay * 86_400L);
    }
    char sep = s.charAt(pos);
    if (sep != 'T' && sep != 't' && sep != ' ') {
      return null;
    }
    long time = timeOfDay(s, pos + 1, n);
    if (time == MALFORMED_TIME) {
      return null;
    }
    return Instant.ofEpochSecond(epochDay * 86_400L + (time >> 32), (int) time);
  }

  /**
   * Reads {@code HH[:MM[:SS]]} or {@code HH[MM[SS]]}, an optional fraction and an optional offset
   * from {@code pos} to exactly {@code n}.
   *
   * @return {@code ((secondsOfDay - offsetSeconds) << 32) | nanos}, or {@link #MALFORMED_TIME}
   */
  private static long timeOfDay(String s, int start, int n) {
    int pos = start;
    int hour = digits(s, pos, 2);
    if (hour < 0 || hour > 23) {
      return MALFORMED_TIME;
    }
    pos += 2;
    int minute = 0;
    int second = 0;
    int nano = 0;
    if (pos < n && s.charAt(pos) == ':') {
      minute = digits(s, pos + 1, 2);
      pos += 3;
      if (pos < n && s.charAt(pos) == ':') {
        second = digits(s, pos + 1, 2);
        pos += 3;
        if (second < 0) {
          return MALFORMED_TIME;
        }
        long f = fraction(s, pos, n);
        if (f < 0) {
          return MALFORMED_TIME;
        }
        pos = (int) (f >>> 32);
        nano = (int) f;
      }
    } else if (pos < n && isDigit(s.charAt(pos))) {
      minute = digits(s, pos, 2);
      pos += 2;
      if (pos < n && isDigit(s.charAt(pos))) {
        second = digits(s, pos, 2);
        pos += 2;
        if (second < 0) {
          return MALFORMED_TIME;
        }
        long f = fraction(s, pos, n);
        if (f < 0) {
          return MALFORMED_TIME;
        }
        pos = (int) (f >>> 32);
        nano = (int) f;
      }
    }
    if (minute < 0 || minute > 59 || second > 59) {
      return MALFORMED_TIME;
    }
    int offsetSeconds = 0;
    if (pos < n) {
      long off = offset(s, pos, n);
      if (off < 0) {
        return MALFORMED_TIME;
      }
      pos = (int) (off >>> 32);
      offsetSeconds = (int) off;
    }
    if (pos != n) {
      return MALFORMED_TIME;
    }
    int secondsOfDay = hour * 3600 + minute * 60 + second - offsetSeconds;
    return ((long) secondsOfDay << 32) | nano;
  }

  /**
   * Reads an offset {@code Z}, {@code ±HH:MM}, {@code ±HHMM} or {@code ±HH} at {@code pos < n}.
   *
   * @return {@code (newPos << 32) | (offsetSeconds & 0xFFFFFFFF)}, or -1 when malformed
   */
  private static long offset(String s, int pos, int n) {
    char c = s.charAt(pos);
    if (c == 'Z' || c == 'z') {
      return (long) (pos + 1) << 32;
    }
    if (c != '+' && c != '-') {
      return -1;
    }
    int oh = digits(s, pos + 1, 2);
    int p = pos + 3;
    int om = 0;
    if (p < n) {
      if (s.charAt(p) == ':') {
        p++;
      }
      om = digits(s, p, 2);
      p += 2;
    }
    if (oh < 0 || oh > 23 || om < 0 || om > 59) {
      return -1;
    }
    int offsetSeconds = (oh * 3600 + om * 60) * (c == '-' ? -1 : 1);
    return ((long) p << 32) | (offsetSeconds & 0xFFFFFFFFL);
  }

  /**
   * Reads an optional fraction ({@code .} or {@code ,} then ≥ 1 digits) at {@code pos}.
   *
   * @return {@code (newPos << 32) | nanos}, or -1 when malformed
   */
  private static long fraction(String s, int pos, int n) {
    if (pos >= n || (s.charAt(pos) != '.' && s.charAt(pos) != ',')) {
      return (long) pos << 32;
    }
    int i = pos + 1;
    int nanos = 0;
    int count = 0;
    while (i < n && isDigit(s.charAt(i))) {
      if (count < 9) {
        nanos = nanos * 10 + (s.charAt(i) - '0');
      }
      count++;
      i++;
    }
    if (count == 0) {
      return -1;
    }
    for (int k = count; k < 9; k++) {
      nanos *= 10;
    }
    return ((long) i << 32) | nanos;
  }

  private static Instant parseCompact(String s, int n) {
    if (n < 14) {
      return null;
    }
    int year = digits(s, 0, 4);
    int month = digits(s, 4, 2);
    int day = digits(s, 6, 2);
    int hour = digits(s, 8, 2);
    int minute = digits(s, 10, 2);
    int second = digits(s, 12, 2);
    if (year < 1
        || !validDate(year, month, day)
        || hour < 0
        || hour > 23
        || minute < 0
        || minute > 59
        || second < 0
        || second > 59) {
      return null;
    }
    int nano = 0;
    if (n > 14) {
      if (s.charAt(14) != '.' || n == 15) {
        return null;
      }
      long f = 0;
      for (int i = 15; i < n; i++) {
        char c = s.charAt(i);
        if (!isDigit(c)) {
          return null;
        }
        if (i < 24) {
          f = f * 10 + (c - '0');
        }
      }
      for (int i = Math.min(n, 24); i < 24; i++) {
        f *= 10;
      }
      nano = (int) f;
    }
    long sec = daysFromCivil(year, month, day) * 86_400L + hour * 3600L + minute * 60L + second;
    return Instant.ofEpochSecond(sec, nano);
  }

  private static boolean isDigit(char c) {
    return c >= '0' && c <= '9';
  }

  /** The value of {@code len} ASCII digits at {@code pos}, or -1. */
  private static int digits(String s, int pos, int len) {
    if (pos < 0 || pos + len > s.length()) {
      return -1;
    }
    int v = 0;
    for (int i = pos; i < pos + len; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return -1;
      }
      v = v * 10 + (c - '0');
    }
    return v;
  }

  private static boolean validDate(int y, int m, int d) {
    if (m < 1 || m > 12 || d < 1) {
      return false;
    }
    int max =
        switch (m) {
          case 2 -> (y % 4 == 0 && (y % 100 != 0 || y % 400 == 0)) ? 29 : 28;
          case 4, 6, 9, 11 -> 30;
          default -> 31;
        };
    return d <= max;
  }

  /** Days since 1970-01-01 of a valid proleptic Gregorian date with year ≥ 1. */
  static long daysFromCivil(int y, int m, int d) {
    int yy = m <= 2 ? y - 1 : y;
    int era = yy / 400;
    int yoe = yy - era * 400;
    int doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146_097L + doe - 719_468L;
  }
}
