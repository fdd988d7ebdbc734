package io.sf2loki.app.backfill;

import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The run's counters and the BF-11 summary. Written by the run thread, read by the progress
 * reporter (atomics); the failure map is guarded by this object.
 */
final class BackfillSummary {
  final AtomicLong files = new AtomicLong();
  final AtomicLong rowsRead = new AtomicLong();
  final AtomicLong rowsPushed = new AtomicLong();
  final AtomicLong rowsDropped = new AtomicLong();
  final AtomicLong bytesPushed = new AtomicLong();
  final AtomicLong fileBytesDone = new AtomicLong();
  final AtomicLong downloads = new AtomicLong();
  final AtomicLong listings = new AtomicLong();
  final AtomicLong rowsRestamped = new AtomicLong();
  private final Map<String, String> failedTypes = new TreeMap<>();

  synchronized void typeFailed(String type, String reason) {
    failedTypes.putIfAbsent(type, reason);
  }

  synchronized Map<String, String> failedTypes() {
    return Map.copyOf(failedTypes);
  }

  /**
   * BF-11: {@code sf2loki backfill summary: files=<n> rows_pushed=<n> rows_dropped=<n>
   * bytes_pushed=<line bytes> api_calls=<downloads> types_failed=<n> elapsed=<s>s}, then one line
   * per failed type and one line with the listing calls and total API calls (BF-12).
   */
  synchronized String render(Duration elapsed) {
    StringBuilder sb = new StringBuilder();
    sb.append(
        String.format(
            Locale.ROOT,
            "sf2loki backfill summary: files=%d rows_pushed=%d rows_dropped=%d bytes_pushed=%d"
                + " api_calls=%d types_failed=%d elapsed=%.1fs%n",
            files.get(),
            rowsPushed.get(),
            rowsDropped.get(),
            bytesPushed.get(),
            downloads.get(),
            failedTypes.size(),
            elapsed.toMillis() / 1000.0));
    failedTypes.forEach(
        (t, r) ->
            sb.append("sf2loki backfill failed type: event_type=")
                .append(t)
                .append(" reason=")
                .append(r)
                .append(System.lineSeparator()));
    sb.append(
        String.format(
            Locale.ROOT,
            "sf2loki backfill calls: listings=%d downloads=%d total=%d%n",
            listings.get(),
            downloads.get(),
            listings.get() + downloads.get()));
    sb.append(
        String.format(
            Locale.ROOT,
            "sf2loki backfill late: rows_restamped=%d (late=\"true\", SINK-13)%n",
            rowsRestamped.get()));
    return sb.toString();
  }
}
