package io.sf2loki.app.backfill;

import io.sf2loki.salesforce.source.Soql;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One {@code sf2loki backfill} invocation, validated (SPEC CLI-11, CLI-20, BF-3, BF-4, FEAT-4).
 *
 * @param since inclusive start, a UTC midnight (BF-3)
 * @param until exclusive end: a UTC midnight, or the invocation's "now" when not given (BF-3)
 * @param eventTypes the {@code --event-types} items (SOQL identifiers or {@code *}), or empty when
 *     not given (then: configured explicit types, else discovery; BF-4)
 * @param interval {@code Daily} or {@code Hourly}, or null when {@code --interval} was not given
 *     (then the org's {@code sources.eventlogfile.interval}, BF-1; see {@link #withInterval})
 * @param ingestTimestamps {@code --ingest-timestamps} (BF-8)
 * @param concurrency downloads in flight, ≥ 1 (BF-6)
 * @param org {@code --org}, or empty for the first org
 * @param dryRun {@code --dry-run} (FEAT-4)
 * @param maxBytesPerSecond {@code --max-bytes-per-second}: the backfill's own cap on pushed line
 *     bytes per second, 0 = none (CLI-20)
 */
public record BackfillRequest(
    Instant since,
    Instant until,
    Optional<List<String>> eventTypes,
    String interval,
    boolean ingestTimestamps,
    int concurrency,
    Optional<String> org,
    boolean dryRun,
    long maxBytesPerSecond) {

  public BackfillRequest {
    Objects.requireNonNull(since, "since");
    Objects.requireNonNull(until, "until");
    eventTypes = eventTypes.map(List::copyOf);
  }

  /** This request with {@code interval} ({@code Daily} or {@code Hourly}) when none was given. */
  public BackfillRequest withInterval(String configured) {
    if (interval != null) {
      return this;
    }
    return new BackfillRequest(
        since,
        until,
        eventTypes,
        configured,
        ingestTimestamps,
        concurrency,
        org,
        dryRun,
        maxBytesPerSecond);
  }

  /** A request that cannot run: the CLI prints the message and exits 2 (BF-3, BF-4). */
  public static final class InvalidRequestException extends IllegalArgumentException {
    InvalidRequestException(String message) {
      super(message);
    }
  }

  /**
   * Parses the raw option values.
   *
   * @param since {@code --since YYYY-MM-DD}
   * @param until {@code --until YYYY-MM-DD}, or null (now)
   * @param eventTypes {@code --event-types A,B}, or null
   * @param now the invocation's wall-clock time (default {@code until})
   * @throws InvalidRequestException for a bad date, an empty range, a bad type, a bad interval or a
   *     concurrency below 1
   */
  public static BackfillRequest parse(
      String since,
      String until,
      String eventTypes,
      String interval,
      boolean ingestTimestamps,
      int concurrency,
      String org,
      boolean dryRun,
      long maxBytesPerSecond,
      Instant now) {
    Instant from = midnight("--since", since);
    Instant to = until == null ? now : midnight("--until", until);
    if (!from.isBefore(to)) {
      throw new InvalidRequestException(
          "--since " + since + " is not before --until " + (until == null ? "(now)" : until));
    }
    if (interval != null) { // Salesforce spells them Daily / Hourly; any case is accepted
      if (interval.equalsIgnoreCase("Daily")) {
        interval = "Daily";
      } else if (interval.equalsIgnoreCase("Hourly")) {
        interval = "Hourly";
      } else {
        throw new InvalidRequestException(
            "--interval must be Daily or Hourly (any case), not '" + interval + "'");
      }
    }
    if (concurrency < 1) {
      throw new InvalidRequestException("--concurrency must be at least 1, not " + concurrency);
    }
    if (maxBytesPerSecond < 0) {
      throw new InvalidRequestException("--max-bytes-per-second must be >= 0");
    }
    return new BackfillRequest(
        from,
        to,
        Optional.ofNullable(eventTypes).map(BackfillRequest::types),
        interval,
        ingestTimestamps,
        concurrency,
        Optional.ofNullable(org),
        dryRun,
        maxBytesPerSecond);
  }

  /** BF-4: split on commas, trimmed, empties dropped; each a SOQL identifier or {@code *}. */
  static List<String> types(String raw) {
    List<String> out = new ArrayList<>();
    for (String item : raw.split(",", -1)) {
      String t = item.trim();
      if (t.isEmpty()) {
        continue;
      }
      if (!t.equals("*") && !Soql.isIdentifier(t)) {
        throw new InvalidRequestException(
            "--event-types: '" + t + "' is not an EventType name (letters, digits, _) or *");
      }
      if (!out.contains(t)) {
        out.add(t);
      }
    }
    if (out.isEmpty()) {
      throw new InvalidRequestException("--event-types names no type");
    }
    return out;
  }

  private static Instant midnight(String option, String value) {
    try {
      return LocalDate.parse(value).atStartOfDay(ZoneOffset.UTC).toInstant();
    } catch (DateTimeParseException | NullPointerException e) {
      throw new InvalidRequestException(option + " must be a date YYYY-MM-DD, not '" + value + "'");
    }
  }

  /** Whether the types include discovery ({@code *}), or none were given (then the config says). */
  boolean discovers() {
    return eventTypes.map(l -> l.contains("*")).orElse(false);
  }
}
