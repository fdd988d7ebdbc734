package io.sf2loki.salesforce.revisit;

import java.time.Duration;
import java.util.Objects;

/**
 * The late-visibility revisit of one object or of ApexLog (SPEC OBJ-13…OBJ-17, APX-10; keys {@code
 * objects[].revisit_window}, {@code revisit_interval}, {@code revisit_max_keys} and the same under
 * {@code apexlog}).
 *
 * @param window how far back from server now the revisit looks (default 30 minutes); zero turns the
 *     revisit off
 * @param interval least time between two revisits of the same object, on the monotonic ticker
 *     (default 5 minutes); strictly positive
 * @param maxKeys record keys remembered per object, and the {@code LIMIT} of one revisit listing
 *     (default 20000); 1…{@value #MAX_KEYS_LIMIT}
 */
public record RevisitSettings(Duration window, Duration interval, int maxKeys) {
  /** SPEC default of {@code revisit_window}. */
  public static final Duration DEFAULT_WINDOW = Duration.ofMinutes(30);

  /** SPEC default of {@code revisit_interval}. */
  public static final Duration DEFAULT_INTERVAL = Duration.ofMinutes(5);

  /** SPEC default of {@code revisit_max_keys}. */
  public static final int DEFAULT_MAX_KEYS = 20_000;

  /** Upper bound of {@code revisit_max_keys}: the most rows one SOQL query returns. */
  public static final int MAX_KEYS_LIMIT = 50_000;

  /** The SPEC defaults: 30m window, 5m interval, 20000 keys. */
  public static final RevisitSettings DEFAULTS =
      new RevisitSettings(DEFAULT_WINDOW, DEFAULT_INTERVAL, DEFAULT_MAX_KEYS);

  /** The revisit switched off ({@code revisit_window: 0}). */
  public static final RevisitSettings OFF =
      new RevisitSettings(Duration.ZERO, DEFAULT_INTERVAL, DEFAULT_MAX_KEYS);

  /**
   * @throws IllegalArgumentException when the window is negative, the interval not positive or
   *     {@code maxKeys} outside 1…{@value #MAX_KEYS_LIMIT}
   */
  public RevisitSettings {
    Objects.requireNonNull(window, "window");
    Objects.requireNonNull(interval, "interval");
    if (window.isNegative()) {
      throw new IllegalArgumentException("revisit_window must not be negative");
    }
    if (interval.isNegative() || interval.isZero()) {
      throw new IllegalArgumentException("revisit_interval must be > 0");
    }
    if (maxKeys < 1 || maxKeys > MAX_KEYS_LIMIT) {
      throw new IllegalArgumentException("revisit_max_keys must be in 1…50000: " + maxKeys);
    }
  }

  /** Whether the revisit runs at all ({@code window > 0}). */
  public boolean enabled() {
    return !window.isZero();
  }
}
