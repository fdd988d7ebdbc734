package io.sf2loki.sim.org;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoField;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A parsed SOQL query against a simulated object (SPEC OBJ-3, OBJ-5, OBJ-7, FEAT-18). Grammar:
 *
 * <pre>
 * SELECT FIELDS(ALL) | f1, f2, ... FROM Obj
 *   [WHERE expr]          expr: term (OR term)*; term: primary (AND primary)*
 *                         primary: ( expr ) | f op value | f [NOT] IN ( value, ... )
 *                         op: = != &lt;&gt; &lt; &lt;= &gt; &gt;=; value: 'string' | datetime | number | NULL
 *   [ORDER BY f [ASC|DESC] [, ...]]
 *   [LIMIT n]
 * </pre>
 *
 * Anything else is {@code 400 MALFORMED_QUERY}. {@code FIELDS(ALL)} needs {@code LIMIT} ≤ 200, as
 * in Salesforce.
 *
 * @param fieldsAll whether {@code FIELDS(ALL)} was selected
 * @param fields explicit field list (empty with FIELDS(ALL))
 * @param from object name as written
 * @param where filter, or null
 * @param orderBy sort items in order
 * @param limit LIMIT or -1
 */
record ObjectQuery(
    boolean fieldsAll,
    List<String> fields,
    String from,
    Expr where,
    List<OrderItem> orderBy,
    int limit) {

  /** One ORDER BY item; {@code explicitDirection} false means the default ASC. */
  record OrderItem(String field, boolean descending, boolean explicitDirection) {}

  /** A boolean filter over a record's field values. */
  sealed interface Expr permits And, Or, Compare, In {}

  record And(List<Expr> parts) implements Expr {}

  record Or(List<Expr> parts) implements Expr {}

  /** {@code field op value}; value is a String, Instant, BigDecimal or null. */
  record Compare(String field, String op, Object value) implements Expr {}

  record In(String field, boolean negated, List<Object> values) implements Expr {}

  private static final DateTimeFormatter DT =
      new DateTimeFormatterBuilder()
          .appendPattern("uuuu-MM-dd'T'HH:mm:ss")
          .optionalStart()
          .appendFraction(ChronoField.NANO_OF_SECOND, 1, 9, true)
          .optionalEnd()
          .optionalStart()
          .appendLiteral('Z')
          .optionalEnd()
          .optionalStart()
          .appendOffset("+HH:MM", "Z")
          .optionalEnd()
          .optionalStart()
          .appendOffset("+HHMM", "Z")
          .optionalEnd()
          .toFormatter(Locale.ROOT);

  /** The FROM object of a query, or null when the text has no recognisable FROM. */
  static String fromObject(String soql) {
    if (soql == null) {
      return null;
    }
    var m =
        java.util.regex.Pattern.compile("(?is)\\bFROM\\s+([A-Za-z_][A-Za-z0-9_]*)").matcher(soql);
    return m.find() ? m.group(1) : null;
  }

  /**
   * Parses a query.
   *
   * @throws SoqlRejection 400 MALFORMED_QUERY on any syntax outside the grammar
   */
  static ObjectQuery parse(String soql) throws SoqlRejection {
    if (soql == null) {
      throw malformed("missing q");
    }
    return new Parser(tokenize(soql)).query();
  }

  /** Whether the record's values satisfy the filter. */
  static boolean matches(Expr e, Map<String, Object> values) {
    if (e == null) {
      return true;
    }
    return switch (e) {
      case And a -> a.parts().stream().allMatch(p -> matches(p, values));
      case Or o -> o.parts().stream().anyMatch(p -> matches(p, values));
      case Compare c -> compare(get(values, c.field()), c.op(), c.value());
      case In in -> {
        Object v = get(values, in.field());
        boolean any = in.values().stream().anyMatch(x -> v != null && cmp(v, x) == 0);
        yield in.negated() ? !any : any;
      }
    };
  }

  /** A comparator over record values for the ORDER BY list (nulls first ASC, last DESC). */
  static Comparator<Map<String, Object>> comparator(List<OrderItem> items) {
    Comparator<Map<String, Object>> c = (a, b) -> 0;
    for (OrderItem it : items) {
      Comparator<Map<String, Object>> one =
          (a, b) -> {
            Object x = get(a, it.field());
            Object y = get(b, it.field());
            if (x == null || y == null) {
              return x == y ? 0 : x == null ? -1 : 1;
            }
            return cmp(x, y);
          };
      c = c.thenComparing(it.descending() ? one.reversed() : one);
    }
    return c;
  }

  /** Case-insensitive field lookup (SOQL field names are case-insensitive). */
  static Object get(Map<String, Object> values, String field) {
    Object v = values.get(field);
    if (v != null || values.containsKey(field)) {
      return v;
    }
    for (var e : values.entrySet()) {
      if (e.getKey().equalsIgnoreCase(field)) {
        return e.getValue();
      }
    }
    return null;
  }

  private static boolean compare(Object v, String op, Object lit) {
    if (lit == null) {
      return switch (op) {
        case "=" -> v == null;
        case "!=", "<>" -> v != null;
        default -> false;
      };
    }
    if (v == null) {
      return op.equals("!=") || op.equals("<>");
    }
    int c = cmp(v, lit);
    return switch (op) {
      case "=" -> c == 0;
      case "!=", "<>" -> c != 0;
      case "<" -> c < 0;
      case "<=" -> c <= 0;
      case ">" -> c > 0;
      case ">=" -> c >= 0;
      default -> false;
    };
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static int cmp(Object a, Object b) {
    if (a instanceof Number x && b instanceof Number y) {
      return new BigDecimal(x.toString()).compareTo(new BigDecimal(y.toString()));
    }
    if (a instanceof Instant || b instanceof Instant) {
      if (a instanceof Instant x && b instanceof Instant y) {
        return x.compareTo(y);
      }
      return String.valueOf(a).compareTo(String.valueOf(b));
    }
    if (a instanceof Comparable ca && a.getClass() == b.getClass()) {
      return ca.compareTo(b);
    }
    return String.valueOf(a).compareTo(String.valueOf(b));
  }

  // ------------------------------------------------------------------ tokens

  private enum T {
    IDENT,
    STRING,
    DATETIME,
    NUMBER,
    OP,
    LPAREN,
    RPAREN,
    COMMA,
    EOF
  }

  private record Tok(T type, String text, Object value) {}

  private static List<Tok> tokenize(String s) throws SoqlRejection {
    List<Tok> out = new ArrayList<>();
    int i = 0;
    int n = s.length();
    while (i < n) {
      char c = s.charAt(i);
      if (Character.isWhitespace(c)) {
        i++;
      } else if (c == '(') {
        out.add(new Tok(T.LPAREN, "(", null));
        i++;
      } else if (c == ')') {
        out.add(new Tok(T.RPAREN, ")", null));
        i++;
      } else if (c == ',') {
        out.add(new Tok(T.COMMA, ",", null));
        i++;
      } else if (c == '\'') {
        i = stringLiteral(s, i, out);
      } else if ("=!<>".indexOf(c) >= 0) {
        String two = i + 1 < n ? s.substring(i, i + 2) : "";
        if (two.equals("<=") || two.equals(">=") || two.equals("!=") || two.equals("<>")) {
          out.add(new Tok(T.OP, two, null));
          i += 2;
        } else if (c == '!') {
          throw malformed("unexpected '!'");
        } else {
          out.add(new Tok(T.OP, String.valueOf(c), null));
          i++;
        }
      } else if (Character.isDigit(c) || c == '-') {
        int j = i + 1;
        while (j < n && "0123456789-:.TZ+".indexOf(s.charAt(j)) >= 0) {
          j++;
        }
        out.add(numberOrDateTime(s.substring(i, j)));
        i = j;
      } else if (Character.isLetter(c) || c == '_') {
        int j = i + 1;
        while (j < n && (Character.isLetterOrDigit(s.charAt(j)) || s.charAt(j) == '_')) {
          j++;
        }
        out.add(new Tok(T.IDENT, s.substring(i, j), null));
        i = j;
      } else {
        throw malformed("unexpected character '" + c + "'");
      }
    }
    out.add(new Tok(T.EOF, "", null));
    return out;
  }

  /**
   * Reads the string literal whose opening quote is at {@code start} ({@code \\} escapes the next
   * character); adds its token to {@code out} and returns the index after the closing quote.
   */
  private static int stringLiteral(String s, int start, List<Tok> out) throws SoqlRejection {
    int n = s.length();
    StringBuilder b = new StringBuilder();
    int i = start + 1;
    boolean closed = false;
    while (i < n) {
      char d = s.charAt(i);
      if (d == '\\' && i + 1 < n) {
        b.append(s.charAt(i + 1));
        i += 2;
      } else if (d == '\'') {
        closed = true;
        i++;
        break;
      } else {
        b.append(d);
        i++;
      }
    }
    if (!closed) {
      throw malformed("unterminated string literal");
    }
    out.add(new Tok(T.STRING, b.toString(), b.toString()));
    return i;
  }

  /** A datetime literal ({@code yyyy-MM-ddTHH:mm:ss...}, UTC when no offset) or a number. */
  private static Tok numberOrDateTime(String word) throws SoqlRejection {
    if (word.length() >= 19 && word.charAt(4) == '-' && word.charAt(10) == 'T') {
      try {
        Instant inst;
        var t = DT.parseBest(word, OffsetDateTime::from, java.time.LocalDateTime::from);
        inst =
            t instanceof OffsetDateTime odt
                ? odt.toInstant()
                : ((java.time.LocalDateTime) t).toInstant(java.time.ZoneOffset.UTC);
        return new Tok(T.DATETIME, word, inst);
      } catch (DateTimeParseException e) {
        throw malformed("invalid datetime literal " + word);
      }
    }
    try {
      return new Tok(T.NUMBER, word, new BigDecimal(word));
    } catch (NumberFormatException e) {
      throw malformed("unexpected token " + word);
    }
  }

  static SoqlRejection malformed(String msg) {
    return new SoqlRejection(400, "MALFORMED_QUERY", msg);
  }

  // ------------------------------------------------------------------ parser

  private static final class Parser {
    private final List<Tok> toks;
    private int p;

    Parser(List<Tok> toks) {
      this.toks = toks;
    }

    ObjectQuery query() throws SoqlRejection {
      keyword("SELECT");
      boolean all = false;
      List<String> fields = new ArrayList<>();
      if (peekKeyword("FIELDS")) {
        p++;
        expect(T.LPAREN);
        keyword("ALL");
        expect(T.RPAREN);
        all = true;
      } else {
        fields.add(ident());
        while (peek().type() == T.COMMA) {
          p++;
          fields.add(ident());
        }
      }
      keyword("FROM");
      String from = ident();
      Expr where = null;
      if (peekKeyword("WHERE")) {
        p++;
        where = expr();
      }
      List<OrderItem> order = new ArrayList<>();
      if (peekKeyword("ORDER")) {
        p++;
        keyword("BY");
        do {
          if (!order.isEmpty()) {
            p++;
          }
          String f = ident();
          boolean desc = false;
          boolean explicit = false;
          if (peekKeyword("ASC")) {
            p++;
            explicit = true;
          } else if (peekKeyword("DESC")) {
            p++;
            desc = true;
            explicit = true;
          }
          order.add(new OrderItem(f, desc, explicit));
        } while (peek().type() == T.COMMA);
      }
      int limit = -1;
      if (peekKeyword("LIMIT")) {
        p++;
        Tok t = next();
        if (t.type() != T.NUMBER) {
          throw malformed("LIMIT needs a number");
        }
        limit = ((BigDecimal) t.value()).intValueExact();
      }
      if (peek().type() != T.EOF) {
        throw malformed("unexpected token '" + peek().text() + "'");
      }
      if (all && (limit < 0 || limit > 200)) {
        throw malformed("The SOQL FIELDS function must have a LIMIT of at most 200");
      }
      return new ObjectQuery(all, List.copyOf(fields), from, where, List.copyOf(order), limit);
    }

    private Expr expr() throws SoqlRejection {
      List<Expr> parts = new ArrayList<>();
      parts.add(term());
      while (peekKeyword("OR")) {
        p++;
        parts.add(term());
      }
      return parts.size() == 1 ? parts.getFirst() : new Or(List.copyOf(parts));
    }

    private Expr term() throws SoqlRejection {
      List<Expr> parts = new ArrayList<>();
      parts.add(primary());
      while (peekKeyword("AND")) {
        p++;
        parts.add(primary());
      }
      return parts.size() == 1 ? parts.getFirst() : new And(List.copyOf(parts));
    }

    private Expr primary() throws SoqlRejection {
      if (peek().type() == T.LPAREN) {
        p++;
        Expr e = expr();
        expect(T.RPAREN);
        return e;
      }
      String field = ident();
      boolean negated = false;
      if (peekKeyword("NOT")) {
        p++;
        negated = true;
        if (!peekKeyword("IN")) {
          throw malformed("NOT must be followed by IN");
        }
      }
      if (peekKeyword("IN")) {
        p++;
        expect(T.LPAREN);
        List<Object> vals = new ArrayList<>();
        vals.add(value());
        while (peek().type() == T.COMMA) {
          p++;
          vals.add(value());
        }
        expect(T.RPAREN);
        return new In(field, negated, vals);
      }
      Tok op = next();
      if (op.type() != T.OP) {
        throw malformed("expected an operator after " + field);
      }
      return new Compare(field, op.text(), value());
    }

    private Object value() throws SoqlRejection {
      Tok t = next();
      return switch (t.type()) {
        case STRING, DATETIME, NUMBER -> t.value();
        case IDENT -> {
          if (t.text().equalsIgnoreCase("NULL")) {
            yield null;
          }
          if (t.text().equalsIgnoreCase("TRUE") || t.text().equalsIgnoreCase("FALSE")) {
            yield Boolean.valueOf(t.text().toLowerCase(Locale.ROOT));
          }
          throw malformed("unexpected value " + t.text());
        }
        default -> throw malformed("unexpected value '" + t.text() + "'");
      };
    }

    private String ident() throws SoqlRejection {
      Tok t = next();
      if (t.type() != T.IDENT) {
        throw malformed("expected an identifier, got '" + t.text() + "'");
      }
      return t.text();
    }

    private void keyword(String kw) throws SoqlRejection {
      Tok t = next();
      if (t.type() != T.IDENT || !t.text().equalsIgnoreCase(kw)) {
        throw malformed("expected " + kw + ", got '" + t.text() + "'");
      }
    }

    private boolean peekKeyword(String kw) {
      Tok t = peek();
      return t.type() == T.IDENT && t.text().equalsIgnoreCase(kw);
    }

    private void expect(T type) throws SoqlRejection {
      Tok t = next();
      if (t.type() != type) {
        throw malformed("expected " + type + ", got '" + t.text() + "'");
      }
    }

    private Tok peek() {
      return toks.get(p);
    }

    private Tok next() {
      Tok t = toks.get(p);
      if (t.type() != T.EOF) {
        p++;
      }
      return t;
    }
  }
}
