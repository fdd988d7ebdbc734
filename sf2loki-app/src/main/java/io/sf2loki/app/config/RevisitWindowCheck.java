package io.sf2loki.app.config;

import java.time.Duration;
import java.util.List;

/**
 * SPEC OBJ-13: a {@code revisit_window} wider than Loki's out-of-order window ({@code
 * sink.loki.out_of_order_window}, when &gt; 0) recovers rows that are too far behind their stream,
 * so they land in the {@code late="true"} stream (SINK-13, SINK-15). Such a configuration loads
 * with one startup warning per source naming the dotted path. Stateless.
 */
final class RevisitWindowCheck {
  private RevisitWindowCheck() {}

  /**
   * Adds a warning to {@code warnings} for each enabled object or ApexLog source of {@code sources}
   * whose revisit window exceeds {@code outOfOrderWindow}.
   *
   * @param base dotted path of the sources section ({@code sources} or {@code orgs.<i>.sources})
   */
  static void check(
      SourcesConfig sources, Duration outOfOrderWindow, String base, List<String> warnings) {
    if (outOfOrderWindow.isZero()) {
      return;
    }
    EventLogObjectsConfig objects = sources.eventlogObjects();
    if (objects != null && objects.enabled()) {
      for (int i = 0; i < objects.objects().size(); i++) {
        warnIfWider(
            objects.objects().get(i).revisit(),
            outOfOrderWindow,
            base + ".eventlog_objects.objects." + i + ".revisit_window",
            warnings);
      }
    }
    ApexLogConfig apexlog = sources.apexlog();
    if (apexlog != null && apexlog.enabled()) {
      warnIfWider(apexlog.revisit(), outOfOrderWindow, base + ".apexlog.revisit_window", warnings);
    }
  }

  private static void warnIfWider(
      RevisitConfig revisit, Duration outOfOrderWindow, String path, List<String> warnings) {
    if (revisit != null && revisit.window().compareTo(outOfOrderWindow) > 0) {
      warnings.add(
          path
              + "="
              + revisit.window()
              + " is wider than sink.loki.out_of_order_window="
              + outOfOrderWindow
              + ": rows recovered from the older part land in the late=\"true\" stream (OBJ-13)");
    }
  }
}
