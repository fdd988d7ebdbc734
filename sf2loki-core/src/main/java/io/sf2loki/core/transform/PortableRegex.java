package io.sf2loki.core.transform;

import java.util.Map;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * A {@code regex_replace} pattern in the portable 1.x dialect (SPEC XF-5, XF-12, CFG-19), validated
 * and translated once into a {@link Pattern} that matches exactly what Python's {@code re} matches
 * for the same text. Immutable and thread-safe.
 *
 * <p>{@link #replaceAll} follows Python's {@code re.sub} (3.7+) for empty matches: an empty match
 * right after a non-empty one is replaced, and after an empty match at position p the next match
 * may start at p only if it is non-empty; searching then resumes one code point further.
 */
public final class PortableRegex {
  private final String source;
  private final Pattern pattern;
  private final Pattern nonEmptyHere;
  private final int groupCount;
  private final Map<String, Integer> names;

  private PortableRegex(String source, RegexTranslator.Result r) {
    this.source = source;
    int flags = r.ignoreCase() ? Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE : 0;
    try {
      this.pattern = Pattern.compile(r.javaRegex(), flags);
      // \G is where lookingAt() started: the match must end elsewhere, i.e. be non-empty.
      this.nonEmptyHere = Pattern.compile("(?:" + r.javaRegex() + ")(?!\\G)", flags);
    } catch (PatternSyntaxException e) {
      throw new PortableRegexException(0, "does not compile: " + e.getDescription());
    }
    this.groupCount = r.groupCount();
    this.names = r.names();
  }

  /**
   * Validates and translates a pattern.
   *
   * @param pattern the configured pattern (1.x dialect)
   * @return the compiled pattern
   * @throws PortableRegexException when the pattern leaves the XF-5 grammar or would not compile
   */
  public static PortableRegex compile(String pattern) {
    return new PortableRegex(pattern, RegexTranslator.translate(pattern));
  }

  /** The pattern as configured. */
  public String source() {
    return source;
  }

  /** The translated Java pattern (for tests and diagnostics; group names are {@code xfN}). */
  public Pattern pattern() {
    return pattern;
  }

  /** Number of capturing groups, named ones included (same numbering as 1.x). */
  public int groupCount() {
    return groupCount;
  }

  /** The group number of a {@code (?P<name>…)} group, if defined. */
  public OptionalInt groupNumber(String name) {
    Integer n = names.get(name);
    return n == null ? OptionalInt.empty() : OptionalInt.of(n);
  }

  /**
   * Replaces every match in {@code text} as Python's {@code re.sub(pattern, replacement, text)}.
   *
   * @param text the input
   * @param replacement a replacement parsed against this pattern
   * @return the text with every match replaced
   */
  public String replaceAll(String text, Replacement replacement) {
    Matcher find = pattern.matcher(text);
    if (!find.find()) {
      return text;
    }
    Matcher here = nonEmptyHere.matcher(text).useAnchoringBounds(false).useTransparentBounds(true);
    int n = text.length();
    StringBuilder sb = new StringBuilder(n + 16);
    int copied = 0;
    Matcher hit = find;
    while (true) {
      int s = hit.start();
      int e = hit.end();
      sb.append(text, copied, s);
      replacement.appendTo(sb, text, hit);
      copied = e;
      if (s != e) {
        hit = find.find(e) ? find : null;
      } else if (e >= n) {
        hit = null;
      } else if (here.region(e, n).lookingAt()) {
        hit = here;
      } else {
        hit = find.find(e + Character.charCount(text.codePointAt(e))) ? find : null;
      }
      if (hit == null) {
        break;
      }
    }
    sb.append(text, copied, n);
    return sb.toString();
  }
}
