package io.sf2loki.app.config;

import java.time.Duration;

/**
 * The late-visibility revisit keys of {@code sources.eventlog_objects.objects[]} and {@code
 * sources.apexlog} (SPEC §1.3, OBJ-13…OBJ-17, APX-10).
 *
 * @param window {@code revisit_window}, default 30 minutes; 0 turns the revisit off
 * @param interval {@code revisit_interval}, default 5 minutes, strictly positive
 * @param maxKeys {@code revisit_max_keys}, default 20000, at least 1
 */
public record RevisitConfig(Duration window, Duration interval, int maxKeys) {
  /** The SPEC defaults. */
  public static final RevisitConfig DEFAULTS =
      new RevisitConfig(
          SourceKeys.REVISIT_WINDOW.durationDefault(),
          SourceKeys.REVISIT_INTERVAL.durationDefault(),
          (int) SourceKeys.REVISIT_MAX_KEYS.longDefault());
}
