package io.sf2loki.sim.org;

import java.time.Instant;
import java.util.Objects;

/**
 * One EventLogFile record of the simulated org.
 *
 * @param id 18-character record id ({@code 0AT...})
 * @param eventType EventType, e.g. {@code Login}
 * @param interval {@code Hourly} or {@code Daily}
 * @param logDate the period the file covers (start of hour/day, UTC)
 * @param createdDate when the file became visible; the listing filters and orders on it
 * @param sequence {@code Sequence} (1.. per hourly LogDate, 0 for daily files)
 * @param body the CSV content
 */
public record SimLogFile(
    String id,
    String eventType,
    String interval,
    Instant logDate,
    Instant createdDate,
    int sequence,
    LogFileBody body) {
  public SimLogFile {
    Objects.requireNonNull(id);
    Objects.requireNonNull(eventType);
    Objects.requireNonNull(interval);
    Objects.requireNonNull(logDate);
    Objects.requireNonNull(createdDate);
    Objects.requireNonNull(body);
  }

  /** {@code LogFileLength}: the body size in bytes. */
  public long length() {
    return body.length();
  }
}
