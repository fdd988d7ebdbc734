package io.sf2loki.app.logging;

import ch.qos.logback.classic.Level;
import java.util.Locale;

/** Level names of SPEC OBS-9 and the {@code log_level} mapping of the configuration. */
public final class SpecLevels {
  private SpecLevels() {}

  /**
   * The OBS-9 output name of a Logback level: {@code debug}, {@code info}, {@code warning}, {@code
   * error} (TRACE renders as {@code debug}).
   */
  public static String name(Level level) {
    return switch (level.toInt()) {
      case Level.ERROR_INT -> "error";
      case Level.WARN_INT -> "warning";
      case Level.INFO_INT -> "info";
      default -> "debug";
    };
  }

  /**
   * Parses {@code service.log_level} (case-insensitive): {@code debug}, {@code info}, {@code
   * warning}/{@code warn}, {@code error}/{@code critical}.
   *
   * @throws IllegalArgumentException for any other value
   */
  public static Level parse(String value) {
    String v = value == null ? "" : value.strip().toLowerCase(Locale.ROOT);
    return switch (v) {
      case "debug" -> Level.DEBUG;
      case "info" -> Level.INFO;
      case "warning", "warn" -> Level.WARN;
      case "error", "critical" -> Level.ERROR;
      default ->
          throw new IllegalArgumentException(
              "log_level must be one of debug, info, warning, warn, error, critical; got '"
                  + value
                  + "'");
    };
  }
}
