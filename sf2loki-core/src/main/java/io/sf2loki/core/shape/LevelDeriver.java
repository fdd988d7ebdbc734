package io.sf2loki.core.shape;

import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Derives the {@code level} structured-metadata value of SPEC SRC-10. Stateless and thread-safe.
 *
 * <p>A field is <em>present</em> when non-null and its trimmed (Python {@code str.strip()}
 * whitespace), lower-cased text form (SRC-8) is not {@code ""}, {@code 0}, {@code none}, {@code
 * null}, {@code na} or {@code n/a}.
 */
public final class LevelDeriver {
  private LevelDeriver() {}

  /** Level value {@code error}. */
  public static final String ERROR = "error";

  /** Level value {@code warn}. */
  public static final String WARN = "warn";

  /** Level value {@code info}. */
  public static final String INFO = "info";

  private static final String[] ERROR_FIELDS = {
    "EXCEPTION_MESSAGE", "EXCEPTION_TYPE", "ERROR_MESSAGE", "ERROR_CODE"
  };
  private static final Set<String> ABSENT = Set.of("", "0", "none", "null", "na", "n/a");
  private static final Set<String> SUCCESS =
      Set.of("s", "success", "successful", "ok", "complete", "completed", "true");

  /**
   * @param payload the post-transform record (field name → decoded value)
   * @return {@code error}, {@code warn} or {@code info}
   */
  public static String level(Map<String, ?> payload) {
    for (String f : ERROR_FIELDS) {
      if (present(payload.get(f)) != null) {
        return ERROR;
      }
    }
    String status = present(payload.get("STATUS_CODE"));
    if (status != null) {
      String byCode = httpLevel(status);
      if (byCode != null) {
        return byCode;
      }
    }
    String req = present(payload.get("REQUEST_STATUS"));
    if (req != null) {
      return SUCCESS.contains(req.toLowerCase(Locale.ROOT)) ? INFO : WARN;
    }
    String login = present(payload.get("LOGIN_STATUS"));
    if (login != null) {
      return login.toUpperCase(Locale.ROOT).equals("LOGIN_NO_ERROR") ? INFO : WARN;
    }
    String op = present(payload.get("OPERATION_STATUS"));
    if (op == null) {
      op = present(payload.get("Status"));
    }
    if (op != null) {
      return SUCCESS.contains(op.toLowerCase(Locale.ROOT)) ? INFO : WARN;
    }
    return INFO;
  }

  /** The trimmed text form when present (SRC-10), else null. */
  static String present(Object v) {
    if (v == null) {
      return null;
    }
    String t = strip(TextForm.of(v));
    if (t.length() <= 4 && ABSENT.contains(t.toLowerCase(Locale.ROOT))) {
      return null;
    }
    return t;
  }

  private static String httpLevel(String s) {
    int n = s.length();
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        return null;
      }
    }
    int i = 0;
    while (i < n - 1 && s.charAt(i) == '0') {
      i++;
    }
    if (n - i > 3) {
      return ERROR; // >= 1000
    }
    int code = Integer.parseInt(s, i, n, 10);
    if (code >= 500) {
      return ERROR;
    }
    if (code >= 400) {
      return WARN;
    }
    if (code >= 100) {
      return INFO;
    }
    return null;
  }

  /** Python {@code str.strip()} with no argument (Unicode whitespace per {@code str.isspace}). */
  static String strip(String s) {
    int start = 0;
    int end = s.length();
    while (start < end && isPySpace(s.charAt(start))) {
      start++;
    }
    while (end > start && isPySpace(s.charAt(end - 1))) {
      end--;
    }
    return start == 0 && end == s.length() ? s : s.substring(start, end);
  }

  private static boolean isPySpace(char c) {
    if (c <= ' ') {
      return c == ' ' || (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x1F);
    }
    if (c < 0x85) {
      return false;
    }
    return c == 0x85
        || c == 0xA0
        || c == 0x1680
        || (c >= 0x2000 && c <= 0x200A)
        || c == 0x2028
        || c == 0x2029
        || c == 0x202F
        || c == 0x205F
        || c == 0x3000;
  }
}
