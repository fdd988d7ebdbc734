package io.sf2loki.sim.org;

import io.sf2loki.sim.elf.ElfRowGenerator;
import io.sf2loki.sim.elf.GeneratedLogFile;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The EventLogFiles of a {@link SimOrg} in insertion order: ids {@code 0AT<12 digits>AAA}, Hourly
 * sequences per type and LogDate, generated bodies, regeneration (ELF-6) and removal. Thread-safe
 * (every method synchronizes on the store).
 */
final class LogFileStore {
  private final String orgId;
  private final AtomicLong fileSeq = new AtomicLong();
  private final Map<String, SimLogFile> files = new LinkedHashMap<>(); // guarded by this

  /**
   * @param orgId the org id generated rows carry
   */
  LogFileStore(String orgId) {
    this.orgId = orgId;
  }

  /** {@link SimOrg#addLogFile(String, String, Instant, Instant, LogFileBody)}. */
  synchronized String add(
      String eventType, String interval, Instant logDate, Instant createdDate, LogFileBody body) {
    String id = String.format(Locale.ROOT, "0AT%012dAAA", fileSeq.incrementAndGet());
    int sequence = 0;
    if (!"Daily".equals(interval)) {
      sequence =
          1
              + (int)
                  files.values().stream()
                      .filter(
                          f ->
                              f.eventType().equals(eventType)
                                  && f.interval().equals(interval)
                                  && f.logDate().equals(logDate))
                      .count();
    }
    files.put(id, new SimLogFile(id, eventType, interval, logDate, createdDate, sequence, body));
    return id;
  }

  /** {@link SimOrg#addGeneratedLogFile}. */
  GeneratedLogFile addGenerated(
      String eventType,
      String interval,
      Instant logDate,
      Instant createdDate,
      long rows,
      long seed) {
    Duration span = "Daily".equals(interval) ? Duration.ofDays(1) : Duration.ofHours(1);
    Duration step = rows <= 0 ? Duration.ZERO : span.dividedBy(Math.max(rows, 1));
    ElfRowGenerator gen =
        ElfRowGenerator.builder(eventType)
            .seed(seed)
            .organizationId(orgId)
            .start(logDate)
            .step(step.isZero() ? Duration.ofMillis(1) : step)
            .build();
    GeneratedLogFile body = new GeneratedLogFile(gen, rows);
    String id = add(eventType, interval, logDate, createdDate, body);
    body.assignId(id);
    return body;
  }

  /** {@link SimOrg#regenerateLogFile(String, Instant, byte[])}. */
  synchronized void regenerate(String id, Instant createdDate, byte[] csv) {
    SimLogFile f = files.get(id);
    if (f == null) {
      throw new IllegalArgumentException("unknown EventLogFile id " + id);
    }
    files.put(
        id,
        new SimLogFile(
            id,
            f.eventType(),
            f.interval(),
            f.logDate(),
            createdDate,
            f.sequence(),
            LogFileBody.of(csv.clone())));
  }

  synchronized boolean remove(String id) {
    return files.remove(id) != null;
  }

  synchronized List<SimLogFile> all() {
    return List.copyOf(files.values());
  }

  synchronized Optional<SimLogFile> get(String id) {
    return Optional.ofNullable(files.get(id));
  }

  /** The files that {@code q} selects, in insertion order. */
  synchronized List<SimLogFile> matching(EventLogFileQuery q) {
    return files.values().stream().filter(q::matches).toList();
  }
}
