package io.sf2loki.salesforce.apexlog;

import io.sf2loki.salesforce.revisit.Revisit;
import io.sf2loki.salesforce.source.Soql;
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
   * APX-10 revisit listing, Id and StartTime only: {@code SELECT Id, StartTime FROM ApexLog WHERE
   * StartTime >= <from> AND StartTime < <before> [AND LogUser.Username IN (…)] ORDER BY StartTime
   * DESC, Id DESC LIMIT <limit>} ({@code StartTime > <from>} when the start is exclusive).
   */
  public static String revisitListing(Revisit.Range r, List<String> users, int limit) {
    StringBuilder q =
        new StringBuilder(256)
            .append("SELECT Id, StartTime FROM ApexLog WHERE StartTime ")
            .append(r.fromExclusive() ? "> " : ">= ")
            .append(Soql.datetime(r.from()))
            .append(" AND StartTime < ")
            .append(Soql.datetime(r.before()));
    if (!users.isEmpty()) {
      q.append(" AND LogUser.Username IN ").append(Soql.stringList(users));
    }
    return q.append(" ORDER BY StartTime DESC, Id DESC LIMIT ").append(limit).toString();
  }

  /**
   * APX-10 full rows of at most {@link Revisit#FETCH_CHUNK} listed Ids: {@code SELECT <APX-1
   * fields> FROM ApexLog WHERE Id IN ('id1',…) ORDER BY StartTime ASC, Id ASC LIMIT 200}.
   */
  public static String revisitFetch(List<String> ids) {
    if (ids.size() > Revisit.FETCH_CHUNK) {
      throw new IllegalArgumentException("at most " + Revisit.FETCH_CHUNK + " Ids per fetch");
    }
    return SELECT
        + "Id IN "
        + Soql.stringList(ids)
        + " ORDER BY StartTime ASC, Id ASC LIMIT "
        + PAGE_SIZE;
  }

  /**
   * SRC-16: the SOQL datetime literal for a stored raw timestamp, {@code YYYY-MM-DDTHH:MM:SS.mmmZ}
   * in UTC (fraction truncated to milliseconds); a string that does not parse is returned
   * unchanged.
   */
  public static String datetimeLiteral(String raw) {
    return Soql.datetime(raw);
  }

  /** SRC-18 string literal: {@code \} → {@code \\}, {@code '} → {@code \'}, single-quoted. */
  public static String literal(String s) {
    return Soql.string(s);
  }
}
