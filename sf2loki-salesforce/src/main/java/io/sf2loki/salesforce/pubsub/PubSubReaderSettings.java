package io.sf2loki.salesforce.pubsub;

import com.salesforce.eventbus.protobuf.ReplayPreset;
import io.sf2loki.core.settings.Setting;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.ToDoubleFunction;

/**
 * Tunables of one org's Pub/Sub topic readers (SPEC §1.3 {@code sources.pubsub.*}, PS-3…PS-15).
 * {@link #defaults(List)} gives the SPEC defaults.
 *
 * @param numRequested {@code default_num_requested} n, 1…100 (PS-3; default 100)
 * @param replayPreset {@code replay_preset} (PS-13; default CUSTOM)
 * @param onInvalidReplay {@code on_invalid_replay}: EARLIEST (default) or LATEST (PS-13, PS-15)
 * @param watchdog no response of any kind for this long cancels the call (PS-8; default 300 s)
 * @param backoffInitial first reconnect wait (PS-14; default 1 s)
 * @param backoffMax largest reconnect wait before jitter (PS-14; default 30 s)
 * @param skipAfter consecutive connections failing on the same replay id before it is skipped
 *     (PS-6; default 5)
 * @param stuckAfter consecutive decode-ended connections or schema failures reported as a stuck
 *     topic (PS-9; default 3)
 * @param schemaDeadline deadline of the unary {@code GetSchema} call (SRC-25; default 30 s)
 * @param structuredMetadataFields global {@code sink.loki.structured_metadata_fields} (SRC-9)
 * @param sampleRates topic → sample rate of {@code sources.pubsub.sample}, first glob matching the
 *     topic (XF-9); 1.0 keeps every event (default)
 * @param inboxPoll real-time granularity at which a waiting reader re-checks its watchdog and stop
 *     signal (not a SPEC value; default 1 s, tests use milliseconds)
 */
