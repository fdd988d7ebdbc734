package io.sf2loki.salesforce.elf;

import io.sf2loki.core.settings.Setting;
import io.sf2loki.salesforce.source.Soql;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Configuration of one org's EventLogFile source ({@code sources.eventlogfile}, SPEC §1.3, ELF-1…
 * ELF-16), already defaulted and validated by the configuration loader (CFG-16…CFG-18, CFG-20).
 *
 * @param interval which files to read ({@code Hourly} or {@code Daily})
 * @param eventTypes configured types in configuration order; an entry named {@code *} requests
 *     discovery (ELF-2): discovered types take its sample rate and the global metadata list
 * @param exclude exact type names skipped by discovery
 * @param pollInterval time between cycle starts, jittered by SRC-21; strictly positive
 * @param lookback first-run window: an absent cursor starts at server now − lookback (ELF-4)
 * @param timestampColumn CSV column tried first for the entry timestamp, then {@code TIMESTAMP}
 *     (ELF-14); default {@code TIMESTAMP_DERIVED}
 * @param pageSize at most this many files listed per type per cycle (ELF-5), 1…50000
 * @param settleWindow files younger than this (server now − CreatedDate) wait (ELF-7); zero = off.
 *     Must already be defaulted per CFG-18 (5m for Hourly, 0s otherwise)
 * @param downloadMaxAge a non-deterministic download failure abandons the file only when it is
 *     older than this (ELF-12); zero = abandon at once
 * @param concurrency at most this many types processed at once (ELF-1), ≥ 1
 * @param structuredMetadataFields global {@code sink.loki.structured_metadata_fields} (SRC-9), used
 *     by types whose own list is null
 * @param finite when true, {@link EventLogFileSource#run} returns after the first cycle that
 *     processed no new file (for demos and finite runs); false = poll forever
 */
public record EventLogFileSettings(
    Interval interval,
    List<EventTypeSettings> eventTypes,
    List<String> exclude,
    Duration pollInterval,
    Duration lookback,
    String timestampColumn,
    int pageSize,
    Duration settleWindow,
    Duration downloadMaxAge,
    int concurrency,
    List<String> structuredMetadataFields,
    boolean finite) {
  /** Definition of the {@code interval} key (SPEC §1.3). */
  public static final Setting INTERVAL =
      Setting.choice(
          "interval", "Hourly", List.of("Hourly", "Daily"), "Which files to read.", "ELF-1");

  /** Definition of the {@code exclude} key (SPEC §1.3). */
  public static final Setting EXCLUDE =
      Setting.list("exclude", List.of(), "Exact type names skipped by discovery.", "ELF-2");

  /** Definition of the {@code poll_interval} key (SPEC §1.3). */
  public static final Setting POLL_INTERVAL =
      Setting.duration("poll_interval", Duration.ofHours(1), "Time between cycles.", "ELF-3")
          .greaterThan(0);

  /** Definition of the {@code lookback} key (SPEC §1.3). */
  public static final Setting LOOKBACK =
      Setting.duration("lookback", Duration.ofHours(24), "First-run window.", "ELF-4");

  /** Definition of the {@code timestamp_column} key (SPEC §1.3). */
  public static final Setting TIMESTAMP_COLUMN =
      Setting.string(
          "timestamp_column",
          "TIMESTAMP_DERIVED",
          "CSV column tried first for the timestamp.",
          "ELF-14");

  /** Definition of the {@code page_size} key (SPEC §1.3). */
  public static final Setting PAGE_SIZE =
      Setting.integer("page_size", 1000, "Files listed per type per cycle.", "ELF-5")
          .atLeast(1)
          .atMost(50_000);

  /** Definition of the {@code settle_window} key (SPEC §1.3). */
  public static final Setting SETTLE_WINDOW =
      Setting.duration("settle_window", null, "Files younger than this wait.", "CFG-18, ELF-7")
          .defaultText("5m when interval is Hourly, else 0s");

  /** Definition of the {@code download_max_age} key (SPEC §1.3). */
  public static final Setting DOWNLOAD_MAX_AGE =
      Setting.duration(
          "download_max_age",
          Duration.ofHours(24),
          "A failing file is abandoned once older than this; 0 = at once.",
          "ELF-12");

  /** Definition of the {@code concurrency} key (SPEC §1.3). */
  public static final Setting CONCURRENCY =
      Setting.integer("concurrency", 4, "Types processed at once.", "ELF-1").atLeast(1);

  /** {@code sources.eventlogfile.interval}. */
  public enum Interval {
    Hourly,
    Daily
  }

  /**
   * One {@code event_types[]} entry.
   *
   * @param name EventType (SOQL identifier, CFG-10) or {@code *}
   * @param structuredMetadataFields per-type metadata list; null = the global list, empty = none
   * @param labels CSV columns promoted to stream labels (CFG-16), in order
   * @param sample sampling rate in (0, 1] (SRC-14, XF-9)
   */
  public record EventTypeSettings(
      String name, List<String> structuredMetadataFields, List<String> labels, double sample) {
    /** Definition of the {@code name} key (SPEC §1.3). */
    public static final Setting NAME =
        Setting.string("name", null, "EventType (SOQL identifier) or \"*\".", "CFG-10, ELF-2")
            .mandatory()
            .example("Login");

    /** Definition of the {@code structured_metadata_fields} key (SPEC §1.3). */
    public static final Setting STRUCTURED_METADATA_FIELDS =
        Setting.list(
                "structured_metadata_fields",
                null,
                "Per-type metadata fields; null = global list, [] = none.",
                "SRC-9")
            .defaultText("null (global list)");

    /** Definition of the {@code labels} key (SPEC §1.3). */
    public static final Setting LABELS =
        Setting.list("labels", List.of(), "CSV columns promoted to stream labels.", "CFG-16");

    public EventTypeSettings {
      Objects.requireNonNull(name, "name");
      structuredMetadataFields =
          structuredMetadataFields == null ? null : List.copyOf(structuredMetadataFields);
      labels = labels == null ? List.of() : List.copyOf(labels);
      if (!(sample > 0 && sample <= 1)) {
        throw new IllegalArgumentException("sample must be in (0, 1]: " + sample);
      }
    }

    /** {@code {name: X}} with every other key at its default. */
    public static EventTypeSettings of(String name) {
      return new EventTypeSettings(name, null, List.of(), 1.0);
    }

    /** Whether this is the discovery entry {@code *}. */
    public boolean isWildcard() {
      return "*".equals(name);
    }
  }

  /**
   * Validates the fields this source relies on.
   *
   * @throws IllegalArgumentException when a value is outside its SPEC range or an explicit type
   *     name is not a SOQL identifier (CFG-10)
   */
  public EventLogFileSettings {
    Objects.requireNonNull(interval, "interval");
    eventTypes = List.copyOf(eventTypes);
    exclude = exclude == null ? List.of() : List.copyOf(exclude);
    Objects.requireNonNull(pollInterval, "pollInterval");
    Objects.requireNonNull(lookback, "lookback");
    Objects.requireNonNull(settleWindow, "settleWindow");
    Objects.requireNonNull(downloadMaxAge, "downloadMaxAge");
    timestampColumn = timestampColumn == null ? TIMESTAMP_COLUMN.stringDefault() : timestampColumn;
    structuredMetadataFields =
        structuredMetadataFields == null ? List.of() : List.copyOf(structuredMetadataFields);
    if (pollInterval.isNegative() || pollInterval.isZero()) {
      throw new IllegalArgumentException("poll_interval must be > 0");
    }
    if (lookback.isNegative() || settleWindow.isNegative() || downloadMaxAge.isNegative()) {
      throw new IllegalArgumentException("durations must not be negative");
    }
    if (pageSize < 1 || pageSize > 50000) {
      throw new IllegalArgumentException("page_size must be 1…50000: " + pageSize);
    }
    if (concurrency < 1) {
      throw new IllegalArgumentException("concurrency must be ≥ 1: " + concurrency);
    }
    for (EventTypeSettings t : eventTypes) {
      if (!t.isWildcard() && !Soql.isIdentifier(t.name())) {
        throw new IllegalArgumentException("event type is not a SOQL identifier: " + t.name());
      }
    }
  }

  /**
   * Settings with every key at its SPEC default (§1.3, CFG-18) for the given types.
   *
   * @param interval Hourly or Daily; decides the settle window default (5m / 0s)
   * @param eventTypes the types to read
   * @param globalMetadataFields {@code sink.loki.structured_metadata_fields}
   */
  public static EventLogFileSettings defaults(
      Interval interval, List<EventTypeSettings> eventTypes, List<String> globalMetadataFields) {
    return new EventLogFileSettings(
        interval,
        eventTypes,
        List.of(),
        POLL_INTERVAL.durationDefault(),
        LOOKBACK.durationDefault(),
        TIMESTAMP_COLUMN.stringDefault(),
        (int) PAGE_SIZE.longDefault(),
        defaultSettleWindow(interval),
        DOWNLOAD_MAX_AGE.durationDefault(),
        (int) CONCURRENCY.longDefault(),
        globalMetadataFields,
        false);
  }

  /** CFG-18: the {@code settle_window} default, 5m for {@code Hourly} and 0s otherwise. */
  public static Duration defaultSettleWindow(Interval interval) {
    return interval == Interval.Hourly ? Duration.ofMinutes(5) : Duration.ZERO;
  }

  /** Returns a copy with another {@code finite} flag. */
  public EventLogFileSettings withFinite(boolean newFinite) {
    return new EventLogFileSettings(
        interval,
        eventTypes,
        exclude,
        pollInterval,
        lookback,
        timestampColumn,
        pageSize,
        settleWindow,
        downloadMaxAge,
        concurrency,
        structuredMetadataFields,
        newFinite);
  }
}
