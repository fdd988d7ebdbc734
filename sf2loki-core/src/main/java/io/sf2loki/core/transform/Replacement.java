package io.sf2loki.core.transform;

import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.regex.MatchResult;

/**
 * A {@code regex_replace} replacement in the 1.x template dialect (SPEC XF-5): {@code \1}…{@code
 * \99}, {@code \g<n>} and {@code \g<name>} are group references (an unmatched group inserts
 * nothing), {@code \n} is a line feed, {@code \t} a tab, {@code \\} a backslash, {@code $} and
 * every other character are literal; any other backslash escape (octal {@code \0} and three-digit
 * octal forms such as {@code \101} included) is refused. Parsed against its pattern, so a reference
 * to a group the pattern lacks is refused at load, as 1.x did. Immutable and thread-safe.
 */
public final class Replacement {
  /** Literal text parts; {@code groups[i] >= 0} means part i is that group instead. */
  private final String[] literals;

  private final int[] groups;
  private final boolean literalOnly;

  private Replacement(List<String> literals, List<Integer> groups) {
    this.literals = literals.toArray(String[]::new);
    this.groups = groups.stream().mapToInt(Integer::intValue).toArray();
    boolean lit = true;
    for (int g : this.groups) {
      lit &= g < 0;
    }
    this.literalOnly = lit;
  }

  /**
   * Parses a replacement.
   *
   * @param template the configured replacement
   * @param regex the rule's pattern (group count and names)
   * @return the parsed replacement
   * @throws PortableRegexException when the template uses an escape outside XF-5 or names a group
   *     the pattern does not have; the position is a code-point offset into the template
   */
  public static Replacement parse(String template, PortableRegex regex) {
    int[] cp = template.codePoints().toArray();
    List<String> lits = new ArrayList<>();
    List<Integer> groups = new ArrayList<>();
    StringBuilder lit = new StringBuilder();
    int i = 0;
    while (i < cp.length) {
      int c = cp[i];
      if (c != '\\') {
        lit.appendCodePoint(c);
        i++;
        continue;
      }
      int at = i;
      if (i + 1 >= cp.length) {
        throw new PortableRegexException(at, "trailing backslash in replacement");
      }
      int e = cp[i + 1];
      i += 2;
      int group = -1;
      switch (e) {
        case 'n' -> lit.append('\n');
        case 't' -> lit.append('\t');
        case '\\' -> lit.append('\\');
        case 'g' -> {
          int close = indexOf(cp, '>', i);
          if (i >= cp.length || cp[i] != '<' || close < 0) {
            throw new PortableRegexException(at, "\\g must be written \\g<n> or \\g<name>");
          }
          group = reference(new String(cp, i + 1, close - i - 1), regex, at);
          i = close + 1;
        }
        default -> {
          if (e < '1' || e > '9') {
            throw new PortableRegexException(at, badEscape(e));
          }
          int n = e - '0';
          if (i < cp.length && cp[i] >= '0' && cp[i] <= '9') {
            int d2 = cp[i];
            if (e <= '7'
                && d2 <= '7'
                && i + 1 < cp.length
                && cp[i + 1] >= '0'
                && cp[i + 1] <= '7') {
              throw new PortableRegexException(
                  at, "three-digit octal escapes are not portable; write \\g<n>");
            }
            n = n * 10 + (d2 - '0');
            i++;
          }
          group = checked(n, regex, at);
        }
      }
      if (group >= 0) {
        lits.add(lit.toString());
        groups.add(-1);
        lits.add(null);
        groups.add(group);
        lit.setLength(0);
      }
    }
    lits.add(lit.toString());
    groups.add(-1);
    return new Replacement(lits, groups);
  }

  private static int reference(String ref, PortableRegex regex, int at) {
    if (!ref.isEmpty() && ref.chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
      return checked(ref.length() > 5 ? Integer.MAX_VALUE : Integer.parseInt(ref), regex, at);
    }
    OptionalInt n = regex.groupNumber(ref);
    if (n.isEmpty()) {
      throw new PortableRegexException(at, "unknown group name '" + ref + "' in replacement");
    }
    return n.getAsInt();
  }

  private static int checked(int n, PortableRegex regex, int at) {
    if (n > regex.groupCount()) {
      throw new PortableRegexException(
          at,
          "invalid group reference " + n + ": the pattern has " + regex.groupCount() + " group(s)");
    }
    return n;
  }

  private static String badEscape(int e) {
    if (e == '0') {
      return "octal escape \\0 is not portable";
    }
    String shown = e < 128 ? Character.toString(e) : String.format("u%04X", e);
    return "escape \\"
        + shown
        + " is not allowed in a replacement (only \\1…\\99, \\g<…>, \\n,"
        + " \\t, \\\\)";
  }

  private static int indexOf(int[] cp, int c, int from) {
    for (int i = from; i < cp.length; i++) {
      if (cp[i] == c) {
        return i;
      }
    }
    return -1;
  }

  /** True when the replacement references no group. */
  public boolean isLiteral() {
    return literalOnly;
  }

  /** Appends the replacement for one match of {@code text}. */
  void appendTo(StringBuilder sb, CharSequence text, MatchResult m) {
    for (int i = 0; i < literals.length; i++) {
      int g = groups[i];
      if (g < 0) {
        sb.append(literals[i]);
      } else {
        int s = m.start(g);
        if (s >= 0) {
          sb.append(text, s, m.end(g));
        }
      }
    }
  }
}
