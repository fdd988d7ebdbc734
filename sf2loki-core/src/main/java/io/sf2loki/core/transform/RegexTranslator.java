package io.sf2loki.core.transform;

import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Recursive-descent validator and translator of the portable 1.x regex grammar (SPEC XF-5, XF-12)
 * into a {@link java.util.regex.Pattern} source with Python {@code re} semantics. One instance per
 * pattern; not thread-safe.
 *
 * <p>Every construct is emitted explicitly so that no Java flag changes its meaning: literals as
 * {@code \x{H}}, {@code \d \w \s} as the Unicode classes Python uses, {@code \b \B} as look-arounds
 * over that {@code \w}, {@code ^ $ .} as LF-only constructs, {@code \Z} as {@code \z}, named groups
 * renamed to {@code xfN} (Java names allow no {@code _}). Only {@code (?i)} maps to Java flags
 * ({@code CASE_INSENSITIVE | UNICODE_CASE}).
 */
final class RegexTranslator {
  static final String WORD = "\\p{L}\\p{N}_";
  static final String SPACE = "\\x{1C}-\\x{1F}\\p{IsWhite_Space}";
  private static final String WORD_CLASS = "[" + WORD + "]";
  private static final String ANY = "[\\x{0}-\\x{10FFFF}]";
  private static final String METAS = ".^$*+?{}[]\\|()";

  /** Largest repeat count accepted (XF-12). */
  static final int MAX_REPEAT = 65535;

  private final int[] cp;
  private final WordAtoms words;
  private int pos;
  private final StringBuilder out = new StringBuilder();
  private boolean ignoreCase;
  private boolean multiline;
  private boolean dotAll;
  private int groups;
  private final Map<String, Integer> names = new LinkedHashMap<>();
  private final Map<String, String> javaNames = new LinkedHashMap<>();
  private final BitSet open = new BitSet();

  /** The atom just parsed can match the empty string (anchors, groups, back-references). */
  private boolean atomNullable;

  /** The atom just emitted always consumed at least one \w character, its last one included. */
  private boolean prevWord;

  private RegexTranslator(String pattern) {
    this.cp = pattern.codePoints().toArray();
    this.words = new WordAtoms(cp);
  }

  /** The translation of one pattern. */
  record Result(String javaRegex, boolean ignoreCase, int groupCount, Map<String, Integer> names) {}

  static Result translate(String pattern) {
    RegexTranslator t = new RegexTranslator(pattern);
    t.flags();
    t.alternation();
    if (t.pos < t.cp.length) {
      throw t.error("unbalanced ')'");
    }
    return new Result(t.out.toString(), t.ignoreCase, t.groups, Map.copyOf(t.names));
  }

  // ---- structure

  private void flags() {
    while (startsWith("(?")) {
      int end = pos + 2;
      while (end < cp.length && "ims".indexOf(cp[end]) >= 0) {
        end++;
      }
      if (end == pos + 2 || end >= cp.length || cp[end] != ')') {
        return;
      }
      for (int i = pos + 2; i < end; i++) {
        switch (cp[i]) {
          case 'i' -> ignoreCase = true;
          case 'm' -> multiline = true;
          default -> dotAll = true;
        }
      }
      pos = end + 1;
    }
  }

  /** Returns whether the alternation can match the empty string. */
  private boolean alternation() {
    boolean nullable = sequence();
    while (peek() == '|') {
      pos++;
      out.append('|');
      nullable |= sequence();
    }
    return nullable;
  }

  private boolean sequence() {
    prevWord = false;
    boolean nullable = true;
    while (pos < cp.length && peek() != '|' && peek() != ')') {
      int start = pos;
      atomNullable = false;
      boolean quantifiable = atom();
      boolean thisNullable = atomNullable || !quantifiable;
      int atomEnd = pos;
      long min = quantifier(start, quantifiable, thisNullable && cp[start] == '(');
      prevWord = quantifiable && words.wordAtom(start, atomEnd) && words.atLeastOnce(atomEnd);
      nullable &= min == 0 || thisNullable;
    }
    return nullable;
  }

  /** Emits one atom; returns whether a quantifier may follow it. */
  private boolean atom() {
    int c = cp[pos];
    switch (c) {
      case '(' -> {
        group();
        return true;
      }
      case '[' -> {
        new ClassTranslator(this).translate();
        return true;
      }
      case '.' -> {
        pos++;
        out.append(dotAll ? ANY : "[^\\n]");
        return true;
      }
      case '^' -> {
        pos++;
        out.append(multiline ? "(?<![^\\n])" : "\\A");
        return false;
      }
      case '$' -> {
        pos++;
        out.append(multiline ? "(?=\\n|\\z)" : "(?=\\n?\\z)");
        return false;
      }
      case '\\' -> {
        return escape();
      }
      case '*', '+', '?' -> throw error("nothing to repeat before '" + (char) c + "'");
      case '{' ->
          throw error("'{' that does not start a valid quantifier (write \\{ for a literal brace)");
      default -> {
        pos++;
        literal(c);
        return true;
      }
    }
  }

