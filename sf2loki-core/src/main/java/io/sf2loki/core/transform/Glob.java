package io.sf2loki.core.transform;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * A whole-string, case-sensitive glob (SPEC XF-11) with the meaning of 1.x's {@code
 * fnmatch.fnmatchcase}: {@code *} any run of characters including {@code /}, {@code ?} one
 * character (code point), {@code [seq]} / {@code [!seq]} one character in / not in the set, where
 * {@code -} between two characters is a range (a reversed range is empty, {@code -} first or last
 * is literal) and a {@code ]} right after {@code [} or {@code [!} is a member; an unterminated
 * {@code [} is literal, as is every other character (no escapes). Immutable and thread-safe.
 */
public final class Glob {
  private final String source;
  private final Pattern pattern;

  private Glob(String source, Pattern pattern) {
    this.source = source;
    this.pattern = pattern;
  }

  /**
   * @param glob the glob text; any string is a valid glob
   * @return the compiled glob
   */
  public static Glob compile(String glob) {
    return new Glob(glob, toPattern(glob));
  }

  /** True iff the glob matches the whole of {@code text}. */
  public boolean matches(CharSequence text) {
    return pattern.matcher(text).matches();
  }

  /** The glob as written. */
  public String source() {
    return source;
  }

  @Override
  public String toString() {
    return source;
  }

  /** The glob as a Java pattern to use with {@code matcher(text).matches()}. */
  public static Pattern toPattern(String glob) {
    int[] p = glob.codePoints().toArray();
    StringBuilder re = new StringBuilder();
    int i = 0;
    while (i < p.length) {
      int c = p[i++];
      if (c == '*') {
        re.append("[\\x{0}-\\x{10FFFF}]*");
      } else if (c == '?') {
        re.append("[\\x{0}-\\x{10FFFF}]");
      } else if (c == '[') {
        int j = i;
        if (j < p.length && p[j] == '!') {
          j++;
        }
        if (j < p.length && p[j] == ']') {
          j++;
        }
        while (j < p.length && p[j] != ']') {
          j++;
        }
        if (j >= p.length) {
          hex(re, '[');
        } else {
          set(re, p, i, j);
          i = j + 1;
        }
      } else {
        hex(re, c);
      }
    }
    return Pattern.compile(re.toString());
  }

  /** The set {@code p[from, to)} (without brackets), as Python's fnmatch.translate reads it. */
  private static void set(StringBuilder re, int[] p, int from, int to) {
    boolean negate = p[from] == '!';
    int start = negate ? from + 1 : from;
    // Chunks split at range hyphens: a hyphen right after the first member is never one.
    List<int[]> chunks = new ArrayList<>();
    int i = start;
    int k = start + 1;
    while (true) {
      k = indexOf(p, '-', k, to);
      if (k < 0) {
        break;
      }
      chunks.add(slice(p, i, k));
      i = k + 1;
      k = k + 3;
    }
    int[] last = slice(p, i, to);
    if (last.length > 0 || chunks.isEmpty()) {
      chunks.add(last);
    } else {
      int[] prev = chunks.get(chunks.size() - 1);
      int[] grown = java.util.Arrays.copyOf(prev, prev.length + 1);
      grown[prev.length] = '-';
      chunks.set(chunks.size() - 1, grown);
    }
    // Remove empty (reversed) ranges, as Python does.
    for (int c = chunks.size() - 1; c > 0; c--) {
      int[] a = chunks.get(c - 1);
      int[] b = chunks.get(c);
      if (a.length > 0 && b.length > 0 && a[a.length - 1] > b[0]) {
        int[] merged = new int[a.length - 1 + b.length - 1];
        System.arraycopy(a, 0, merged, 0, a.length - 1);
        System.arraycopy(b, 1, merged, a.length - 1, b.length - 1);
        chunks.set(c - 1, merged);
        chunks.remove(c);
      }
    }
    StringBuilder members = new StringBuilder();
    for (int c = 0; c < chunks.size(); c++) {
      int[] chunk = chunks.get(c);
      for (int m = 0; m < chunk.length; m++) {
        boolean rangeEnd = c + 1 < chunks.size() && m == chunk.length - 1;
        hex(members, chunk[m]);
        if (rangeEnd && chunks.get(c + 1).length > 0) {
          members.append('-');
        }
      }
    }
    if (members.isEmpty()) {
      re.append(negate ? "[\\x{0}-\\x{10FFFF}]" : "(?!)");
    } else {
      re.append('[').append(negate ? "^" : "").append(members).append(']');
    }
  }

  private static int[] slice(int[] p, int from, int to) {
    return java.util.Arrays.copyOfRange(p, from, Math.max(from, to));
  }

  private static int indexOf(int[] p, int c, int from, int to) {
    for (int i = from; i < to; i++) {
      if (p[i] == c) {
        return i;
      }
    }
    return -1;
  }

  private static void hex(StringBuilder sb, int c) {
    sb.append("\\x{").append(Integer.toHexString(c)).append('}');
  }
}
