package io.sf2loki.salesforce.source;

import io.sf2loki.core.time.Backoff;
import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * The jitter rules of the sources: the poll interval ×[0.9, 1.1) (SPEC SRC-21) and the backoff wait
 * base + [0, base/2] (PS-14, PS-20, PS-21).
 */
public final class Jitter {
  private Jitter() {}

  /** SRC-21: {@code interval × (0.9 + 0.2·u)}, u uniform in [0, 1) from {@code random}. */
  public static Duration poll(Duration interval, RandomGenerator random) {
    double factor = 0.9 + 0.2 * random.nextDouble();
    return Duration.ofNanos((long) (interval.toNanos() * factor));
  }

  /** {@code base + uniform[0, base/2]} in whole nanoseconds, drawn with {@code nextLong}. */
  public static Duration upToHalf(Duration base, RandomGenerator random) {
    return Backoff.upToHalf(base, random);
  }

  /** {@code base + base/2 · u} for a uniform {@code u}, clamped to [0, 1]. */
  public static Duration upToHalf(Duration base, double u) {
    double clamped = Math.min(Math.max(u, 0.0), 1.0);
    return base.plusNanos((long) (base.toNanos() / 2.0 * clamped));
  }
}
