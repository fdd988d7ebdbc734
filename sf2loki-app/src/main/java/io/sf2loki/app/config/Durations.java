package io.sf2loki.app.config;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses configuration durations (SPEC CFG-5): concatenated {@code <number><unit>} tokens with unit
 * {@code ms|s|m|h|d|w} ({@code 500ms}, {@code 1h30m}, {@code 1.5h}, {@code 2w}); ISO-8601 ({@code
 * PT5M}, {@code P1D}, {@code P2W}); a plain number of seconds ({@code 30}, {@code 0.5}); the 1.x
 * clock form {@code [<days>d[,]]HH:MM:SS[.<fraction>]}. Negative values are rejected (CFG-6).
 * Sub-nanosecond fractions are truncated.
 */
public final class Durations {
  private static final Pattern TOKENS = Pattern.compile("(?:\\d+(?:\\.\\d+)?(?:ms|s|m|h|d|w))+");
  private static final Pattern TOKEN = Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|s|m|h|d|w)");
  private static final Pattern SECONDS = Pattern.compile("\\d+(?:\\.\\d+)?");
  private static final Pattern CLOCK =
      Pattern.compile("(?:(\\d+)[dD],?)?(\\d{2}):(\\d{2}):(\\d{2})(\\.\\d+)?");
  private static final Pattern ISO_WEEKS = Pattern.compile("P(\\d+)W");
  private static final BigDecimal NANOS_PER_SECOND = BigDecimal.valueOf(1_000_000_000L);

  private Durations() {}

  /**
   * Parses one duration string.
   *
   * @param text the configured text, surrounding whitespace ignored
   * @return a non-negative duration
   * @throws IllegalArgumentException with a user-facing message when the text is negative or not a
   *     duration in any of the four forms
   */
  public static Duration parse(String text) {
    return inNanosRange(parseAnyLength(text));
  }

  private static Duration parseAnyLength(String text) {
    String s = text.strip();
    if (s.startsWith("-")) {
      throw new IllegalArgumentException("must not be negative (got '" + s + "')");
    }
    if (SECONDS.matcher(s).matches()) {
      return secondsAnyLength(new BigDecimal(s));
    }
    if (TOKENS.matcher(s).matches()) {
      BigDecimal nanos = BigDecimal.ZERO;
      Matcher m = TOKEN.matcher(s);
      while (m.find()) {
        nanos = nanos.add(new BigDecimal(m.group(1)).multiply(unitNanos(m.group(2))));
      }
      return ofNanos(nanos);
    }
    Matcher clock = CLOCK.matcher(s);
    if (clock.matches()) {
      BigDecimal days = clock.group(1) == null ? BigDecimal.ZERO : new BigDecimal(clock.group(1));
      BigDecimal seconds =
          days.multiply(BigDecimal.valueOf(86400))
              .add(
                  BigDecimal.valueOf(
                      Long.parseLong(clock.group(2)) * 3600
                          + Long.parseLong(clock.group(3)) * 60
                          + Long.parseLong(clock.group(4))));
      if (clock.group(5) != null) {
        seconds = seconds.add(new BigDecimal("0" + clock.group(5)));
      }
      return secondsAnyLength(seconds);
    }
    if (s.startsWith("P") || s.startsWith("p")) {
      Matcher weeks = ISO_WEEKS.matcher(s.toUpperCase(java.util.Locale.ROOT));
      if (weeks.matches()) {
        try {
          return Duration.ofDays(Math.multiplyExact(7, Long.parseLong(weeks.group(1))));
        } catch (ArithmeticException | NumberFormatException e) {
          throw new IllegalArgumentException("duration is too large (at most about 292 years)", e);
        }
      }
      try {
        Duration d = Duration.parse(s);
        if (d.isNegative()) {
          throw new IllegalArgumentException("must not be negative (got '" + s + "')");
        }
        return d;
      } catch (DateTimeParseException | ArithmeticException e) {
        // fall through to the generic message
      }
    }
    throw new IllegalArgumentException(
        "invalid duration '"
            + s
            + "' (use e.g. 500ms, 30s, 5m, 1h30m, PT5M, a number of seconds, or HH:MM:SS)");
  }

  /**
   * A plain number of seconds (CFG-5 c) given as a YAML number.
   *
   * @throws IllegalArgumentException when negative
   */
  public static Duration ofSeconds(BigDecimal seconds) {
    return inNanosRange(secondsAnyLength(seconds));
  }

  private static Duration secondsAnyLength(BigDecimal seconds) {
    if (seconds.signum() < 0) {
      throw new IllegalArgumentException("must not be negative (got " + seconds + ")");
    }
    return ofNanos(seconds.multiply(NANOS_PER_SECOND));
  }

  /**
   * Every configured duration is used as nanoseconds somewhere (waits, schedulers); one beyond
   * {@code Long.MAX_VALUE} ns (about 292 years) passed {@code --check} and then crashed the running
   * daemon with {@code ArithmeticException: long overflow}.
   */
  private static Duration inNanosRange(Duration d) {
    try {
      d.toNanos();
      return d;
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("duration is too large (at most about 292 years)", e);
    }
  }

  private static Duration ofNanos(BigDecimal nanos) {
    BigDecimal whole = nanos.setScale(0, RoundingMode.DOWN);
    BigDecimal[] qr = whole.divideAndRemainder(NANOS_PER_SECOND);
    try {
      return Duration.ofSeconds(qr[0].longValueExact(), qr[1].longValueExact());
    } catch (ArithmeticException e) {
      throw new IllegalArgumentException("duration is too large", e);
    }
  }

  private static BigDecimal unitNanos(String unit) {
    long n =
        switch (unit) {
          case "ms" -> 1_000_000L;
          case "s" -> 1_000_000_000L;
          case "m" -> 60_000_000_000L;
          case "h" -> 3_600_000_000_000L;
          case "d" -> 86_400_000_000_000L;
          case "w" -> 604_800_000_000_000L;
          default -> throw new IllegalStateException(unit);
        };
    return BigDecimal.valueOf(n);
  }
}
