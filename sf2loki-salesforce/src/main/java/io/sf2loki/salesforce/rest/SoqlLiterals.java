package io.sf2loki.salesforce.rest;

import io.sf2loki.core.shape.TimestampParser;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.Collection;

/**
 * SOQL literals (SPEC SRC-16, SRC-18): escaped single-quoted strings and normalised datetime
 * literals. The one implementation the object, ApexLog and revisit query builders share.
 */
public final class SoqlLiterals {
  private static final DateTimeFormatter DATETIME =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private SoqlLiterals() {}

  /** SRC-18 string literal: {@code \} → {@code \\}, {@code '} → {@code \'}, single-quoted. */
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
}
