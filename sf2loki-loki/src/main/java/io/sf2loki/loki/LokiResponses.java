package io.sf2loki.loki;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** SPEC SINK-8 status classification and SINK-10 rule 1 body analysis. Stateless. */
final class LokiResponses {
  private LokiResponses() {}

  /** Classes of SINK-8 (first matching row). */
  enum Kind {
    /** 200, 204. */
    SUCCESS,
    /** Other 2xx, 401/403/404: retryable at once, nothing stored. */
    RETRYABLE_NOW,
    /** 429, 5xx: retried inside the sink (SINK-9). */
    RETRY_IN_SINK,
    /** 400 refusing structured metadata. */
    METADATA_REFUSED,
    /** 400 request-wide configuration error: retryable, never split. */
    REQUEST_WIDE,
    /** 400 with a per-entry reason ({@link Classification#reason()}). */
    PER_ENTRY,
    /** Any other 400 or 413: split; single entry dropped with {@link Classification#reason()}. */
    SPLITTABLE,
    /** 422: permanent {@code bad_request}. */
    PERMANENT,
    /** Anything else: retryable, ERROR log. */
    UNEXPECTED
  }

  /** A classified response; {@code reason} is the drop reason where one applies. */
  record Classification(Kind kind, String reason) {}

  private static final Pattern TOTAL_IGNORED =
      Pattern.compile("total ignored: (\\d+) out of (\\d+)");
  private static final Pattern ERRORS_LIKE = Pattern.compile("^(\\d+) errors like: ");

  static Classification classify(int status, String body) {
    if (status == 200 || status == 204) {
      return new Classification(Kind.SUCCESS, null);
    }
    if (status >= 200 && status < 300) {
      return new Classification(Kind.RETRYABLE_NOW, null);
    }
    if (status == 429 || (status >= 500 && status <= 599)) {
      return new Classification(Kind.RETRY_IN_SINK, null);
    }
    if (status == 401 || status == 403 || status == 404) {
      return new Classification(Kind.RETRYABLE_NOW, null);
    }
    if (status == 400) {
      String b = body.toLowerCase(Locale.ROOT);
      if (b.contains("structured metadata") && b.contains("disallowed")) {
        return new Classification(Kind.METADATA_REFUSED, null);
      }
      if (b.contains("no org id")
          || b.contains("at least one label pair is required")
          || b.contains("error parsing labels")) {
        return new Classification(Kind.REQUEST_WIDE, null);
      }
      String reason = perEntryReason(b);
      if (reason != null) {
        return new Classification(Kind.PER_ENTRY, reason);
      }
      return new Classification(Kind.SPLITTABLE, "bad_request");
    }
    if (status == 413) {
      return new Classification(Kind.SPLITTABLE, "oversized_413");
    }
    if (status == 422) {
      return new Classification(Kind.PERMANENT, "bad_request");
    }
    return new Classification(Kind.UNEXPECTED, null);
  }

  /**
   * The single per-entry reason a lower-cased 400 body reports, or null when it reports none or
   * several different ones.
   */
  static String perEntryReason(String lowerBody) {
    String found = null;
    for (String[] r : REASONS) {
      for (int i = 1; i < r.length; i++) {
        if (lowerBody.contains(r[i])) {
          if (found != null && !found.equals(r[0])) {
            return null;
          }
          found = r[0];
        }
      }
    }
    return found;
  }

  private static final String[][] REASONS = {
    {"too_far_behind", "too far behind", "entry out of order"},
    {"too_old", "timestamp too old"},
    {"too_new", "timestamp too new"},
    {"line_too_long", "max entry size"},
  };

  /**
   * SINK-10 rule 1: whether a 400 body that reports one per-entry reason shows that all {@code n}
   * entries of the request were rejected: ingester lines {@code total ignored: k out of k} adding
   * up to n, or distributor messages ({@code "<c> errors like: "} groups joined by {@code "; "})
   * that all carry the reason and count n in total.
   */
  static boolean coversAll(String body, int n) {
    String lower = body.toLowerCase(Locale.ROOT);
    Matcher m = TOTAL_IGNORED.matcher(lower);
    boolean any = false;
    long sum = 0;
    while (m.find()) {
      any = true;
      long k = count(m.group(1));
      long of = count(m.group(2));
      if (k < 0 || k != of) {
        return false;
      }
      sum += k;
    }
    if (any) {
      return sum == n;
    }
    long count = 0;
    for (String segment : lower.strip().split("; ")) {
      String s = segment.strip();
      if (s.isEmpty()) {
        continue;
      }
      if (perEntryReason(s) == null) {
        return false;
      }
      Matcher g = ERRORS_LIKE.matcher(s);
      long c = g.find() ? count(g.group(1)) : 1;
      if (c < 0) {
        return false;
      }
      count += c;
    }
    return count == n;
  }

  /**
   * A decimal count matched in a Loki body, or -1 when it does not fit a {@code long}: such a body
   * reports no count this sink can match, so callers treat it as not telling.
   */
  static long count(String digits) {
    try {
      return Long.parseLong(digits);
    } catch (NumberFormatException e) {
      return -1;
    }
  }
}
