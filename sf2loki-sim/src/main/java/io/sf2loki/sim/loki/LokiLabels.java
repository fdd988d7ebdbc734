package io.sf2loki.sim.loki;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Parses and renders Loki stream label strings such as {@code {job="x", event_type="Login"}} (with
 * or without a space after each comma; values escape {@code \\}, {@code \"}, {@code \n}, {@code
 * \t}; names match {@code [a-zA-Z_][a-zA-Z0-9_]*}).
 */
public final class LokiLabels {
  private static final Pattern NAME = Pattern.compile("[a-zA-Z_][a-zA-Z0-9_]*");

  private LokiLabels() {}

  /** A label string Loki refuses; the message is the parser's reason. */
  public static final class LabelParseException extends Exception {
    private static final long serialVersionUID = 1L;

    LabelParseException(String message) {
      super(message, null, false, false);
    }
  }

  /** A duplicate label name (the first duplicate is carried in the message). */
  public static final class DuplicateLabelException extends Exception {
    private static final long serialVersionUID = 1L;
    final String name;

    DuplicateLabelException(String name) {
      super("duplicate label name: " + name, null, false, false);
      this.name = name;
    }
  }

  /**
   * Parses {@code s} into an insertion-ordered map.
   *
   * @throws LabelParseException when the syntax is invalid
   * @throws DuplicateLabelException when a name occurs twice
   */
  public static Map<String, String> parse(String s)
      throws LabelParseException, DuplicateLabelException {
    Map<String, String> out = new LinkedHashMap<>();
    int i = 0;
    int n = s.length();
    i = skipWs(s, i);
    if (i >= n || s.charAt(i) != '{') {
      throw new LabelParseException("1:" + (i + 1) + ": parse error: unexpected input, expected {");
    }
    i = skipWs(s, i + 1);
    if (i < n && s.charAt(i) == '}') {
      return requireEnd(s, i + 1, out);
    }
    while (true) {
      int start = i;
      while (i < n && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_')) {
        i++;
      }
      String name = s.substring(start, i);
      if (!NAME.matcher(name).matches()) {
        throw new LabelParseException(
            "1:" + (start + 1) + ": parse error: unexpected character in label name");
      }
      i = skipWs(s, i);
      if (i >= n || s.charAt(i) != '=') {
        throw new LabelParseException("1:" + (i + 1) + ": parse error: expected =");
      }
      i = skipWs(s, i + 1);
      if (i >= n || s.charAt(i) != '"') {
        throw new LabelParseException("1:" + (i + 1) + ": parse error: expected quoted value");
      }
      i++;
      StringBuilder v = new StringBuilder();
      boolean closed = false;
      while (i < n) {
        char c = s.charAt(i++);
        if (c == '\\') {
          if (i >= n) {
            break;
          }
          char e = s.charAt(i++);
          switch (e) {
            case 'n' -> v.append('\n');
            case 't' -> v.append('\t');
            case '\\' -> v.append('\\');
            case '"' -> v.append('"');
            default ->
                throw new LabelParseException(
                    "1:" + i + ": parse error: unknown escape sequence \\" + e);
          }
        } else if (c == '"') {
          closed = true;
          break;
        } else {
          v.append(c);
        }
      }
      if (!closed) {
        throw new LabelParseException("1:" + (i + 1) + ": parse error: unterminated quoted string");
      }
      if (out.put(name, v.toString()) != null) {
        throw new DuplicateLabelException(name);
      }
      i = skipWs(s, i);
      if (i < n && s.charAt(i) == ',') {
        i = skipWs(s, i + 1);
        continue;
      }
      if (i < n && s.charAt(i) == '}') {
        return requireEnd(s, i + 1, out);
      }
      throw new LabelParseException("1:" + (i + 1) + ": parse error: expected , or }");
    }
  }

  private static Map<String, String> requireEnd(String s, int i, Map<String, String> out)
      throws LabelParseException {
    if (skipWs(s, i) != s.length()) {
      throw new LabelParseException("1:" + (i + 1) + ": parse error: unexpected input after }");
    }
    return out;
  }

  private static int skipWs(String s, int i) {
    while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
      i++;
    }
    return i;
  }

  /** Whether {@code name} is a valid label name. */
  public static boolean validName(String name) {
    return NAME.matcher(name).matches();
  }

  /** Renders labels the way Loki prints a stream: sorted, {@code {k="v", k2="v2"}}. */
  public static String render(Map<String, String> labels) {
    StringBuilder sb = new StringBuilder("{");
    boolean first = true;
    for (Map.Entry<String, String> e : new TreeMap<>(labels).entrySet()) {
      if (!first) {
        sb.append(", ");
      }
      first = false;
      sb.append(e.getKey()).append("=\"");
      String v = e.getValue();
      for (int i = 0; i < v.length(); i++) {
        char c = v.charAt(i);
        switch (c) {
          case '\\' -> sb.append("\\\\");
          case '"' -> sb.append("\\\"");
          case '\n' -> sb.append("\\n");
          default -> sb.append(c);
        }
      }
      sb.append('"');
    }
    return sb.append('}').toString();
  }
}
