package io.sf2loki.salesforce.revisit;

import io.sf2loki.core.settings.Setting;
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
  /** Definition of the {@code revisit_window} key (SPEC §1.3). */
  public static final Setting WINDOW =
      Setting.duration(
          "revisit_window",
          Duration.ofMinutes(30),
          "How far back the late-visibility revisit looks; 0 = off.",
          "OBJ-13, APX-10");

  /** Definition of the {@code revisit_interval} key (SPEC §1.3). */
  public static final Setting INTERVAL =
      Setting.duration(
              "revisit_interval",
              Duration.ofMinutes(5),
              "Least time between two revisits.",
              "OBJ-14, APX-10")
          .greaterThan(0);

  /** Definition of the {@code revisit_max_keys} key (SPEC §1.3). */
  public static final Setting MAX_KEYS =
      Setting.integer(
              "revisit_max_keys",
              20_000,
              "Keys remembered, and LIMIT of one revisit listing.",
              "OBJ-15, APX-10")
          .atLeast(1)
          .atMost(50_000);

  /** Upper bound of {@code revisit_max_keys}: the most rows one SOQL query returns. */
  public static final int MAX_KEYS_LIMIT = 50_000;

  /** The SPEC defaults: 30m window, 5m interval, 20000 keys. */
  public static final RevisitSettings DEFAULTS =
      new RevisitSettings(
          WINDOW.durationDefault(), INTERVAL.durationDefault(), (int) MAX_KEYS.longDefault());

  /** The revisit switched off ({@code revisit_window: 0}). */
  public static final RevisitSettings OFF =
      new RevisitSettings(Duration.ZERO, INTERVAL.durationDefault(), (int) MAX_KEYS.longDefault());

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