public record PubSubReaderSettings(
    int numRequested,
    ReplayPreset replayPreset,
    ReplayPreset onInvalidReplay,
    Duration watchdog,
    Duration backoffInitial,
    Duration backoffMax,
    int skipAfter,
    int stuckAfter,
    Duration schemaDeadline,
    List<String> structuredMetadataFields,
    ToDoubleFunction<String> sampleRates,
    Duration inboxPoll) {
  /** Definition of the {@code default_num_requested} key (SPEC §1.3). */
  public static final Setting NUM_REQUESTED =
      Setting.integer("default_num_requested", 100, "Credits per FetchRequest.", "PS-8")
          .atLeast(1)
          .atMost(100);

  /** Definition of the {@code replay_preset} key (SPEC §1.3). */
  public static final Setting REPLAY_PRESET =
      Setting.choice(
          "replay_preset",
          "CUSTOM",
          List.of("LATEST", "EARLIEST", "CUSTOM"),
          "Where a topic without a stored replay id starts.",
          "PS-13");

  /** Definition of the {@code on_invalid_replay} key (SPEC §1.3). */
  public static final Setting ON_INVALID_REPLAY =
      Setting.choice(
          "on_invalid_replay",
          "earliest",
          List.of("earliest", "latest"),
          "Preset used once when a stored replay id is rejected.",
          "PS-13, PS-15");

  /** Definition of the {@code sample} key (SPEC §1.3). */
  public static final Setting SAMPLE =
      Setting.rateMap("sample", "Glob → sampling rate; first match in map order.", "SRC-14");

  /** PS-8 default watchdog. */
  public static final Duration DEFAULT_WATCHDOG = Duration.ofSeconds(300);

  /** PS-14 bounds. */
  public static final Duration DEFAULT_BACKOFF_INITIAL = Duration.ofSeconds(1);

  /** PS-14 bounds. */
  public static final Duration DEFAULT_BACKOFF_MAX = Duration.ofSeconds(30);

  /** PS-6 skip threshold. */
  public static final int DEFAULT_SKIP_AFTER = 5;

  /** PS-9 stuck-topic threshold. */
  public static final int DEFAULT_STUCK_AFTER = 3;

  /** SRC-25 unary deadline. */
  public static final Duration DEFAULT_SCHEMA_DEADLINE = Duration.ofSeconds(30);

  /**
   * @throws IllegalArgumentException when n is outside 1…100, {@code onInvalidReplay} is CUSTOM, or
   *     a duration is not positive
   */
  public PubSubReaderSettings {
    if (numRequested < 1 || numRequested > 100) {
      throw new IllegalArgumentException("default_num_requested must be 1..100");
    }
    Objects.requireNonNull(replayPreset, "replayPreset");
    Objects.requireNonNull(onInvalidReplay, "onInvalidReplay");
    if (onInvalidReplay == ReplayPreset.CUSTOM || onInvalidReplay == ReplayPreset.UNRECOGNIZED) {
      throw new IllegalArgumentException("on_invalid_replay must be EARLIEST or LATEST");
    }
    if (replayPreset == ReplayPreset.UNRECOGNIZED) {
      throw new IllegalArgumentException("replay_preset must be LATEST, EARLIEST or CUSTOM");
    }
    for (Duration d : List.of(watchdog, backoffInitial, backoffMax, schemaDeadline, inboxPoll)) {
      if (d.isZero() || d.isNegative()) {
        throw new IllegalArgumentException("pubsub reader durations must be positive");
      }
    }
    if (skipAfter < 1 || stuckAfter < 1) {
      throw new IllegalArgumentException("skipAfter and stuckAfter must be >= 1");
    }
    structuredMetadataFields =
        structuredMetadataFields == null ? List.of() : List.copyOf(structuredMetadataFields);
    sampleRates = sampleRates == null ? t -> 1.0 : sampleRates;
  }

  /** SPEC defaults with the given global structured metadata list. */
  public static PubSubReaderSettings defaults(List<String> structuredMetadataFields) {
    return new PubSubReaderSettings(
        (int) NUM_REQUESTED.longDefault(),
        ReplayPreset.CUSTOM,
        ReplayPreset.EARLIEST,
        DEFAULT_WATCHDOG,
        DEFAULT_BACKOFF_INITIAL,
        DEFAULT_BACKOFF_MAX,
        DEFAULT_SKIP_AFTER,
        DEFAULT_STUCK_AFTER,
        DEFAULT_SCHEMA_DEADLINE,
        structuredMetadataFields,
        t -> 1.0,
        Duration.ofSeconds(1));
  }

  /** A copy with other replay presets. */
  public PubSubReaderSettings withPresets(ReplayPreset preset, ReplayPreset onInvalid) {
    return new PubSubReaderSettings(
        numRequested,
        preset,
        onInvalid,
        watchdog,
        backoffInitial,
        backoffMax,
        skipAfter,
        stuckAfter,
        schemaDeadline,
        structuredMetadataFields,
        sampleRates,
        inboxPoll);
  }

  /** A copy with another n (PS-3). */
  public PubSubReaderSettings withNumRequested(int n) {
    return new PubSubReaderSettings(
        n,
        replayPreset,
        onInvalidReplay,
        watchdog,
        backoffInitial,
        backoffMax,
        skipAfter,
        stuckAfter,
        schemaDeadline,
        structuredMetadataFields,
        sampleRates,
        inboxPoll);
  }

  /** A copy with another sample-rate lookup (XF-9). */
  public PubSubReaderSettings withSampleRates(ToDoubleFunction<String> rates) {
    return new PubSubReaderSettings(
        numRequested,
        replayPreset,
        onInvalidReplay,
        watchdog,
        backoffInitial,
        backoffMax,
        skipAfter,
        stuckAfter,
        schemaDeadline,
        structuredMetadataFields,
        rates,
        inboxPoll);
  }

  /** A copy with another inbox poll granularity. */
  public PubSubReaderSettings withInboxPoll(Duration poll) {
    return new PubSubReaderSettings(
        numRequested,
        replayPreset,
        onInvalidReplay,
        watchdog,
        backoffInitial,
        backoffMax,
        skipAfter,
        stuckAfter,
        schemaDeadline,
        structuredMetadataFields,
        sampleRates,
        poll);
  }
}
