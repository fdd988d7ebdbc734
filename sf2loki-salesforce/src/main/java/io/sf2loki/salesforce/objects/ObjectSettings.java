package io.sf2loki.salesforce.objects;

import io.sf2loki.core.settings.Setting;
import io.sf2loki.salesforce.revisit.RevisitSettings;
import io.sf2loki.salesforce.source.Soql;
import java.time.Duration;
import java.util.Objects;

/**
 * One {@code sources.eventlog_objects.objects[]} entry (SPEC §1.3, OBJ-1…OBJ-12), already defaulted
 * and validated by the configuration loader (CFG-10).
 *
 * @param name object name, a SOQL identifier; also the {@code event_type} label and the checkpoint
 *     key suffix
 * @param timestampField SOQL identifier of the cursor field (default {@code EventDate})
 * @param pollInterval time between polls of this object, jittered (SRC-21); strictly positive
 * @param lookback first-run window: an absent or unusable cursor starts at server now − lookback
 *     (OBJ-2)
 * @param settleWindow every query is bounded by {@code <ts> <= server now − settleWindow} (OBJ-6);
 *     zero = no bound
 * @param sample sampling rate in (0, 1] (SRC-14, XF-9)
 * @param bigObject DESC drain (OBJ-5) instead of the ASC compound cursor (OBJ-3)
 * @param maxCatchupRecords records held by one DESC drain, 0 = unbounded (OBJ-8)
 * @param maxCatchupBytes canonical-JSON bytes held by one DESC drain, 0 = unbounded (OBJ-8)
 * @param tiebreakField SOQL identifier of the index field used to page a tie group and to key
 *     placeholder-Id rows (OBJ-5, OBJ-7; default {@code EventIdentifier})
 * @param revisit the late-visibility revisit (OBJ-13…OBJ-17); {@link RevisitSettings#OFF} = none
 */
