package io.sf2loki.salesforce.elf;

import io.sf2loki.salesforce.source.Soql;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.time.temporal.ChronoUnit;
import java.time.temporal.TemporalAccessor;
import java.util.Optional;

/**
 * Salesforce REST timestamps as stored in EventLogFile cursors (SPEC SRC-15, SRC-16): parsing of
 * {@code 2024-05-01T10:00:00.000+0000}-style strings and their normalisation into a SOQL datetime
 * literal {@code YYYY-MM-DDTHH:MM:SS.mmmZ}.
 */
final class SalesforceTimestamps {
  private static final DateTimeFormatter PARSER =
      new DateTimeFormatterBuilder()
          .parseCaseInsensitive()
          .append(DateTimeFormatter.ISO_LOCAL_DATE)
          .optionalStart()
          .appendLiteral('T')
          .append(DateTimeFormatter.ISO_LOCAL_TIME)
          .optionalStart()
          .appendOffset("+HH:MM", "Z")
          .optionalEnd()
          .optionalStart()
          .appendOffset("+HHMM", "Z")
          .optionalEnd()
          .optionalEnd()
          .parseDefaulting(ChronoField.HOUR_OF_DAY, 0)
          .parseDefaulting(ChronoField.MINUTE_OF_HOUR, 0)
          .parseDefaulting(ChronoField.SECOND_OF_MINUTE, 0)
          .toFormatter();

  private static final DateTimeFormatter DEFAULT_SINCE =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);

  private SalesforceTimestamps() {}

  /**
   * Parses a Salesforce REST timestamp ({@code 2024-05-01T10:00:00.000+0000}, also {@code Z},
   * {@code ±HH:MM}, any fraction, or no offset = UTC; a date alone means midnight UTC).
   *
   * @return the instant, or empty when {@code raw} is null or does not parse
   */
  static Optional<Instant> parse(String raw) {
    if (raw == null) {
      return Optional.empty();
    }
    String s = raw.strip();
    if (s.isEmpty()) {
      return Optional.empty();
    }
    try {
      TemporalAccessor t = PARSER.parse(s);
      LocalDateTime ldt = LocalDateTime.from(t);
      ZoneOffset off =
          t.isSupported(ChronoField.OFFSET_SECONDS)
              ? ZoneOffset.ofTotalSeconds(t.get(ChronoField.OFFSET_SECONDS))
              : ZoneOffset.UTC;
      return Optional.of(OffsetDateTime.of(ldt, off).toInstant());
    } catch (DateTimeParseException | ArithmeticException e) {
      return Optional.empty();
    }
  }

  /**
   * SRC-16: the SOQL datetime literal for a stored raw timestamp, {@code YYYY-MM-DDTHH:MM:SS.mmmZ}
   * in UTC (fraction truncated to milliseconds); a string that does not parse is returned
   * unchanged.
   */
  static String soqlLiteral(String raw) {
    return parse(raw).map(Soql::datetime).orElse(raw);
  }

  /** ELF-4: the default {@code since} value {@code YYYY-MM-DDTHH:MM:SSZ} (whole seconds, UTC). */
  static String defaultSince(Instant instant) {
    return DEFAULT_SINCE.format(instant.truncatedTo(ChronoUnit.SECONDS));
  }
}
