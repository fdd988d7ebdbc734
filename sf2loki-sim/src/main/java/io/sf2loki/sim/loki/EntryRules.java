package io.sf2loki.sim.loki;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;

/**
 * The per-entry checks the receiver applies before an entry reaches the ingester, in Loki's order
 * with Loki's texts ({@link LokiMessages}): a timestamp, the line size limit, the fault schedule's
 * marker rejections, structured metadata allowed, not too old, not too new. Immutable apart from
 * the fault schedule it reads.
 */
final class EntryRules {
  private final long maxLineBytes;
  private final boolean allowStructuredMetadata;
  private final Duration rejectOlderThan;
  private final Duration creationGracePeriod;
  private final LokiFaultSchedule faults;

  /**
   * @param maxLineBytes line limit in bytes (0: none)
   * @param allowStructuredMetadata whether entries may carry structured metadata
   * @param rejectOlderThan {@code reject_old_samples_max_age}, or null
   * @param creationGracePeriod {@code creation_grace_period}, or null
   * @param faults marker rejections
   */
  EntryRules(
      long maxLineBytes,
      boolean allowStructuredMetadata,
      Duration rejectOlderThan,
      Duration creationGracePeriod,
      LokiFaultSchedule faults) {
    this.maxLineBytes = maxLineBytes;
    this.allowStructuredMetadata = allowStructuredMetadata;
    this.rejectOlderThan = rejectOlderThan;
    this.creationGracePeriod = creationGracePeriod;
    this.faults = faults;
  }

  /** Loki's error text for {@code e} of {@code stream}, or null when it passes. */
  String validate(PushedEntry e, String stream, Instant now) {
    if (e.timestamp() == null) {
      return "entry for stream '" + stream + "' has no timestamp";
    }
    int len = e.line().getBytes(StandardCharsets.UTF_8).length;
    if (maxLineBytes > 0 && len > maxLineBytes) {
      return LokiMessages.maxEntrySize(maxLineBytes, stream, len);
    }
    String marker = faults.markerRejection(e.line(), stream);
    if (marker != null) {
      return marker;
    }
    if (!allowStructuredMetadata && !e.structuredMetadata().isEmpty()) {
      return LokiMessages.metadataDisallowed(stream);
    }
    if (rejectOlderThan != null && e.timestamp().isBefore(now.minus(rejectOlderThan))) {
      return LokiMessages.tooOld(stream, e.timestamp(), now.minus(rejectOlderThan));
    }
    if (creationGracePeriod != null && e.timestamp().isAfter(now.plus(creationGracePeriod))) {
      return LokiMessages.tooNew(stream, e.timestamp());
    }
    return null;
  }
}
