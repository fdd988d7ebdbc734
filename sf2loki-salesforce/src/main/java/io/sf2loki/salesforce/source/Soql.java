package io.sf2loki.salesforce.source;

import io.sf2loki.core.shape.TimestampParser;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.regex.Pattern;

/**
 * The SOQL text primitives every query builder of the sources goes through (SPEC SRC-16, SRC-18,
 * CFG-10): the one string-literal escaping routine, datetime literals and identifier validation.
 * Query text is only ever built from validated identifiers and these literals.
 */
public final class Soql {
  private static final Pattern IDENTIFIER = Pattern.compile("^[A-Za-z0-9_]+$");
  private static final DateTimeFormatter DATETIME =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private Soql() {}

  /**
   * SRC-18 string literal: {@code \} → {@code \\}, {@code '} → {@code \'}, single-quoted; every
   * other character (newlines, quotes of other kinds, non-ASCII) is kept as it is, which SOQL reads
   * verbatim inside a quoted literal.
   */
  public static String string(String s) {
    StringBuilder b = new StringBuilder(s.length() + 2).append('\'');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' || c == '\'') {
        b.append('\\');
      }
      b.append(c);
    }
    return b.append('\'').toString();
  }

  /** {@code ('a','b',…)}: each value an SRC-18 string literal; {@code values} must not be empty. */
  public static String stringList(Collection<String> values) {
    if (values.isEmpty()) {
      throw new IllegalArgumentException("an IN list needs at least one value");
    }
    StringBuilder b = new StringBuilder(values.size() * 21 + 2).append('(');
    for (String v : values) {
      if (b.length() > 1) {
        b.append(',');
      }
      b.append(string(v));
    }
    return b.append(')').toString();
  }

  /** SRC-16: UTC {@code YYYY-MM-DDTHH:MM:SS.mmmZ} (fraction truncated to milliseconds). */
  public static String datetime(Instant at) {
    return DATETIME.format(at.truncatedTo(ChronoUnit.MILLIS));
  }

  /** SRC-16 for a stored raw timestamp; a value that does not parse is returned unchanged. */
  public static String datetime(String raw) {
    Instant at = TimestampParser.parseOrNull(raw);
    return at == null ? raw : datetime(at);
  }

  /** CFG-10: the identifier rule as a regular expression, for error messages. */
  public static String identifierPattern() {
    return IDENTIFIER.pattern();
  }

  /** CFG-10: whether {@code name} is a SOQL identifier ({@code [A-Za-z0-9_]+}); false for null. */
  public static boolean isIdentifier(String name) {
    return name != null && IDENTIFIER.matcher(name).matches();
  }

  /**
   * @return {@code name}, when it is a SOQL identifier
   * @throws IllegalArgumentException otherwise ({@code not a SOQL identifier: <name>})
   */
  public static String identifier(String name) {
    if (!isIdentifier(name)) {
      throw new IllegalArgumentException("not a SOQL identifier: " + name);
    }
    return name;
  }
}