  private void group() {
    int start = pos;
    pos++;
    if (peek() != '?') {
      capture(null, start);
      return;
    }
    if (startsWith("?:")) {
      pos += 2;
      out.append("(?:");
      boolean nullable = alternation();
      close(start);
      atomNullable = nullable;
    } else if (startsWith("?P<")) {
      pos += 3;
      String name = name('>');
      if (names.containsKey(name)) {
        throw error(start, "group name '" + name + "' defined twice");
      }
      capture(name, start);
    } else if (startsWith("?P=")) {
      pos += 3;
      String name = name(')');
      Integer n = names.get(name);
      if (n == null) {
        throw error(start, "back-reference to unknown group '" + name + "'");
      }
      if (open.get(n)) {
        throw error(start, "back-reference to group '" + name + "' inside that group");
      }
      out.append("(?:\\k<").append(javaNames.get(name)).append(">)");
      atomNullable = true;
    } else {
      throw error(start, unsupportedGroup());
    }
  }

  private void capture(String name, int start) {
    int n = ++groups;
    if (name != null) {
      names.put(name, n);
      javaNames.put(name, "xf" + n);
      out.append("(?<xf").append(n).append('>');
    } else {
      out.append('(');
    }
    open.set(n);
    boolean nullable = alternation();
    close(start);
    open.clear(n);
    atomNullable = nullable;
  }

  private void close(int start) {
    if (peek() != ')') {
      throw error(start, "missing ')' for the group opened here");
    }
    pos++;
    out.append(')');
  }

  private String unsupportedGroup() {
    int c = pos + 1 < cp.length ? cp[pos + 1] : -1;
    if (startsWith("?=") || startsWith("?!") || startsWith("?<=") || startsWith("?<!")) {
      return "look-around is not portable";
    }
    if (c == 'i' || c == 'm' || c == 's' || c == 'x' || c == 'a' || c == 'u' || c == 'L') {
      return "inline flags are allowed only as (?i), (?m), (?s) at the start of the pattern";
    }
    if (c == '<') {
      return "named groups are written (?P<name>…) in the portable grammar";
    }
    if (c == '>') {
      return "atomic groups are not portable";
    }
    if (c == '#') {
      return "comments (?#…) are not portable";
    }
    if (c == '(') {
      return "conditional groups are not portable";
    }
    return "group syntax '(?" + (c < 0 ? "" : Character.toString(c)) + "' is not portable";
  }

  /** An ASCII identifier up to {@code end} (XF-12); consumes the terminator. */
  private String name(int end) {
    int start = pos;
    while (pos < cp.length && cp[pos] != end) {
      int c = cp[pos];
      boolean ok =
          c < 128 && (Character.isLetter(c) || c == '_' || (pos > start && Character.isDigit(c)));
      if (!ok) {
        throw error("group names must be ASCII identifiers [A-Za-z_][A-Za-z0-9_]* (XF-12)");
      }
      pos++;
    }
    if (pos >= cp.length) {
      throw error(start, "unterminated group name");
    }
    if (pos == start) {
      throw error(start, "missing group name");
    }
    pos++;
    return new String(cp, start, pos - 1 - start);
  }

  // ---- quantifiers

  /**
   * Parses and emits the quantifier after an atom, if any.
   *
   * @return its minimum count, or -1 when there is none
   */
  private long quantifier(int atomStart, boolean quantifiable, boolean nullableGroup) {
    if (pos >= cp.length) {
      return -1;
    }
    int c = cp[pos];
    if (c != '*' && c != '+' && c != '?' && c != '{') {
      return -1;
    }
    if (!quantifiable) {
      throw error("nothing to repeat: an anchor cannot take a quantifier");
    }
    long min;
    if (c == '{') {
      min = braces();
    } else {
      pos++;
      out.append((char) c);
      min = c == '+' ? 1 : 0;
    }
    if (nullableGroup && min >= 2) {
      throw error(
          atomStart,
          "a group that can match the empty string cannot take a minimum repeat of 2 or more"
              + " (1.x and Java capture differently; XF-12)");
    }
    if (peek() == '?') {
      pos++;
      out.append('?');
    } else if (peek() == '+') {
      throw error("possessive quantifiers are not portable");
    }
    int n = peek();
    if (n == '*' || n == '+' || n == '?' || n == '{') {
      throw error("multiple repeat: a quantifier cannot follow a quantifier");
    }
    return min;
  }

