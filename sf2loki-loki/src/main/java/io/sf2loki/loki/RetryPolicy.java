package io.sf2loki.loki;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * SPEC SINK-9 in-sink retry waits and {@code Retry-After} parsing (RFC 9110 §10.2.3, delta-seconds
 * only). Thread-safe: the jitter source is used under its own lock.
 */
final class RetryPolicy {
  static final Duration MIN_WAIT = Duration.ofMillis(500);
  static final Duration MAX_BACKOFF = Duration.ofSeconds(30);

  /** SINK-9 / PIPE-27 cap on every wait, {@code Retry-After} included. */
  static final Duration MAX_WAIT = Duration.ofSeconds(60);

  private final RandomGenerator random;

  RetryPolicy(RandomGenerator random) {
    this.random = random;
  }

  /**
   * The wait before retry {@code k} (1-based): uniform in [0.5 s, min(30 s, 2^(k−1) s)], raised to
   * {@code retryAfter}, capped at 60 s.
   */
  Duration backoff(int k, Duration retryAfter) {
    long upperNanos =
        Math.min(MAX_BACKOFF.toNanos(), Duration.ofSeconds(1L << Math.min(k - 1, 20)).toNanos());
    long lowerNanos = MIN_WAIT.toNanos();
    double r;
    synchronized (random) {
      r = random.nextDouble();
    }
    long nanos = lowerNanos + (long) (r * Math.max(0, upperNanos - lowerNanos));
    Duration wait = Duration.ofNanos(nanos);
    if (retryAfter.compareTo(wait) > 0) {
      wait = retryAfter;
    }
    return cap(wait);
  }

  /** {@code d} capped at {@link #MAX_WAIT}. */
  static Duration cap(Duration d) {
    return d.compareTo(MAX_WAIT) > 0 ? MAX_WAIT : d;
  }

  /** Delta-seconds {@code Retry-After}; HTTP-date and garbage are ignored (zero). */
  static Duration retryAfter(String header) {
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
