package io.sf2loki.loki;

import java.time.Duration;

/**
 * Parses Loki's {@code Retry-After} header (SPEC SINK-9; RFC 9110 §10.2.3, delta-seconds only). The
 * waits it raises are {@link io.sf2loki.core.pipeline.RetrySchedule}'s.
 */
final class RetryAfter {
  private RetryAfter() {}

  /** Delta-seconds {@code Retry-After}; HTTP-date and garbage are ignored (zero). */
  static Duration parse(String header) {
    if (header == null) {
      return Duration.ZERO;
    }
    String v = header.strip();
    if (v.isEmpty() || v.length() > 9 || !v.chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
      return Duration.ZERO;
    }
    return Duration.ofSeconds(Long.parseLong(v));
  }
}
