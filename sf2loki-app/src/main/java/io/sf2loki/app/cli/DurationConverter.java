package io.sf2loki.app.cli;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/**
 * Parses command-line durations written as in the SPEC conventions: an integer followed by {@code
 * ms}, {@code s}, {@code m} or {@code h} ({@code 30s}, {@code 5m}, {@code 1h}, {@code 250ms}).
 */
final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
  private static final Pattern FORM = Pattern.compile("(\\d{1,9})(ms|s|m|h)");

  @Override
  public Duration convert(String value) {
    Matcher m = FORM.matcher(value.strip());
    if (!m.matches()) {
      throw new CommandLine.TypeConversionException(
          "'" + value + "' is not a duration like 30s, 5m, 1h or 250ms");
    }
    long n = Long.parseLong(m.group(1));
    return switch (m.group(2)) {
      case "ms" -> Duration.ofMillis(n);
      case "s" -> Duration.ofSeconds(n);
      case "m" -> Duration.ofMinutes(n);
      default -> Duration.ofHours(n);
    };
  }
}