public record ObjectSettings(
    String name,
    String timestampField,
    Duration pollInterval,
    Duration lookback,
    Duration settleWindow,
    double sample,
    boolean bigObject,
    long maxCatchupRecords,
    long maxCatchupBytes,
    String tiebreakField,
    RevisitSettings revisit) {
  /** Definition of the {@code name} key (SPEC §1.3). */
  public static final Setting NAME =
      Setting.string("name", null, "Object API name (SOQL identifier).", "CFG-10")
          .mandatory()
          .example("LoginEvent");

  /** Definition of the {@code timestamp_field} key (SPEC §1.3). */
  public static final Setting TIMESTAMP_FIELD =
      Setting.string("timestamp_field", "EventDate", "Cursor field (SOQL identifier).", "OBJ-2");

  /** Definition of the {@code poll_interval} key (SPEC §1.3). */
  public static final Setting POLL_INTERVAL =
      Setting.duration("poll_interval", Duration.ofMinutes(5), "Time between polls.", "OBJ-1")
          .greaterThan(0);

  /** Definition of the {@code lookback} key (SPEC §1.3). */
  public static final Setting LOOKBACK =
      Setting.duration("lookback", Duration.ofHours(1), "First-run window.", "OBJ-3");

  /** Definition of the {@code settle_window} key (SPEC §1.3). */
  public static final Setting SETTLE_WINDOW =
      Setting.duration(
          "settle_window", Duration.ofMinutes(1), "Rows younger than this wait.", "OBJ-6");

  /** Definition of the {@code big_object} key (SPEC §1.3). */
  public static final Setting BIG_OBJECT =
      Setting.bool("big_object", false, "Big object: DESC drain.", "OBJ-5");

  /** Definition of the {@code max_catchup_records} key (SPEC §1.3). */
  public static final Setting MAX_CATCHUP_RECORDS =
      Setting.integer(
              "max_catchup_records",
              20_000,
              "Rows held by one drain; 0 = unbounded (big objects).",
              "OBJ-8")
          .atLeast(0);

  /** Definition of the {@code max_catchup_bytes} key (SPEC §1.3). */
  public static final Setting MAX_CATCHUP_BYTES =
      Setting.integer(
              "max_catchup_bytes",
              67_108_864,
              "Canonical-JSON bytes held by one drain; 0 = unbounded.",
              "OBJ-8")
          .atLeast(0);

  /** Definition of the {@code tiebreak_field} key (SPEC §1.3). */
  public static final Setting TIEBREAK_FIELD =
      Setting.string(
          "tiebreak_field", "EventIdentifier", "Index field paging a tie group.", "OBJ-7");

  /**
   * @throws IllegalArgumentException when a name is not a SOQL identifier (CFG-10, SRC-18) or a
   *     value is outside its SPEC range
   */
  public ObjectSettings {
    requireIdentifier("name", name);
    requireIdentifier("timestamp_field", timestampField);
    requireIdentifier("tiebreak_field", tiebreakField);
    Objects.requireNonNull(pollInterval, "pollInterval");
    Objects.requireNonNull(lookback, "lookback");
    Objects.requireNonNull(settleWindow, "settleWindow");
    Objects.requireNonNull(revisit, "revisit");
    if (pollInterval.isNegative() || pollInterval.isZero()) {
      throw new IllegalArgumentException("poll_interval must be > 0");
    }
    if (lookback.isNegative() || settleWindow.isNegative()) {
      throw new IllegalArgumentException("durations must not be negative");
    }
    if (!(sample > 0 && sample <= 1)) {
      throw new IllegalArgumentException("sample must be in (0, 1]: " + sample);
    }
    if (maxCatchupRecords < 0 || maxCatchupBytes < 0) {
      throw new IllegalArgumentException("max_catchup_* must be >= 0");
    }
  }

  /** All keys but the revisit, which is {@link RevisitSettings#OFF}. */
  public ObjectSettings(
      String name,
      String timestampField,
      Duration pollInterval,
      Duration lookback,
      Duration settleWindow,
      double sample,
      boolean bigObject,
      long maxCatchupRecords,
      long maxCatchupBytes,
      String tiebreakField) {
    this(
        name,
        timestampField,
        pollInterval,
        lookback,
        settleWindow,
        sample,
        bigObject,
        maxCatchupRecords,
        maxCatchupBytes,
        tiebreakField,
        RevisitSettings.OFF);
  }

  /**
   * An object with every other key at its SPEC default, except the revisit, which is off here (the
   * configuration loader applies its defaults; {@link #withRevisit} opts in).
   */
  public static ObjectSettings defaults(String name, boolean bigObject) {
    return new ObjectSettings(
        name,
        TIMESTAMP_FIELD.stringDefault(),
        POLL_INTERVAL.durationDefault(),
        LOOKBACK.durationDefault(),
        SETTLE_WINDOW.durationDefault(),
        io.sf2loki.core.shape.Sampler.RATE.doubleDefault(),
        bigObject,
        MAX_CATCHUP_RECORDS.longDefault(),
        MAX_CATCHUP_BYTES.longDefault(),
        TIEBREAK_FIELD.stringDefault());
  }

  /** Copy with another timestamp field. */
  public ObjectSettings withTimestampField(String field) {
    return new ObjectSettings(
        name,
        field,
        pollInterval,
        lookback,
        settleWindow,
        sample,
        bigObject,
        maxCatchupRecords,
        maxCatchupBytes,
        tiebreakField,
        revisit);
  }

  /** Copy with another settle window. */
  public ObjectSettings withSettleWindow(Duration window) {
    return new ObjectSettings(
        name,
        timestampField,
        pollInterval,
        lookback,
        window,
        sample,
        bigObject,
        maxCatchupRecords,
        maxCatchupBytes,
        tiebreakField,
        revisit);
  }

  /** Copy with other catch-up caps. */
  public ObjectSettings withCatchup(long records, long bytes) {
    return new ObjectSettings(
        name,
        timestampField,
        pollInterval,
        lookback,
        settleWindow,
        sample,
        bigObject,
        records,
        bytes,
        tiebreakField,
        revisit);
  }

  /** Copy with another revisit (OBJ-13). */
  public ObjectSettings withRevisit(RevisitSettings r) {
    return new ObjectSettings(
        name,
        timestampField,
        pollInterval,
        lookback,
        settleWindow,
        sample,
        bigObject,
        maxCatchupRecords,
        maxCatchupBytes,
        tiebreakField,
        r);
  }

  static void requireIdentifier(String what, String v) {
    if (!Soql.isIdentifier(v)) {
      throw new IllegalArgumentException(what + " is not a SOQL identifier");
    }
  }
}