  private long braces() {
    int start = pos;
    pos++;
    long min = digits();
    long max = min;
    boolean comma = peek() == ',';
    if (comma) {
      pos++;
      max = digits();
    }
    if (min < 0 || peek() != '}') {
      throw error(
          start, "'{' that does not start a valid quantifier (write \\{ for a literal brace)");
    }
    pos++;
    if (min > MAX_REPEAT || max > MAX_REPEAT) {
      throw error(start, "repeat count above " + MAX_REPEAT + " (XF-12)");
    }
    if (max >= 0 && max < min) {
      throw error(start, "repeat range {" + min + "," + max + "} has max below min");
    }
    out.append('{').append(min);
    if (comma) {
      out.append(',');
      if (max >= 0) {
        out.append(max);
      }
    }
    out.append('}');
    return min;
  }

  /** Decimal digits (ASCII), or -1 when there are none. */
  private long digits() {
    int start = pos;
    long v = 0;
    while (pos < cp.length && cp[pos] >= '0' && cp[pos] <= '9') {
      v = Math.min(v * 10 + (cp[pos] - '0'), Integer.MAX_VALUE);
      pos++;
    }
    return pos == start ? -1 : v;
  }

  // ---- escapes

  private boolean escape() {
    int start = pos;
    pos++;
    if (pos >= cp.length) {
      throw error(start, "trailing backslash");
    }
    int c = cp[pos++];
    switch (c) {
      case 'd' -> out.append("\\p{Nd}");
      case 'D' -> out.append("\\P{Nd}");
      case 'w' -> out.append(WORD_CLASS);
      case 'W' -> out.append("[^").append(WORD).append(']');
      case 's' -> out.append('[').append(SPACE).append(']');
      case 'S' -> out.append("[^").append(SPACE).append(']');
      case 't' -> literal('\t');
      case 'n' -> literal('\n');
      case 'r' -> literal('\r');
      case 'A' -> {
        out.append("\\A");
        return false;
      }
      case 'Z' -> {
        out.append("\\z");
        return false;
      }
      case 'b' -> {
        boolean nextWord = words.wordFirst(pos);
        if (prevWord && nextWord) {
          out.append("(?!)");
        } else if (prevWord) {
          out.append("(?!").append(WORD_CLASS).append(')');
        } else if (nextWord) {
          out.append("(?<!").append(WORD_CLASS).append(')');
        } else {
          out.append("(?:(?<=").append(WORD_CLASS).append(")(?!").append(WORD_CLASS);
          out.append(")|(?<!").append(WORD_CLASS).append(")(?=").append(WORD_CLASS).append("))");
        }
        return false;
      }
      case 'B' -> {
        out.append("(?:(?!\\A\\z)(?:(?<=").append(WORD_CLASS).append(")(?=").append(WORD_CLASS);
        out.append(")|(?<!").append(WORD_CLASS).append(")(?!").append(WORD_CLASS).append(")))");
        return false;
      }
      default -> literal(escapedLiteral(c, start));
    }
    return true;
  }

  /** The literal a punctuation escape stands for; anything else is outside the grammar. */
  int escapedLiteral(int c, int start) {
    if (c < 128 && !Character.isLetterOrDigit(c) && c >= ' ' && c != 127) {
      return c;
    }
    if (c >= '0' && c <= '9') {
      throw error(
          start,
          "numbered back-references and octal escapes (\\"
              + (char) c
              + ") are not portable; use (?P<name>…) and (?P=name)");
    }
    if (c == 'p' || c == 'P') {
      throw error(start, "property classes (\\" + (char) c + ") are not portable");
    }
    String shown = c < 128 ? Character.toString(c) : String.format("u%04X", c);
    throw error(start, "escape \\" + shown + " is not portable");
  }

  // ---- shared helpers (also used by ClassTranslator)

  void literal(int c) {
    if (c < 128 && Character.isLetterOrDigit(c)) {
      out.append((char) c);
    } else {
      out.append("\\x{").append(Integer.toHexString(c)).append('}');
    }
  }

  StringBuilder out() {
    return out;
  }

  int[] cp() {
    return cp;
  }

  int pos() {
    return pos;
  }

  void pos(int p) {
    pos = p;
  }

  int peek() {
    return pos < cp.length ? cp[pos] : -1;
  }

  private boolean startsWith(String s) {
    if (pos + s.length() > cp.length) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      if (cp[pos + i] != s.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  static boolean isMeta(int c) {
    return c < 128 && METAS.indexOf(c) >= 0;
  }

  PortableRegexException error(String what) {
    return error(pos, what);
  }

  PortableRegexException error(int at, String what) {
    return new PortableRegexException(at, what);
  }
}
