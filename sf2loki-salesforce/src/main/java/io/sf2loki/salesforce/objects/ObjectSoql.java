package io.sf2loki.salesforce.objects;

import io.sf2loki.core.shape.TimestampParser;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;

/**
 * SOQL text of the object source (SPEC OBJ-3, OBJ-5, OBJ-6, OBJ-7, SRC-16, SRC-18): built only from
 * validated identifiers (checked here again) and escaped literals. {@code LIMIT 200} is fixed (the
 * FIELDS(ALL) cap).
 */
final class ObjectSoql {
  /** Page size of every object query (OBJ-3). */
  static final int PAGE = 200;

  private static final DateTimeFormatter LITERAL =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSS'Z'").withZone(ZoneOffset.UTC);
  private static final DateTimeFormatter DEFAULT_SINCE =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss'Z'").withZone(ZoneOffset.UTC);

  private ObjectSoql() {}

  /** An upper bound of a query: {@code <ts> <= lit} (inclusive) or {@code <ts> < lit}. */
  record Bound(String literal, boolean inclusive) {
    String clause(String ts) {
      return " AND " + ts + (inclusive ? " <= " : " < ") + literal;
    }
  }

  /**
   * OBJ-3 ascending page. {@code lastId} non-null selects the compound form.
   *
   * @param watermarkRaw stored raw watermark, normalised per SRC-16
   * @param lastId last Id of the window (a real Id), escaped per SRC-18; null = empty-window form
   * @param upper settle bound (OBJ-6) or null
   */
  static String asc(String object, String ts, String watermarkRaw, String lastId, Bound upper) {
    ObjectSettings.requireIdentifier("object", object);
    ObjectSettings.requireIdentifier("timestamp_field", ts);
    String lit = literal(watermarkRaw);
    StringBuilder q = new StringBuilder(256);
    q.append("SELECT FIELDS(ALL) FROM ").append(object).append(" WHERE ");
    if (lastId == null) {
      q.append(ts).append(" >= ").append(lit);
    } else {
      q.append('(')
          .append(ts)
          .append(" > ")
          .append(lit)
          .append(" OR (")
          .append(ts)
          .append(" = ")
          .append(lit)
          .append(" AND Id > ")
          .append(string(lastId))
          .append("))");
    }
    if (upper != null) {
      q.append(upper.clause(ts));
    }
    q.append(" ORDER BY ").append(ts).append(" ASC, Id ASC LIMIT ").append(PAGE);
    return q.toString();
  }

  /** OBJ-5 descending page: {@code <ts> >= <watermark>} plus the current upper bound. */
  static String desc(String object, String ts, String watermarkRaw, Bound upper) {
    ObjectSettings.requireIdentifier("object", object);
    ObjectSettings.requireIdentifier("timestamp_field", ts);
    StringBuilder q = new StringBuilder(200);
    q.append("SELECT FIELDS(ALL) FROM ")
        .append(object)
        .append(" WHERE ")
        .append(ts)
        .append(" >= ")
        .append(literal(watermarkRaw));
    if (upper != null) {
      q.append(upper.clause(ts));
    }
    q.append(" ORDER BY ").append(ts).append(" DESC LIMIT ").append(PAGE);
    return q.toString();
  }

  /**
   * OBJ-7 tie page at one instant, paged on the index field {@code tb}; {@code lastTb} null = first
   * page.
   */
  static String tie(String object, String ts, Instant at, String tb, String lastTb) {
    ObjectSettings.requireIdentifier("object", object);
    ObjectSettings.requireIdentifier("timestamp_field", ts);
    ObjectSettings.requireIdentifier("tiebreak_field", tb);
    StringBuilder q = new StringBuilder(220);
    q.append("SELECT FIELDS(ALL) FROM ")
        .append(object)
        .append(" WHERE ")
        .append(ts)
        .append(" = ")
        .append(literal(at));
    if (lastTb != null) {
      q.append(" AND ").append(tb).append(" < ").append(string(lastTb));
    }
    q.append(" ORDER BY ")
        .append(ts)
        .append(" DESC, ")
        .append(tb)
        .append(" DESC LIMIT ")
        .append(PAGE);
    return q.toString();
  }

  /** SRC-16: UTC {@code YYYY-MM-DDTHH:MM:SS.mmmZ}; a raw value that does not parse is unchanged. */
  static String literal(String raw) {
    Instant at = TimestampParser.parseOrNull(raw);
    return at == null ? raw : literal(at);
  }

  static String literal(Instant at) {
    return LITERAL.format(at.truncatedTo(ChronoUnit.MILLIS));
  }

  /** OBJ-2 default watermark {@code YYYY-MM-DDTHH:MM:SSZ}. */
  static String defaultSince(Instant at) {
    return DEFAULT_SINCE.format(at.truncatedTo(ChronoUnit.SECONDS));
  }

  /** SRC-18 string literal: {@code \} → {@code \\}, {@code '} → {@code \'}, single-quoted. */
  static String string(String s) {
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
