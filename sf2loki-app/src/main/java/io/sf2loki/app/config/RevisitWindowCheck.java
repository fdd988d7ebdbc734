package io.sf2loki.app.config;

import io.sf2loki.salesforce.apexlog.ApexLogSettings;
import io.sf2loki.salesforce.objects.EventLogObjectsSettings;
import io.sf2loki.salesforce.revisit.RevisitSettings;
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
    SourceConfig<EventLogObjectsSettings> objects = sources.eventlogObjects();
    if (objects != null && objects.enabled() && objects.settings() != null) {
      for (int i = 0; i < objects.settings().objects().size(); i++) {
        warnIfWider(
            objects.settings().objects().get(i).revisit(),
            outOfOrderWindow,
            base + ".eventlog_objects.objects." + i + ".revisit_window",
            warnings);
      }
    }
    SourceConfig<ApexLogSettings> apexlog = sources.apexlog();
    if (apexlog != null && apexlog.enabled() && apexlog.settings() != null) {
      warnIfWider(
          apexlog.settings().revisit(),
          outOfOrderWindow,
          base + ".apexlog.revisit_window",
          warnings);
    }
  }

  private static void warnIfWider(
      RevisitSettings revisit, Duration outOfOrderWindow, String path, List<String> warnings) {
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
