package io.sf2loki.app.config;

import java.util.regex.Pattern;

/**
 * Whole-string, case-sensitive globs (SPEC XF-11): {@code *} any run including {@code /}, {@code ?}
 * one character, {@code [seq]} / {@code [!seq]} one character in / not in the set (ranges allowed);
 * everything else is literal. An unterminated {@code [} is literal.
 */
final class Glob {
  private Glob() {}

  static Pattern toPattern(String glob) {
    StringBuilder re = new StringBuilder();
    int i = 0;
    while (i < glob.length()) {
      char c = glob.charAt(i);
      if (c == '*') {
        re.append(".*");
        i++;
      } else if (c == '?') {
        re.append('.');
        i++;
      } else if (c == '[') {
        int j = i + 1;
        if (j < glob.length() && glob.charAt(j) == '!') {
          j++;
        }
        if (j < glob.length() && glob.charAt(j) == ']') {
          j++;
        }
        while (j < glob.length() && glob.charAt(j) != ']') {
          j++;
        }
        if (j >= glob.length()) {
          re.append("\\[");
          i++;
        } else {
          String body = glob.substring(i + 1, j);
          boolean negate = body.startsWith("!");
          if (negate) {
            body = body.substring(1);
          }
          re.append('[').append(negate ? "^" : "");
          for (char b : body.toCharArray()) {
            if (b == '\\' || b == '[' || b == ']' || b == '^' || b == '&') {
              re.append('\\');
            }
            re.append(b);
          }
          re.append(']');
          i = j + 1;
        }
      } else {
        re.append(Pattern.quote(String.valueOf(c)));
        i++;
      }
    }
    return Pattern.compile(re.toString(), Pattern.DOTALL);
  }
}
