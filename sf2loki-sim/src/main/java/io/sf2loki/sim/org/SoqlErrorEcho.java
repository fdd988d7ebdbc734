package io.sf2loki.sim.org;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How the simulated org words a SOQL rejection the way Salesforce does: the message starts with a
 * newline, an echo of the query, a caret line under the offending column, {@code ERROR at
 * Row:1:Column:<n>} and then the reason, e.g. (fixture {@code
 * reconstructed_error_invalid_field_400.json}):
 *
 * <pre>
 * \nSELECT Id , EventType , Interval , LogDate ...\n ^\nERROR at Row:1:Column:25\nNo such column ...
 * </pre>
 *
 * Real Salesforce echoes a window of a long query (public reports show 50–90 characters around the
 * column); {@link #FULL_QUERY} echoes the whole query as sent (the 547-byte fixture {@code
 * reconstructed_error_invalid_field_400_full_query.json}), which puts {@code errorCode} beyond a
 * 500-character excerpt. {@link #NONE} is the bare reason (the simulator's earlier behaviour).
 */
public enum SoqlErrorEcho {
  /** The reason only. */
  NONE,
  /** A window of the query around the offending column (Salesforce's usual form). */
  WINDOW,
  /** The whole query as sent. */
  FULL_QUERY;

  /** Characters of the query echoed before the column in {@link #WINDOW} form. */
  static final int WINDOW_BEFORE = 20;

  /** Characters of the query echoed from the column on in {@link #WINDOW} form. */
  static final int WINDOW_AFTER = 50;

  /**
   * The message for a rejection of {@code soql} at the first whole-word occurrence of {@code field}
   * (case-insensitive), or {@code reason} alone when the field is not found or for {@link #NONE}.
   */
  String message(String soql, String field, String reason) {
    if (this == NONE || soql == null || field == null) {
      return reason;
    }
    Matcher m =
        Pattern.compile("\\b" + Pattern.quote(field) + "\\b", Pattern.CASE_INSENSITIVE)
            .matcher(soql);
    if (!m.find()) {
      return reason;
    }
    int col = m.start();
    int from = this == FULL_QUERY ? 0 : Math.max(0, col - WINDOW_BEFORE);
    int to = this == FULL_QUERY ? soql.length() : Math.min(soql.length(), col + WINDOW_AFTER);
    String echo = soql.substring(from, to).replace('\n', ' ');
    return "\n"
        + echo
        + "\n"
        + " ".repeat(col - from)
        + "^\nERROR at Row:1:Column:"
        + (col + 1)
        + "\n"
        + reason;
  }

  /** Parses a configuration word ({@code none}, {@code window}, {@code full_query}). */
  public static SoqlErrorEcho of(String word) {
    return valueOf(word.strip().toUpperCase(Locale.ROOT));
  }
}
