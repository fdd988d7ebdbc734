package io.sf2loki.salesforce.rest;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;

/**
 * Checks a 2xx download before it becomes data (SPEC SRC-28). Rules, in order:
 *
 * <ol>
 *   <li>Content type: the media type (before any {@code ;} parameter, case-insensitive) must not be
 *       one that is never a log or CSV: {@code text/html}, {@code application/xhtml+xml} (an HTML
 *       page), {@code application/json}, {@code text/json}, {@code application/xml}, {@code
 *       text/xml}. Any other type passes, and so does an absent header — Salesforce documents
 *       {@code application/octetstream} for EventLogFile {@code LogFile} ("Get Event Monitoring
 *       Content from a Record", REST API guide) and serves ApexLog {@code Body} as {@code
 *       text/plain}, with or without {@code charset}.
 *   <li>HTML sniff: the first {@value #SNIFF_BYTES} bytes, after a UTF-8 BOM and whitespace, must
 *       not start with {@code <!DOCTYPE html} or {@code <html} (case-insensitive).
 *   <li>Size: when Salesforce gave a size ({@code LogLength} of ApexLog, {@code LogFileLength} of
 *       EventLogFile, both documented as bytes; a float is rounded up), the decoded body size
 *       (after gzip, ELF-16) must be within {@code max(}{@value #ABSOLUTE_TOLERANCE_BYTES}{@code
 *       bytes, }{@value #RELATIVE_TOLERANCE_PERCENT}{@code % of the expected size)} of it, either
 *       way.
 * </ol>
 *
 * Stateless and thread-safe.
 */
public final class DownloadValidator {
  /** Absolute size slack in bytes. */
  public static final long ABSOLUTE_TOLERANCE_BYTES = 64;

  /** Relative size slack in percent of the expected size. */
  public static final int RELATIVE_TOLERANCE_PERCENT = 1;

  /** Bytes examined by the HTML sniff. */
  public static final int SNIFF_BYTES = 512;

  private static final Set<String> NOT_A_LOG =
      Set.of(
          "text/html",
          "application/xhtml+xml",
          "application/json",
          "text/json",
          "application/xml",
          "text/xml");

  private DownloadValidator() {}

  /**
   * What a download is expected to be.
   *
   * @param expectedBytes {@code LogLength}/{@code LogFileLength} in bytes, or null when unknown
   */
  public record Expectation(Long expectedBytes) {
    /** No size known: only the content-type and HTML rules apply. */
    public static Expectation unknownSize() {
      return new Expectation(null);
    }

    /** From a listing field ({@code LogLength}, {@code LogFileLength}); see {@link #bytesOf}. */
    public static Expectation ofField(Object lengthField) {
      return new Expectation(bytesOf(lengthField));
    }
  }

  /**
   * Validates {@code body}.
   *
   * @param status the 2xx status received
   * @param contentType the {@code Content-Type} header, or null when absent
   * @throws InvalidBodyException when a rule fails
   */
  public static void check(int status, Expectation expected, String contentType, Spool body)
      throws InvalidBodyException {
    long actual = body.sizeBytes();
    String media = mediaType(contentType);
    if (media.equals("text/html") || media.equals("application/xhtml+xml")) {
      throw invalid(status, InvalidBodyException.Problem.HTML_PAGE, contentType, expected, actual);
    }
    if (NOT_A_LOG.contains(media)) {
      throw invalid(
          status, InvalidBodyException.Problem.CONTENT_TYPE, contentType, expected, actual);
    }
    if (looksLikeHtml(body)) {
      throw invalid(status, InvalidBodyException.Problem.HTML_PAGE, contentType, expected, actual);
    }
    Long want = expected.expectedBytes();
    if (want != null && !withinTolerance(want, actual)) {
      throw invalid(status, InvalidBodyException.Problem.SIZE, contentType, expected, actual);
    }
  }

  /** Whether {@code actual} is within the size tolerance around {@code expected}. */
  public static boolean withinTolerance(long expected, long actual) {
    long slack = Math.max(ABSOLUTE_TOLERANCE_BYTES, expected / 100 * RELATIVE_TOLERANCE_PERCENT);
    return Math.abs(actual - expected) <= slack;
  }

  /**
   * A Salesforce length field as whole bytes: integers, floats ({@code 5842.0}, rounded up) or
   * numeric strings; null when absent, negative or not numeric.
   */
  public static Long bytesOf(Object v) {
    try {
      long n;
      if (v instanceof BigInteger bi) {
        n = bi.bitLength() < 64 ? bi.longValue() : Long.MAX_VALUE;
      } else if (v instanceof Number num) {
        double d = num.doubleValue();
        if (!Double.isFinite(d)) {
          return null;
        }
        n = (long) Math.ceil(d);
      } else if (v instanceof String s && !s.isBlank()) {
        n = new BigDecimal(s.strip()).setScale(0, RoundingMode.CEILING).longValueExact();
      } else {
        return null;
      }
      return n < 0 ? null : n;
    } catch (NumberFormatException | ArithmeticException e) {
      return null;
    }
  }

  /** Whether the body (after a BOM and whitespace) starts with an HTML document tag. */
  static boolean looksLikeHtml(Spool body) {
    byte[] head;
    try (InputStream in = body.open()) {
      head = in.readNBytes(SNIFF_BYTES);
    } catch (IOException e) {
      return false;
    }
    String s = new String(head, StandardCharsets.UTF_8);
    int i = 0;
    if (s.startsWith("\uFEFF")) {
      i = 1;
    }
    while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
      i++;
    }
    String rest = s.substring(i).toLowerCase(Locale.ROOT);
    return rest.startsWith("<!doctype html") || rest.startsWith("<html");
  }

  private static String mediaType(String contentType) {
    if (contentType == null) {
      return "";
    }
    int semi = contentType.indexOf(';');
    String m = semi < 0 ? contentType : contentType.substring(0, semi);
    return m.strip().toLowerCase(Locale.ROOT);
  }

  private static InvalidBodyException invalid(
      int status,
      InvalidBodyException.Problem problem,
      String contentType,
      Expectation expected,
      long actual) {
    return new InvalidBodyException(status, problem, contentType, expected.expectedBytes(), actual);
  }
}
