package io.sf2loki.sim.org;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Tooling queries the simulated org answers on {@code ApexLog} (SPEC APX-1, APX-10), matched
 * exactly as the source writes them (single spaces); anything else is {@code 400 MALFORMED_QUERY}:
 *
 * <ul>
 *   <li>{@link Listing}: the APX-1 listing, ascending compound cursor;
 *   <li>{@link RevisitListing}: {@code SELECT Id, StartTime FROM ApexLog WHERE StartTime >= <from>
 *       AND StartTime < <before> [AND LogUser.Username IN (…)] ORDER BY StartTime DESC, Id DESC
 *       LIMIT n};
 *   <li>{@link ByIds}: the APX-1 field list {@code WHERE Id IN ('…',…) ORDER BY StartTime ASC, Id
 *       ASC LIMIT n}.
 * </ul>
 */
final class ApexLogQueries {
  private static final String LIT = "'((?:[^'\\\\]|\\\\.)*)'";
  private static final String NC_LIT = "'(?:[^'\\\\]|\\\\.)*'";
  private static final String LIT_LIST = "(" + NC_LIT + "(?:," + NC_LIT + ")*)";
  private static final String DT =
      "(\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}(?:\\.\\d{1,9})?(?:Z|[+-]\\d{2}:?\\d{2}))";
  private static final String FIELDS =
      "SELECT Id, LogUserId, LogLength, Operation, Request, Status, StartTime, Application,"
          + " DurationMilliseconds, Location FROM ApexLog WHERE ";
  private static final String USERS = "(?: AND LogUser\\.Username IN \\(" + LIT_LIST + "\\))?";

  /** The accepted listing query (APX-1). */
  static final Pattern LISTING =
      Pattern.compile(
          "^"
              + FIELDS
              + "(?:StartTime >= "
              + DT
              + "|\\(StartTime > "
              + DT
              + " OR \\(StartTime = "
              + DT
              + " AND Id > "
              + LIT
              + "\\)\\))"
              + USERS
              + " ORDER BY StartTime ASC, Id ASC LIMIT (\\d{1,4})$");

  static final Pattern REVISIT_LISTING =
      Pattern.compile(
          "^SELECT Id, StartTime FROM ApexLog WHERE StartTime (>=|>) "
              + DT
              + " AND StartTime < "
              + DT
              + USERS
              + " ORDER BY StartTime DESC, Id DESC LIMIT (\\d{1,6})$");

  static final Pattern BY_IDS =
      Pattern.compile(
          "^"
              + FIELDS
              + "Id IN \\("
              + LIT_LIST
              + "\\) ORDER BY StartTime ASC, Id ASC LIMIT (\\d{1,4})$");

  private static final Pattern ONE_LIT = Pattern.compile(LIT);
  private static final DateTimeFormatter DT_PARSER = parser("+HH:MM");
  private static final DateTimeFormatter DT_PARSER_COMPACT = parser("+HHMM");

  private ApexLogQueries() {}

  private static DateTimeFormatter parser(String offset) {
    return new DateTimeFormatterBuilder()
        .appendPattern("yyyy-MM-dd'T'HH:mm:ss")
        .optionalStart()
        .appendFraction(java.time.temporal.ChronoField.NANO_OF_SECOND, 1, 9, true)
        .optionalEnd()
        .appendOffset(offset, "Z")
        .toFormatter(Locale.ROOT);
  }

  /** One accepted query. */
  sealed interface Query permits Listing, RevisitListing, ByIds {}

  /** A parsed APX-1 listing. */
  record Listing(Instant from, boolean compound, String afterId, Set<String> users, int limit)
      implements Query {}

  /** A parsed APX-10 revisit listing; {@code users} null = no filter. */
  record RevisitListing(
      Instant from, boolean fromExclusive, Instant before, Set<String> users, int limit)
      implements Query {}

  /** A parsed APX-10 fetch by Ids. */
  record ByIds(Set<String> ids, int limit) implements Query {}

  /**
   * @throws SoqlRejection 400 MALFORMED_QUERY for any text but the three shapes
   */
  static Query parseAny(String q) throws SoqlRejection {
    if (q != null) {
      Matcher r = REVISIT_LISTING.matcher(q);
      if (r.matches()) {
        return new RevisitListing(
            datetime(r.group(2)),
            r.group(1).equals(">"),
            datetime(r.group(3)),
            literals(r.group(4)),
            Integer.parseInt(r.group(5)));
      }
      Matcher b = BY_IDS.matcher(q);
      if (b.matches()) {
        return new ByIds(literals(b.group(1)), Integer.parseInt(b.group(2)));
      }
    }
    return parse(q);
  }

  /**
   * Parses an APX-1 listing.
   *
   * @throws SoqlRejection 400 MALFORMED_QUERY for any other text
   */
  static Listing parse(String q) throws SoqlRejection {
    Matcher m = q == null ? null : LISTING.matcher(q);
    if (m == null || !m.matches()) {
      throw new SoqlRejection(
          400,
          "MALFORMED_QUERY",
          "unexpected ApexLog query (only the APX-1 and APX-10 shapes are served)");
    }
    boolean compound = m.group(1) == null;
    Instant from;
    String afterId = null;
    if (compound) {
      if (!m.group(2).equals(m.group(3))) {
        throw new SoqlRejection(400, "MALFORMED_QUERY", "compound cursor literals differ");
      }
      from = datetime(m.group(2));
      afterId = unescape(m.group(4));
    } else {
      from = datetime(m.group(1));
    }
    return new Listing(from, compound, afterId, literals(m.group(5)), Integer.parseInt(m.group(6)));
  }

  /** The unescaped values of a literal list, or null when {@code list} is null. */
  private static Set<String> literals(String list) {
    if (list == null) {
      return null;
    }
    Set<String> out = new LinkedHashSet<>();
    Matcher u = ONE_LIT.matcher(list);
    while (u.find()) {
      out.add(unescape(u.group(1)));
    }
    return out;
  }

  private static Instant datetime(String s) throws SoqlRejection {
    try {
      return OffsetDateTime.parse(s, DT_PARSER).toInstant();
    } catch (DateTimeParseException e) {
      try {
        return OffsetDateTime.parse(s, DT_PARSER_COMPACT).toInstant();
      } catch (DateTimeParseException e2) {
        throw new SoqlRejection(400, "MALFORMED_QUERY", "bad datetime literal " + s);
      }
    }
  }

  static String unescape(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\\' && i + 1 < s.length()) {
        c = s.charAt(++i);
      }
      b.append(c);
    }
    return b.toString();
  }
}
