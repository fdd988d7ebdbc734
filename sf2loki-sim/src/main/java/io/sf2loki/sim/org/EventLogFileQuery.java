package io.sf2loki.sim.org;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The EventLogFile SOQL shapes the simulated org understands (ELF-2, ELF-5):
 *
 * <pre>
 * SELECT &lt;fields&gt; FROM EventLogFile
 *   [WHERE &lt;cond&gt; [AND &lt;cond&gt;]...]   cond: EventType='..' | Interval='..' | CreatedDate &gt;= / &gt; &lt;datetime&gt;
 *   [GROUP BY EventType]                 (then fields must be exactly EventType, no ORDER BY)
 *   [ORDER BY CreatedDate [ASC], Id [ASC]]
 *   [LIMIT n]
 * </pre>
 *
 * Anything else is a {@code 400 MALFORMED_QUERY}; an unknown field (or {@code Interval}/{@code
 * Sequence} on an org without hourly files) is a {@code 400 INVALID_FIELD}.
 *
 * @param fields selected fields, canonical case, in query order
 * @param eventType EventType filter or null
 * @param interval Interval filter or null
 * @param createdFrom CreatedDate lower bound or null
 * @param createdExclusive whether the bound is {@code >} rather than {@code >=}
 * @param groupByEventType discovery query
 * @param ordered whether {@code ORDER BY CreatedDate, Id} was given
 * @param limit LIMIT or -1
 */
