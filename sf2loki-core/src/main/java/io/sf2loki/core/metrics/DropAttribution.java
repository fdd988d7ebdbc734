package io.sf2loki.core.metrics;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.metrics.LongCounter;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.settings.Setting;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * SPEC FEAT-10, OBS-37: how {@code sf2loki_loki_entries_dropped} and {@code
 * sf2loki_pipeline_entries_abandoned} count entries. Off (the default), one recording with the
 * OBS-5 attribute set. On ({@code service.telemetry.drop_attribution: true}), one recording per
 * group of the entries' {@code source}, {@code event_type} and (multi-org, ORG-3) {@code org}
 * labels added to that set; entries counted without being identified (a Loki refusal that names no
 * entry, SINK-19) are recorded with {@code source} and {@code event_type} = {@value #UNKNOWN}.
 * Immutable and thread-safe.
 */
public final class DropAttribution {
  /** Definition of {@code service.telemetry.drop_attribution} (SPEC §1.3, FEAT-10). */
  public static final Setting DROP_ATTRIBUTION =
      Setting.bool(
          "drop_attribution",
          false,
          "Add source, event_type and (multi-org) org to the dropped and abandoned entry counters.",
          "FEAT-10");

  /** {@code source} / {@code event_type} of entries counted but not identified. */
  public static final String UNKNOWN = "unknown";

  /** Off: the OBS-5 attribute sets. */
  public static final DropAttribution OFF = new DropAttribution(false);

  /** On: FEAT-10's attribute sets. */
  public static final DropAttribution ON = new DropAttribution(true);

  private final boolean enabled;

  private DropAttribution(boolean enabled) {
    this.enabled = enabled;
  }

  /** {@link #ON} or {@link #OFF}. */
  public static DropAttribution of(boolean enabled) {
    return enabled ? ON : OFF;
  }

  /** Whether FEAT-10 is on. */
  public boolean enabled() {
    return enabled;
  }

  /**
   * Counts the real entries of {@code entries} (checkpoint-only ones are skipped) on {@code
   * counter} (as {@link #add(LongCounter, Attributes, long, Collection)}).
   *
   * @param base the OBS-5 attributes ({@code reason}, {@code lane})
   */
  public void add(LongCounter counter, Attributes base, Collection<LogEntry> entries) {
    add(counter, base, entries.stream().filter(e -> !e.checkpointOnly()).count(), entries);
  }

  /**
   * Counts {@code count} real entries on {@code counter}, of which {@code identified} (real ones;
   * checkpoint-only ones are skipped) are known; on, the rest is attributed {@value #UNKNOWN}. Off,
   * one recording (also of 0, as before FEAT-10); on, nothing when {@code count} is 0.
   *
   * @param base the OBS-5 attributes ({@code reason}, {@code lane})
   */
  public void add(
      LongCounter counter, Attributes base, long count, Collection<LogEntry> identified) {
    if (!enabled) {
      counter.add(count, base);
      return;
    }
    if (count <= 0) {
      return;
    }
    Map<Attributes, Long> groups = new HashMap<>();
    long known = 0;
    for (LogEntry e : identified) {
      if (!e.checkpointOnly() && known < count) {
        groups.merge(attributes(base, e.labels()), 1L, Long::sum);
        known++;
      }
    }
    if (known < count) {
      groups.merge(unknown(base), count - known, Long::sum);
    }
    groups.forEach((attrs, n) -> counter.add(n, attrs));
  }

  /**
   * Counts pre-grouped real entries ({@link #group}) on {@code counter}: off, their sum under
   * {@code base}; on, each group under its own attributes.
   */
  public void addGroups(LongCounter counter, Attributes base, Map<Attributes, Long> groups) {
    if (!enabled) {
      counter.add(groups.values().stream().mapToLong(Long::longValue).sum(), base);
      return;
    }
    groups.forEach(
        (g, n) -> {
          if (n > 0) {
            counter.add(n, base.toBuilder().putAll(g).build());
          }
        });
  }

  /**
   * The attribution group of a real entry (its {@code source}, {@code event_type} and {@code org}
   * labels, as attributes), or the empty set when off.
   */
  public Attributes group(LogEntry e) {
    return enabled ? attributes(Attributes.empty(), e.labels()) : Attributes.empty();
  }

  private static Attributes attributes(Attributes base, Map<String, String> labels) {
    var b =
        base.toBuilder()
            .put(Sf2lokiMetrics.SOURCE, labels.getOrDefault("source", UNKNOWN))
            .put(Sf2lokiMetrics.EVENT_TYPE, labels.getOrDefault("event_type", UNKNOWN));
    String org = labels.get("org");
    if (org != null) {
      b.put(Sf2lokiMetrics.ORG, org);
    }
    return b.build();
  }

  private static Attributes unknown(Attributes base) {
    return base.toBuilder()
        .put(Sf2lokiMetrics.SOURCE, UNKNOWN)
        .put(Sf2lokiMetrics.EVENT_TYPE, UNKNOWN)
        .build();
  }
}
