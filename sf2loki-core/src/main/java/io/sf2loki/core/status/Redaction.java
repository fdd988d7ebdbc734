package io.sf2loki.core.status;

import java.util.Collection;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Turns an error message into what {@code /statusz} may show (SPEC OBS-35): every occurrence of a
 * known secret value and every credential-looking part (URL user-info, {@code Bearer} tokens,
 * {@code token=}/{@code secret=}/{@code password=}-style parameters) replaced by {@code ***}, line
 * breaks and control characters folded into single spaces, and cut to {@value #MAX_CHARS}
 * characters (the last one {@code …} when cut). Immutable and thread-safe.
 */
public final class Redaction {
  /** Longest redacted message, in chars. */
  public static final int MAX_CHARS = 200;

  /** The replacement of a secret. */
  public static final String MASK = "***";

  private static final Pattern USER_INFO = Pattern.compile("(?<=://)[^/@\\s]+@");
  private static final Pattern BEARER = Pattern.compile("(?i)\\b(bearer|basic)\\s+[^\\s,;\"']+");
  private static final Pattern PARAM =
      Pattern.compile(
          "(?i)\\b([a-z_]*(?:token|secret|password|passwd|assertion|signature|api_?key|access_?key))"
              + "(\"?\\s*[=:]\\s*\"?)[^\\s&,;\"']+");
  private static final Pattern SPACE = Pattern.compile("[\\s\\p{Cntrl}]+");

  private final List<String> secrets;

  /**
   * @param secrets exact values never to show (blank and very short values are ignored: masking
   *     them would mangle ordinary text)
   */
  public Redaction(Collection<String> secrets) {
    this.secrets =
        secrets.stream()
            .filter(Objects::nonNull)
            .filter(s -> s.strip().length() >= 4)
            .sorted((a, b) -> b.length() - a.length())
            .toList();
  }

  /** A redaction that knows no secret values (patterns only). */
  public static Redaction patternsOnly() {
    return new Redaction(List.of());
  }

  /** The redacted one-line form of {@code message}, cut to {@value #MAX_CHARS}; empty for null. */
  public String apply(String message) {
    String s = forLog(message);
    if (s.length() > MAX_CHARS) {
      int cut = MAX_CHARS - 1;
      if (Character.isHighSurrogate(s.charAt(cut - 1))) {
        cut--;
      }
      s = s.substring(0, cut) + "…";
    }
    return s;
  }

  /**
   * The redacted one-line form of {@code message} without the length cut, for log fields (SPEC
   * OBS-34, DOC-3: a failure's message in a WARN/ERROR log shows no secret); empty for null.
   */
  public String forLog(String message) {
    if (message == null) {
      return "";
    }
    String s = message;
    for (String secret : secrets) {
      s = s.replace(secret, MASK);
    }
    s = USER_INFO.matcher(s).replaceAll(MASK + "@");
    s = BEARER.matcher(s).replaceAll("$1 " + MASK);
    s = PARAM.matcher(s).replaceAll("$1$2" + MASK);
    return SPACE.matcher(s).replaceAll(" ").strip();
  }

  /**
   * {@code error} as a log event's exception may show it (SPEC OBS-34): a {@link RedactedException}
   * per link of the cause chain (at most {@value #MAX_CAUSES}), each with the original class name
   * and {@link #forLog(String)} of its message, and the original stack trace; null for null.
   */
  public Throwable forLog(Throwable error) {
    return error == null ? null : copy(error, 0, new IdentityHashMap<>());
  }

  private static final int MAX_CAUSES = 8;

  private RedactedException copy(Throwable t, int depth, Map<Throwable, Boolean> seen) {
    seen.put(t, Boolean.TRUE);
    Throwable c = t.getCause();
    RedactedException cause =
        c == null || depth + 1 >= MAX_CAUSES || seen.containsKey(c)
            ? null
            : copy(c, depth + 1, seen);
    String msg = t.getMessage() == null ? "" : ": " + forLog(t.getMessage());
    return new RedactedException(t.getClass().getName() + msg, t.getStackTrace(), cause);
  }

  /**
   * A logged exception's redacted stand-in: its message is the original class name and the redacted
   * message ({@link #forLog(Throwable)}).
   */
  public static final class RedactedException extends Exception {
    private static final long serialVersionUID = 1L;

    RedactedException(String message, StackTraceElement[] trace, RedactedException cause) {
      super(message, cause, false, true);
      setStackTrace(trace);
    }
  }
}