record EventLogFileQuery(
    List<String> fields,
    String eventType,
    String interval,
    Instant createdFrom,
    boolean createdExclusive,
    boolean groupByEventType,
    boolean ordered,
    int limit) {

  static final List<String> KNOWN_FIELDS =
      List.of(
          "Id",
          "EventType",
          "Interval",
          "LogDate",
          "CreatedDate",
          "LogFileLength",
          "Sequence",
          "LogFile");

  private static final String IDENT = "[A-Za-z_][A-Za-z0-9_]*";
  private static final Pattern SHAPE =
      Pattern.compile(
          "(?is)^\\s*SELECT\\s+(?<fields>"
              + IDENT
              + "(?:\\s*,\\s*"
              + IDENT
              + ")*)\\s+FROM\\s+(?<from>"
              + IDENT
              + ")"
              + "(?:\\s+WHERE\\s+(?<where>.+?))?"
              + "(?:\\s+GROUP\\s+BY\\s+(?<group>EventType))?"
              + "(?:\\s+ORDER\\s+BY\\s+(?<order>CreatedDate(?:\\s+ASC)?\\s*,\\s*Id(?:\\s+ASC)?))?"
              + "(?:\\s+LIMIT\\s+(?<limit>\\d{1,9}))?\\s*$");
  private static final Pattern COND =
      Pattern.compile(
          "(?is)\\G\\s*(?:(?<sf>EventType|Interval)\\s*=\\s*'(?<lit>(?:[^'\\\\]|\\\\.)*)'"
              + "|(?<cf>CreatedDate)\\s*(?<op>>=|>)\\s*(?<dt>\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}"
              + "(?:\\.\\d{1,9})?(?:Z|[+-]\\d{2}:?\\d{2})))\\s*(?<and>AND\\b|$)");
  private static final DateTimeFormatter DT =
      new DateTimeFormatterBuilder()
          .appendPattern("yyyy-MM-dd'T'HH:mm:ss")
          .optionalStart()
          .appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, true)
          .optionalEnd()
          .appendPattern("[XXX][XX][X]")
          .toFormatter(Locale.ROOT);

  /**
   * Parses {@code soql}.
   *
   * @param hourlyAvailable false simulates an org/user without hourly Event Monitoring: naming
   *     {@code Interval} or {@code Sequence} is a 400 INVALID_FIELD (ELF-5)
   */
  static EventLogFileQuery parse(String soql, boolean hourlyAvailable) throws SoqlRejection {
    if (soql == null || soql.isBlank()) {
      throw malformed("SOQL statements cannot be empty or null");
    }
    Matcher m = SHAPE.matcher(soql);
    if (!m.matches()) {
      throw malformed("unexpected token: the simulated org does not support this query shape");
    }
    if (!m.group("from").equalsIgnoreCase("EventLogFile")) {
      throw new SoqlRejection(
          400,
          "INVALID_TYPE",
          "sObject type '" + m.group("from") + "' is not supported by the simulated org.");
    }
    List<String> fields = new ArrayList<>();
    for (String raw : m.group("fields").split(",")) {
      fields.add(canonicalField(raw.strip(), hourlyAvailable));
    }
    String eventType = null;
    String interval = null;
    Instant from = null;
    boolean exclusive = false;
    String where = m.group("where");
    if (where != null) {
      Matcher c = COND.matcher(where);
      int pos = 0;
      while (pos < where.length()) {
        if (!c.find(pos) || c.start() != pos) {
          throw malformed("unexpected token in WHERE clause");
        }
        if (c.group("sf") != null) {
          String f = canonicalField(c.group("sf"), hourlyAvailable);
          String lit = unescape(c.group("lit"));
          if (f.equals("EventType")) {
            eventType = lit;
          } else {
            interval = lit;
          }
        } else {
          try {
            from = OffsetDateTime.parse(c.group("dt"), DT).toInstant();
          } catch (DateTimeParseException e) {
            throw new SoqlRejection(
                400,
                "INVALID_QUERY_FILTER_OPERATOR",
                "value of filter criterion for field 'CreatedDate' must be of type dateTime");
          }
          exclusive = c.group("op").equals(">");
        }
        pos = c.end();
        if (c.group("and").isEmpty() && pos < where.length()) {
          throw malformed("unexpected token in WHERE clause");
        }
        if (!c.group("and").isEmpty() && pos >= where.length()) {
          throw malformed("unexpected end of WHERE clause");
        }
      }
    }
    boolean group = m.group("group") != null;
    boolean ordered = m.group("order") != null;
    if (group && (ordered || !fields.equals(List.of("EventType")))) {
      throw malformed("GROUP BY EventType needs SELECT EventType and no ORDER BY");
    }
    int limit = m.group("limit") == null ? -1 : Integer.parseInt(m.group("limit"));
    return new EventLogFileQuery(
        List.copyOf(fields), eventType, interval, from, exclusive, group, ordered, limit);
  }

  private static String canonicalField(String name, boolean hourlyAvailable) throws SoqlRejection {
    for (String k : KNOWN_FIELDS) {
      if (k.equalsIgnoreCase(name)) {
        if (!hourlyAvailable && (k.equals("Interval") || k.equals("Sequence"))) {
          throw invalidField(name);
        }
        return k;
      }
    }
    throw invalidField(name);
  }

  private static SoqlRejection invalidField(String name) {
    return new SoqlRejection(
        400,
        "INVALID_FIELD",
        "No such column '"
            + name
            + "' on entity 'EventLogFile'. If you are attempting to use a custom field, be sure"
            + " to append the '__c' after the custom field name. Please reference your WSDL or"
            + " the describe call for the appropriate names.",
        name);
  }

  private static SoqlRejection malformed(String message) {
    return new SoqlRejection(400, "MALFORMED_QUERY", message);
  }

  /** SOQL string literal escapes (SRC-18): backslash + char. */
  private static String unescape(String lit) {
    StringBuilder sb = new StringBuilder(lit.length());
    for (int i = 0; i < lit.length(); i++) {
      char ch = lit.charAt(i);
      if (ch == '\\' && i + 1 < lit.length()) {
        char n = lit.charAt(++i);
        sb.append(
            switch (n) {
              case 'n' -> '\n';
              case 'r' -> '\r';
              case 't' -> '\t';
              default -> n;
            });
      } else {
        sb.append(ch);
      }
    }
    return sb.toString();
  }

  /** Whether {@code f} passes the WHERE clause. */
  boolean matches(SimLogFile f) {
    if (eventType != null && !eventType.equals(f.eventType())) {
      return false;
    }
    if (interval != null && !interval.equals(f.interval())) {
      return false;
    }
    if (createdFrom != null) {
      int c = f.createdDate().compareTo(createdFrom);
      return createdExclusive ? c > 0 : c >= 0;
    }
    return true;
  }
}
