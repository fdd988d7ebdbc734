package io.sf2loki.app.config;

import java.util.ArrayList;
import java.util.List;

/**
 * Regular-expression alternatives for the canonical decimal text (no sign, no leading zeros) of the
 * non-negative integers at least / at most a bound, so that the JSON Schema can bound a number
 * written as a string like the loader does (SPEC CFG-20, CFG-39). Package-private helper of {@link
 * ConfigSchema}.
 */
final class IntegerRange {
  private IntegerRange() {}

  /** Alternatives matching exactly the canonical text of every integer ≥ {@code least} (≥ 0). */
  static String atLeast(long least) {
    String d = Long.toString(least);
    int n = d.length();
    List<String> alt = new ArrayList<>();
    alt.add("[1-9]\\d{" + n + ",}");
    for (int i = 0; i < n; i++) {
      int c = d.charAt(i) - '0';
      if (c < 9 && !(i == 0 && n > 1 && c == 0)) {
        alt.add(d.substring(0, i) + "[" + (c + 1) + "-9]\\d{" + (n - i - 1) + "}");
      }
    }
    alt.add(d);
    return String.join("|", alt);
  }

  /**
   * Alternatives matching the text of every integer from 0 to {@code most} (≥ 0); shorter forms may
   * carry leading zeros, which are values below the bound anyway.
   */
  static String atMost(long most) {
    String d = Long.toString(most);
    int n = d.length();
    List<String> alt = new ArrayList<>();
    if (n > 1) {
      alt.add("\\d{1," + (n - 1) + "}");
    }
    for (int i = 0; i < n; i++) {
      int c = d.charAt(i) - '0';
      if (c > 0) {
        alt.add(d.substring(0, i) + "[0-" + (c - 1) + "]\\d{" + (n - i - 1) + "}");
      }
    }
    alt.add(d);
    return String.join("|", alt);
  }
}
