package io.sf2loki.salesforce.apexlog;

import io.sf2loki.core.shape.TimestampParser;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * SOQL text of the ApexLog source (SPEC APX-1, SRC-16, SRC-18): the Tooling listing query, built
 * only from fixed identifiers, escaped string literals and normalised datetime literals.
 */
public final class ApexLogSoql {
  /** APX-1 page size; a result with fewer records is a short page. */
  public static final int PAGE_SIZE = 200;

  /** The APX-1 select list, in order. */
  public static final List<String> FIELDS =
      List.of(
          "Id",
          "LogUserId",
          "LogLength",
          "Operation",
          "Request",
          "Status",
          "StartTime",
          "Application",
          "DurationMilliseconds",
          "Location");

  private static final String SELECT =
      "SELECT " + String.join(", ", FIELDS) + " FROM ApexLog WHERE ";

  private static final DateTimeFormatter SOQL_DATETIME =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);

  private ApexLogSoql() {}

  /**
   * APX-1 listing: {@code SELECT <FIELDS> FROM ApexLog WHERE <cursor> [AND LogUser.Username IN
   * ('u1','u2')] ORDER BY StartTime ASC, Id ASC LIMIT 200}; the cursor is {@code StartTime >=
   * <lit>} when {@code lastId} is null, else {@code (StartTime > <lit> OR (StartTime = <lit> AND Id
   * > '<lastId>'))}.
   *
   * @param watermarkRaw the stored raw StartTime (or the APX-2 default), normalised per SRC-16
   * @param lastId the last Id of the window, or null for an empty window; escaped per SRC-18
   * @param users usernames for the filter (empty = no filter); each escaped per SRC-18
   */
  public static String listing(String watermarkRaw, String lastId, List<String> users) {
    String lit = datetimeLiteral(watermarkRaw);
    StringBuilder q = new StringBuilder(512).append(SELECT);
    if (lastId == null) {
      q.append("StartTime >= ").append(lit);
    } else {
      q.append("(StartTime > ")
          .append(lit)
          .append(" OR (StartTime = ")
          .append(lit)
          .append(" AND Id > ")
          .append(literal(lastId))
          .append("))");
    }
    if (!users.isEmpty()) {
      q.append(" AND LogUser.Username IN (");
      for (int i = 0; i < users.size(); i++) {
        if (i > 0) {
          q.append(',');
        }
        q.append(literal(users.get(i)));
      }
      q.append(')');
    }
    q.append(" ORDER BY StartTime ASC, Id ASC LIMIT ").append(PAGE_SIZE);
    return q.toString();
  }

  /**
   * SRC-16: the SOQL datetime literal for a stored raw timestamp, {@code YYYY-MM-DDTHH:MM:SS.mmmZ}
   * in UTC (fraction truncated to milliseconds); a string that does not parse is returned
   * unchanged.
   */
  public static String datetimeLiteral(String raw) {
    Instant t = TimestampParser.parseOrNull(raw);
    return t == null ? raw : SOQL_DATETIME.format(t.truncatedTo(ChronoUnit.MILLIS));
  }

  /** SRC-18 string literal: {@code \} → {@code \\}, {@code '} → {@code \'}, single-quoted. */
  public static String literal(String s) {
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
}
