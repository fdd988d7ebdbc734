package io.sf2loki.core.transform;

import java.util.ArrayList;
import java.util.List;

/**
 * Translates one character class {@code […]} / {@code [^…]} of the portable grammar (SPEC XF-5) the
 * way Python's {@code re} reads it: a {@code ]} right after the opening bracket (or {@code ^}) is a
 * literal, {@code -} first or last is a literal, a range needs two literal ends in order. No nested
 * {@code [}, no {@code &&}, only the escapes of XF-5.
 *
 * <p>Output: a Java class of explicit code points and properties. {@code \W} and {@code \S} are
 * complements, which a Java class cannot union safely, so a class holding them becomes an
 * alternation (or, negated, look-aheads over one code point).
 */
final class ClassTranslator {
  private static final String ANY = "[\\x{0}-\\x{10FFFF}]";

  private final RegexTranslator t;
  private final List<String> positive = new ArrayList<>();
  private final List<String> complements = new ArrayList<>();

  ClassTranslator(RegexTranslator t) {
    this.t = t;
  }

  /** A class member: a single code point ({@code cp >= 0}) or a set ({@code cp < 0}). */
  private record Member(int cp, String set, boolean complement) {}

  void translate() {
    int[] cp = t.cp();
    int open = t.pos();
    t.pos(open + 1);
    boolean negate = t.peek() == '^';
    if (negate) {
      t.pos(t.pos() + 1);
    }
    boolean first = true;
    while (true) {
      if (t.pos() >= cp.length) {
        throw t.error(open, "unterminated character class");
      }
      int c = cp[t.pos()];
      if (c == ']' && !first) {
        t.pos(t.pos() + 1);
        break;
      }
      first = false;
      Member lo = member();
      if (t.peek() != '-') {
        add(lo);
        continue;
      }
      int dash = t.pos();
      t.pos(dash + 1);
      if (t.pos() >= cp.length) {
        throw t.error(open, "unterminated character class");
      }
      if (cp[t.pos()] == ']') {
        add(lo);
        positive.add(hex('-'));
        t.pos(t.pos() + 1);
        break;
      }
      Member hi = member();
      if (lo.cp < 0 || hi.cp < 0) {
        throw t.error(dash, "bad character range: a range needs a single character at each end");
      }
      if (hi.cp < lo.cp) {
        throw t.error(dash, "bad character range: end below start");
      }
      positive.add(hex(lo.cp) + "-" + hex(hi.cp));
    }
    emit(negate);
  }

  private Member member() {
    int[] cp = t.cp();
    int at = t.pos();
    int c = cp[at];
    if (c == '[') {
      throw t.error(at, "nested '[' inside a class is not portable (write \\[)");
    }
    if (c == '&' && at + 1 < cp.length && cp[at + 1] == '&') {
      throw t.error(at, "'&&' inside a class is not portable (Java reads it as intersection)");
    }
    t.pos(at + 1);
    if (c != '\\') {
      return new Member(c, null, false);
    }
    if (at + 1 >= cp.length) {
      throw t.error(at, "unterminated character class");
    }
    int e = cp[at + 1];
    t.pos(at + 2);
    return switch (e) {
      case 'd' -> new Member(-1, "\\p{Nd}", false);
      case 'D' -> new Member(-1, "\\P{Nd}", false);
      case 'w' -> new Member(-1, RegexTranslator.WORD, false);
      case 'W' -> new Member(-1, "[^" + RegexTranslator.WORD + "]", true);
      case 's' -> new Member(-1, RegexTranslator.SPACE, false);
      case 'S' -> new Member(-1, "[^" + RegexTranslator.SPACE + "]", true);
      case 't' -> new Member('\t', null, false);
      case 'n' -> new Member('\n', null, false);
      case 'r' -> new Member('\r', null, false);
      case 'b' -> throw t.error(at, "\\b inside a class (a backspace in 1.x) is not portable");
      default -> new Member(t.escapedLiteral(e, at), null, false);
    };
  }

  private void add(Member m) {
    if (m.cp >= 0) {
      positive.add(hex(m.cp));
    } else if (m.complement) {
      complements.add(m.set);
    } else {
      positive.add(m.set);
    }
  }

  private void emit(boolean negate) {
    StringBuilder out = t.out();
    String pos = positive.isEmpty() ? null : "[" + String.join("", positive) + "]";
    if (complements.isEmpty()) {
      out.append('[').append(negate ? "^" : "").append(String.join("", positive)).append(']');
    } else if (!negate) {
      List<String> alts = new ArrayList<>();
      if (pos != null) {
        alts.add(pos);
      }
      alts.addAll(complements);
      out.append("(?:").append(String.join("|", alts)).append(')');
    } else {
      out.append("(?:");
      if (pos != null) {
        out.append("(?!").append(pos).append(')');
      }
      for (String c : complements) {
        out.append("(?!").append(c).append(')');
      }
      out.append(ANY).append(')');
    }
  }

  private static String hex(int c) {
    return "\\x{" + Integer.toHexString(c) + "}";
  }
}
