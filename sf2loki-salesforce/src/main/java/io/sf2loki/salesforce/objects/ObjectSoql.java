package io.sf2loki.salesforce.objects;

import io.sf2loki.salesforce.revisit.Revisit;
import io.sf2loki.salesforce.source.Soql;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * SOQL text of the object source (SPEC OBJ-3, OBJ-5, OBJ-6, OBJ-7, OBJ-13, SRC-16, SRC-18): built
 * only from validated identifiers (checked here again) and escaped literals. {@code LIMIT 200} is
 * fixed (the FIELDS(ALL) cap).
 */
final class ObjectSoql {
  /** Page size of every object query (OBJ-3). */
  static final int PAGE = 200;

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

  /**
   * OBJ-13 revisit listing, key fields only: ordinary objects {@code SELECT Id, <ts>[, <tb>] FROM
   * <Obj> WHERE <ts> >= <from> AND <ts> < <before> ORDER BY <ts> DESC, Id DESC LIMIT <limit>}; Big
   * Objects {@code SELECT <ts>, <tb> FROM <Obj> WHERE <ts> >= <from> AND <ts> < <before> ORDER BY
   * <ts> DESC, <tb> DESC LIMIT <limit>} (index fields only, descending, OBJ-5/OBJ-7). With an
   * exclusive start the first predicate is {@code <ts> > <from>}.
   *
   * @param withTiebreak select the tiebreak field as well on an ordinary object (its rows are keyed
   *     by it, OBJ-5); Big Objects always select it
   */
  static String revisitListing(ObjectSettings o, boolean withTiebreak, Revisit.Range r, int limit) {
    String ts = o.timestampField();
    String tb = o.tiebreakField();
    ObjectSettings.requireIdentifier("object", o.name());
    ObjectSettings.requireIdentifier("timestamp_field", ts);
    ObjectSettings.requireIdentifier("tiebreak_field", tb);
    StringBuilder q = new StringBuilder(200).append("SELECT ");
    if (o.bigObject()) {
      q.append(ts).append(", ").append(tb);
    } else {
      q.append("Id, ").append(ts);
      if (withTiebreak) {
        q.append(", ").append(tb);
      }
    }
    q.append(" FROM ")
        .append(o.name())
        .append(" WHERE ")
        .append(ts)
        .append(r.fromExclusive() ? " > " : " >= ")
        .append(literal(r.from()))
        .append(" AND ")
        .append(ts)
        .append(" < ")
        .append(literal(r.before()))
        .append(" ORDER BY ")
        .append(ts)
        .append(" DESC, ")
        .append(o.bigObject() ? tb : "Id")
        .append(" DESC LIMIT ")
        .append(limit);
    return q.toString();
  }

  /**
   * OBJ-13 full rows of listed keys (at most {@link Revisit#FETCH_CHUNK} values): {@code SELECT
   * FIELDS(ALL) FROM <Obj> WHERE <field> IN ('k1',…) LIMIT 200}, {@code field} = {@code Id} or the
   * tiebreak field; on Big Objects {@code WHERE <ts> = <at> AND <tb> IN (…)} (equality on the
   * leading index field, {@code IN} on the last, OBJ-5).
   *
   * @param at the shared timestamp of the keys (Big Objects), else null
   */
  static String revisitFetch(ObjectSettings o, String field, Instant at, List<String> keys) {
    ObjectSettings.requireIdentifier("object", o.name());
    ObjectSettings.requireIdentifier("field", field);
    if (keys.size() > Revisit.FETCH_CHUNK) {
      throw new IllegalArgumentException("at most " + Revisit.FETCH_CHUNK + " keys per fetch");
    }
    StringBuilder q = new StringBuilder(64 + keys.size() * 24);
    q.append("SELECT FIELDS(ALL) FROM ").append(o.name()).append(" WHERE ");
    if (at != null) {
      ObjectSettings.requireIdentifier("timestamp_field", o.timestampField());
      q.append(o.timestampField()).append(" = ").append(literal(at)).append(" AND ");
    }
    q.append(field).append(" IN ").append(Soql.stringList(keys)).append(" LIMIT ").append(PAGE);
    return q.toString();
  }

  /** SRC-16: UTC {@code YYYY-MM-DDTHH:MM:SS.mmmZ}; a raw value that does not parse is unchanged. */
  static String literal(String raw) {
    return Soql.datetime(raw);
  }

  static String literal(Instant at) {
    return Soql.datetime(at);
  }

  /** OBJ-2 default watermark {@code YYYY-MM-DDTHH:MM:SSZ}. */
  static String defaultSince(Instant at) {
    return DEFAULT_SINCE.format(at.truncatedTo(ChronoUnit.SECONDS));
  }

  /** SRC-18 string literal (shared implementation). */
  static String string(String s) {
    return Soql.string(s);
  }
}
