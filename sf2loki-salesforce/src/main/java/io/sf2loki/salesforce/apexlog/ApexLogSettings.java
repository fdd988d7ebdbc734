package io.sf2loki.salesforce.apexlog;

import io.sf2loki.core.settings.Setting;
import io.sf2loki.salesforce.revisit.RevisitSettings;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Configuration of one org's ApexLog source ({@code sources.apexlog}, SPEC §1.3, APX-1…APX-9),
 * already defaulted and validated by the configuration loader (usernames match the CFG-10 pattern
 * there; this record re-checks only what the source relies on).
 *
 * @param pollInterval time between poll starts, jittered by SRC-21; strictly positive (SPEC default
 *     1m)
 * @param lookback first-run window: an absent or unusable cursor starts at server now − lookback
 *     (APX-2; SPEC default 1h); not negative
 * @param users exact usernames for the {@code LogUser.Username IN (...)} filter (APX-1); empty =
 *     every log
 * @param maxBodyBytes logs whose {@code LogLength} exceeds this many bytes ship metadata only
 *     (APX-5; SPEC default 5242880); &gt; 0
 * @param sample sampling rate in (0, 1] keyed by the log Id (SRC-14, XF-9)
 * @param structuredMetadataFields global {@code sink.loki.structured_metadata_fields} (SRC-9,
 *     APX-4)
 * @param finite when true, {@link ApexLogSource#run} polls back to back and returns after the first
 *     poll that moved the cursor past no log (demos and finite runs); false = poll forever
 * @param revisit the late-visibility revisit (APX-10); {@link RevisitSettings#OFF} = none
 */
public record ApexLogSettings(
    Duration pollInterval,
    Duration lookback,
    List<String> users,
    long maxBodyBytes,
    double sample,
    List<String> structuredMetadataFields,
    boolean finite,
    RevisitSettings revisit) {
  /** Definition of the {@code poll_interval} key (SPEC §1.3). */
  public static final Setting POLL_INTERVAL =
      Setting.duration("poll_interval", Duration.ofMinutes(1), "Time between polls.", "APX-1")
          .greaterThan(0);

  /** Definition of the {@code lookback} key (SPEC §1.3). */
  public static final Setting LOOKBACK =
      Setting.duration("lookback", Duration.ofHours(1), "First-run window.", "APX-2");

  /** Definition of the {@code users} key (SPEC §1.3). */
  public static final Setting USERS =
      Setting.list("users", List.of(), "Exact usernames; empty = all logs.", "CFG-10");

  /** Definition of the {@code max_body_bytes} key (SPEC §1.3). */
  public static final Setting MAX_BODY_BYTES =
      Setting.integer("max_body_bytes", 5_242_880L, "Largest log body downloaded.", "APX-4")
          .greaterThan(0);

  /**
   * @throws IllegalArgumentException when a value is outside its SPEC range or a username is empty
   */
  public ApexLogSettings {
    Objects.requireNonNull(pollInterval, "pollInterval");
    Objects.requireNonNull(lookback, "lookback");
    Objects.requireNonNull(revisit, "revisit");
    users = users == null ? List.of() : List.copyOf(users);
    structuredMetadataFields =
        structuredMetadataFields == null ? List.of() : List.copyOf(structuredMetadataFields);
    if (pollInterval.isNegative() || pollInterval.isZero()) {
      throw new IllegalArgumentException("poll_interval must be > 0");
    }
    if (lookback.isNegative()) {
      throw new IllegalArgumentException("lookback must not be negative");
    }
    if (maxBodyBytes <= 0) {
      throw new IllegalArgumentException("max_body_bytes must be > 0: " + maxBodyBytes);
    }
    if (!(sample > 0 && sample <= 1)) {
      throw new IllegalArgumentException("sample must be in (0, 1]: " + sample);
    }
    for (String u : users) {
      if (u == null || u.isEmpty()) {
        throw new IllegalArgumentException("users must not contain empty names");
      }
    }
  }

  /** All keys but the revisit, which is {@link RevisitSettings#OFF}. */
  public ApexLogSettings(
      Duration pollInterval,
      Duration lookback,
      List<String> users,
      long maxBodyBytes,
      double sample,
      List<String> structuredMetadataFields,
      boolean finite) {
    this(
        pollInterval,
        lookback,
        users,
        maxBodyBytes,
        sample,
        structuredMetadataFields,
        finite,
        RevisitSettings.OFF);
  }

  /**
   * Every key at its SPEC default, all users, the given global metadata list, except the revisit,
   * which is off here (the configuration loader applies its defaults; {@link #withRevisit} opts
   * in).
   */
  public static ApexLogSettings defaults(List<String> globalMetadataFields) {
    return new ApexLogSettings(
        POLL_INTERVAL.durationDefault(),
        LOOKBACK.durationDefault(),
        List.of(),
        MAX_BODY_BYTES.longDefault(),
        io.sf2loki.core.shape.Sampler.RATE.doubleDefault(),
        globalMetadataFields,
        false);
  }

  /** A copy with another {@code users} list. */
  public ApexLogSettings withUsers(List<String> newUsers) {
    return new ApexLogSettings(
        pollInterval,
        lookback,
        newUsers,
        maxBodyBytes,
        sample,
        structuredMetadataFields,
        finite,
        revisit);
  }

  /** A copy with another {@code max_body_bytes}. */
  public ApexLogSettings withMaxBodyBytes(long newMax) {
    return new ApexLogSettings(
        pollInterval, lookback, users, newMax, sample, structuredMetadataFields, finite, revisit);
  }

  /** A copy with another {@code sample} rate. */
  public ApexLogSettings withSample(double newSample) {
    return new ApexLogSettings(
        pollInterval,
        lookback,
        users,
        maxBodyBytes,
        newSample,
        structuredMetadataFields,
        finite,
        revisit);
  }

  /** A copy with another revisit (APX-10). */
  public ApexLogSettings withRevisit(RevisitSettings r) {
    return new ApexLogSettings(
        pollInterval, lookback, users, maxBodyBytes, sample, structuredMetadataFields, finite, r);
  }

  /** A copy with another {@code finite} flag. */
  public ApexLogSettings withFinite(boolean newFinite) {
    return new ApexLogSettings(
        pollInterval,
        lookback,
        users,
        maxBodyBytes,
        sample,
        structuredMetadataFields,
        newFinite,
        revisit);
  }
}
