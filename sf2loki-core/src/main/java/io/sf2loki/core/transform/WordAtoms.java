package io.sf2loki.core.transform;

/**
 * Source-level checks behind the one-look-around {@code \b} of {@link RegexTranslator} (SPEC XF-12,
 * XF-15): whether an atom of the pattern surely consumes a {@code \w} character. Reads the
 * pattern's code points only; conservative (false when unsure). Not thread-safe (one per pattern).
 */
final class WordAtoms {
  private final int[] cp;

  WordAtoms(int[] cp) {
    this.cp = cp;
  }

  /**
   * Whether the atom at {@code at} always consumes a \w character first: a {@link #wordAtom} with a
   * minimum of at least one, or a group ({@code (…)}, {@code (?:…)}, {@code (?P<name>…)}) with such
   * a minimum, no top-level {@code |} and such an atom first (XF-15: {@code \b} before it becomes
   * one look-behind).
   */
  boolean wordFirst(int at) {
    if (at >= cp.length) {
      return false;
    }
    if (cp[at] == '(') {
      int body = groupBody(at);
      int close = body < 0 ? -1 : groupClose(body);
      return close >= 0 && atLeastOnce(close + 1) && wordFirst(body);
    }
    int end;
    if (cp[at] == '\\') {
      end = at + 2;
    } else if (cp[at] == '[') {
      int j = at + 1;
      while (j < cp.length && cp[j] != ']') {
        j += cp[j] == '\\' ? 2 : 1;
      }
      end = j + 1;
    } else {
      end = at + 1;
    }
    return end <= cp.length && wordAtom(at, end) && atLeastOnce(end);
  }

  /**
   * Whether source {@code [from, to)} is one atom that matches only \w characters: an ASCII letter,
   * digit or {@code _}, {@code \d}, {@code \w}, or a positive class of those (ranges within 0-9,
   * A-Z or a-z). Under {@code (?i)} such letters also match only letters.
   */
  boolean wordAtom(int from, int to) {
    if (to - from == 1) {
      return asciiWord(cp[from]);
    }
    if (to - from == 2 && cp[from] == '\\') {
      return cp[from + 1] == 'd' || cp[from + 1] == 'w';
    }
    if (cp[from] != '[' || cp[to - 1] != ']' || to - from < 3 || cp[from + 1] == '^') {
      return false;
    }
    int i = from + 1;
    while (i < to - 1) {
      if (cp[i] == '\\') {
        if (i + 1 >= to - 1 || (cp[i + 1] != 'd' && cp[i + 1] != 'w')) {
          return false;
        }
        i += 2;
      } else if (!asciiWord(cp[i])) {
        return false;
      } else if (i + 2 < to - 1 && cp[i + 1] == '-') {
        if (!sameRun(cp[i], cp[i + 2])) {
          return false;
        }
        i += 3;
      } else {
        i++;
      }
    }
    return true;
  }

  /** Where the body of the group opening at {@code at} starts, or -1 for other groups. */
  private int groupBody(int at) {
    if (at + 1 < cp.length && cp[at + 1] != '?') {
      return at + 1;
    }
    if (at + 2 < cp.length && cp[at + 2] == ':') {
      return at + 3;
    }
    if (at + 3 < cp.length && cp[at + 2] == 'P' && cp[at + 3] == '<') {
      for (int i = at + 4; i < cp.length; i++) {
        if (cp[i] == '>') {
          return i + 1;
        }
      }
    }
    return -1;
  }

  /**
   * The {@code )} closing a group whose body starts at {@code body}, or -1 when the body has a
   * top-level {@code |} or the group does not close.
   */
  private int groupClose(int body) {
    int depth = 0;
    int i = body;
    while (i < cp.length) {
      int c = cp[i];
      if (c == '\\') {
        i += 2;
        continue;
      }
      if (c == '[') {
        i = classEnd(i);
        continue;
      }
      if (c == '(') {
        depth++;
      } else if (c == ')') {
        if (depth == 0) {
          return i;
        }
        depth--;
      } else if (c == '|' && depth == 0) {
        return -1;
      }
      i++;
    }
    return -1;
  }

  /**
   * The index after the class opening at {@code at} (a {@code ]} first or after {@code ^} is a
   * member).
   */
  private int classEnd(int at) {
    int j = at + 1;
    if (j < cp.length && cp[j] == '^') {
      j++;
    }
    if (j < cp.length && cp[j] == ']') {
      j++;
    }
    while (j < cp.length && cp[j] != ']') {
      j += cp[j] == '\\' ? 2 : 1;
    }
    return j + 1;
  }

  /** Whether the quantifier (if any) at {@code at} has a minimum of at least one. */
  boolean atLeastOnce(int at) {
    if (at >= cp.length) {
      return true;
    }
    int c = cp[at];
    if (c == '*' || c == '?') {
      return false;
    }
    if (c != '{') {
      return true;
    }
    int i = at + 1;
    long min = 0;
    boolean any = false;
    while (i < cp.length && cp[i] >= '0' && cp[i] <= '9') {
      min = Math.min(min * 10 + (cp[i] - '0'), Integer.MAX_VALUE);
      any = true;
      i++;
    }
    return any && min >= 1;
  }

  private static boolean asciiWord(int c) {
    return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
  }

  private static boolean sameRun(int lo, int hi) {
    return (lo >= '0' && hi <= '9') || (lo >= 'A' && hi <= 'Z') || (lo >= 'a' && hi <= 'z');
  }
}
