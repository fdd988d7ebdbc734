package io.sf2loki.salesforce.elf;

import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.salesforce.elf.ElfCsvReader.ElfCsvParseException;
import io.sf2loki.salesforce.rest.DownloadException;
import io.sf2loki.salesforce.rest.DownloadThrottledException;
import io.sf2loki.salesforce.rest.DownloadValidator;
import io.sf2loki.salesforce.rest.SalesforceRest;
import io.sf2loki.salesforce.rest.Spool;
import io.sf2loki.salesforce.source.CpuOffload;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One listed EventLogFile, downloaded, parsed and emitted (SPEC ELF-8…ELF-12, ELF-14, SRC-28): the
 * validated download, CSV parsing and row shaping on the CPU pool in chunks of {@value #CHUNK_ROWS}
 * rows (PIPE-26), the file's last entry carrying the advanced cursor (ELF-10), and ELF-12's
 * abandon-or-retry rule for failures. Stateless between files; called by the cycle's workers.
 */
final class ElfFileProcessor {
  private static final Logger log = LoggerFactory.getLogger(EventLogFileSource.class);
  private static final String SOURCE = RowShaper.SOURCE;

  /** Rows parsed and shaped per CPU-pool task. */
  static final int CHUNK_ROWS = 128;

  private final EventLogFileSettings settings;
  private final SalesforceRest rest;
  private final Sf2lokiMetrics metrics;
  private final TimeSource time;
  private final CpuOffload offload;

  ElfFileProcessor(
      EventLogFileSettings settings,
      SalesforceRest rest,
      Sf2lokiMetrics metrics,
      TimeSource time,
      CpuOffload offload) {
    this.settings = settings;
    this.rest = rest;
    this.metrics = metrics;
    this.time = time;
    this.offload = offload;
  }

  /** How one file ended. */
  enum Outcome {
    DONE,
    ABANDONED,
    ZERO_ROWS,
    THROTTLED,
    STOP_TYPE
  }

  /**
   * @param outcome how the file ended
   * @param carriedAdvanced whether an emitted entry carries the advanced cursor (ELF-13)
   */
  record Result(Outcome outcome, boolean carriedAdvanced) {}

  /** A listed file and the two cursor values around it (ELF-10). */
  static final class FileRef {
    final String id;
    final String created;
    final Instant createdAt;
    final String logDate;
    final ElfCursor advanced;
    final CheckpointToken advancedToken;
    final ElfCursor before;
    final DownloadValidator.Expectation expected;

    FileRef(ElfType t, String id, String created, Instant createdAt, Map<String, Object> rec) {
      this.id = id;
      this.created = created;
      this.createdAt = createdAt;
      Object logDate = rec.get("LogDate");
      this.logDate = logDate == null ? null : String.valueOf(logDate);
      this.before = t.cursor;
      this.advanced = before.advance(id, created);
      this.advancedToken = new CheckpointToken(t.key, advanced.toValue());
      this.expected = DownloadValidator.Expectation.ofField(rec.get("LogFileLength"));
    }
  }

  /** One CPU-pool task's output. */
  private record Chunk(
      List<LogEntry> entries, int rows, boolean eof, ElfCsvParseException parseError) {}

  /** What a file's parse handed over so far. */
  private static final class Progress {
    long rows;
    long emitted;
    LogEntry held;
  }

  /** Downloads and processes one file (ELF-8…ELF-12). */
  Result process(ElfType t, FileRef file, ElfCycle c)
      throws CycleStoppedException, InterruptedException {
    String path = ElfFiles.logFilePath(rest.apiVersion(), file.id);
    Spool spool;
    try {
      spool = rest.download(path, file.expected);
    } catch (DownloadThrottledException e) {
      // sf2loki_salesforce_api_throttled{api="eventlogfile"} is counted by the REST client
      metrics.eventlogfileDownloadErrors.add(1, Attributes.of(Sf2lokiMetrics.REASON, e.reason()));
      log.atError()
          .addKeyValue("source", SOURCE)
          .addKeyValue("event_type", t.name)
          .addKeyValue("file_id", file.id)
          .log("eventlogfile download throttled (REQUEST_LIMIT_EXCEEDED); cycle marked throttled");
      c.reporter().failed(t.key, e);
      return new Result(Outcome.THROTTLED, false);
    } catch (DownloadException e) { // incl. SRC-28 invalid_body: its message names type and sizes
      c.reporter().failed(t.key, e);
      metrics.eventlogfileDownloadErrors.add(1, Attributes.of(Sf2lokiMetrics.REASON, e.reason()));
      return failed(t, file, c, e.reason(), e.status(), e.getMessage(), 0);
    }
    try (spool) {
      metrics.eventlogfileDownloadBytes.add(spool.sizeBytes(), t.eventTypeAttrs);
      return parseAndEmit(t, file, c, spool);
    }
  }

  /** ELF-12 for a failure that is not a throttle. */
  private Result failed(
      ElfType t,
      FileRef file,
      ElfCycle c,
      String reason,
      int status,
      String message,
      long rowsEmitted)
      throws CycleStoppedException, InterruptedException {
    if (status == 404 || status == 410) {
      return abandon(t, file, c, "HTTP " + status, rowsEmitted, null);
    }
    Duration maxAge = settings.downloadMaxAge();
    boolean old =
        maxAge.isZero()
            || file.createdAt == null
            || Duration.between(file.createdAt, c.serverNow()).compareTo(maxAge) > 0;
    if (old) {
      return abandon(t, file, c, "max_age", rowsEmitted, null);
    }
    log.atWarn()
        .addKeyValue("source", SOURCE)
        .addKeyValue("event_type", t.name)
        .addKeyValue("file_id", file.id)
        .addKeyValue("created_date", file.created)
        .addKeyValue("reason", reason)
        .addKeyValue("error", c.reporter().redact(message))
        .log("eventlogfile download failed; type stops for this cycle");
    return new Result(Outcome.STOP_TYPE, false);
  }

  /**
   * ELF-12 abandonment; {@code parseErrorRow} is the 1-based data row of a CSV parse error (logged
   * as {@code row}), or null for other reasons.
   */
  private Result abandon(
      ElfType t, FileRef file, ElfCycle c, String reason, long rowsEmitted, Long parseErrorRow)
      throws CycleStoppedException, InterruptedException {
    var event =
        log.atError()
            .addKeyValue("source", SOURCE)
            .addKeyValue("event_type", t.name)
            .addKeyValue("file_id", file.id)
            .addKeyValue("created_date", file.created)
            .addKeyValue("reason", reason)
            .addKeyValue("rows_emitted", rowsEmitted);
    if (parseErrorRow != null) {
      event = event.addKeyValue("row", parseErrorRow);
    }
    event.log("eventlogfile file abandoned");
    metrics.eventlogfileFilesAbandoned.add(
        1, Attributes.of(Sf2lokiMetrics.EVENT_TYPE, t.name, Sf2lokiMetrics.REASON, reason));
    c.put(LogEntry.checkpointOnly(file.advancedToken));
    return new Result(Outcome.ABANDONED, true);
  }

  private Result parseAndEmit(ElfType t, FileRef file, ElfCycle c, Spool spool)
      throws CycleStoppedException, InterruptedException {
    long startedNanos = time.ticker().nanoTime();
    CheckpointToken before = new CheckpointToken(t.key, file.before.toValue());
    RowShaper.FileContext ctx =
        new RowShaper.FileContext(
            SalesforceTimestamps.parse(file.logDate).orElse(null), c.serverNow(), before);
    Progress p = new Progress();
    ElfCsvReader reader = null;
    try {
      reader = onCpu(c, () -> new ElfCsvReader(spool.open()));
      readAll(t, reader, ctx, c, p);
    } catch (ElfCsvParseException e) {
      return parseFailed(t, file, c, p, e);
    } catch (IOException e) {
      metrics.eventlogfileDownloadErrors.add(1, Attributes.of(Sf2lokiMetrics.REASON, "transport"));
      return failed(t, file, c, "transport", 0, e.getMessage(), p.emitted);
    } finally {
      closeQuietly(reader);
    }
    metrics.eventlogfileFilesProcessed.add(1, t.eventTypeAttrs);
    if (p.rows == 0) {
      log.atDebug()
          .addKeyValue("event_type", t.name)
          .addKeyValue("file_id", file.id)
          .log("eventlogfile file has no rows; skipped without advancing");
      return new Result(Outcome.ZERO_ROWS, false);
    }
    boolean carried = p.held != null;
    if (carried) {
      c.put(withToken(p.held, file.advancedToken));
    }
    log.atInfo()
        .addKeyValue("source", SOURCE)
        .addKeyValue("event_type", t.name)
        .addKeyValue("file_id", file.id)
        .addKeyValue("created_date", file.created)
        .addKeyValue("rows", p.rows)
        .addKeyValue("entries", p.emitted + (carried ? 1 : 0))
        .addKeyValue("bytes", spool.sizeBytes())
        .addKeyValue("millis", (time.ticker().nanoTime() - startedNanos) / 1_000_000)
        .log("eventlogfile file processed");
    return new Result(Outcome.DONE, carried);
  }

  /** Parses and hands over every chunk of the file, holding back its last entry (ELF-10). */
  private void readAll(
      ElfType t, ElfCsvReader reader, RowShaper.FileContext ctx, ElfCycle c, Progress p)
      throws CycleStoppedException, InterruptedException, IOException, ElfCsvParseException {
    ctx.header(reader.header());
    while (true) {
      Chunk chunk = onCpu(c, () -> readChunk(t, reader, ctx));
      p.rows += chunk.rows();
      List<LogEntry> entries = chunk.entries();
      if (!entries.isEmpty()) {
        // hand over all but the chunk's last entry, which is held back so the file's final
        // entry can carry the advanced cursor (ELF-10)
        List<LogEntry> group = new ArrayList<>(entries.size());
        if (p.held != null) {
          group.add(p.held);
        }
        group.addAll(entries.subList(0, entries.size() - 1));
        p.held = entries.get(entries.size() - 1);
        if (!group.isEmpty()) {
          c.putGroup(group);
          p.emitted += group.size();
        }
      }
      if (chunk.parseError() != null) {
        throw chunk.parseError();
      }
      if (chunk.eof()) {
        return;
      }
    }
  }

  /** ELF-12: a CSV parse error abandons the file after the rows before it. */
  private Result parseFailed(
      ElfType t, FileRef file, ElfCycle c, Progress p, ElfCsvParseException e)
      throws CycleStoppedException, InterruptedException {
    if (p.held != null) {
      c.put(p.held);
      p.emitted++;
    }
    log.atError()
        .addKeyValue("source", SOURCE)
        .addKeyValue("event_type", t.name)
        .addKeyValue("file_id", file.id)
        .addKeyValue("row", e.row())
        .addKeyValue(
            "error",
            c.reporter().redact(e.getCause() == null ? e.getMessage() : e.getCause().getMessage()))
        .log("eventlogfile CSV parse error");
    metrics.eventlogfileDownloadErrors.add(1, Attributes.of(Sf2lokiMetrics.REASON, "parse"));
    return abandon(t, file, c, "parse", p.emitted, e.row());
  }

  private Chunk readChunk(ElfType t, ElfCsvReader reader, RowShaper.FileContext ctx)
      throws IOException {
    List<LogEntry> out = new ArrayList<>(CHUNK_ROWS);
    int rows = 0;
    try {
      while (rows < CHUNK_ROWS) {
        Map<String, Object> row = reader.next();
        if (row == null) {
          return new Chunk(out, rows, true, null);
        }
        rows++;
        LogEntry e = t.shaper.shape(row, ctx);
        if (e != null) {
          out.add(e);
        }
      }
    } catch (ElfCsvParseException e) {
      return new Chunk(out, rows, true, e);
    }
    return new Chunk(out, rows, false, null);
  }

  private static LogEntry withToken(LogEntry e, CheckpointToken token) {
    return new LogEntry(
        e.timestamp(),
        e.labels(),
        e.line(),
        e.structuredMetadata(),
        token,
        e.checkpointOnly(),
        e.lineBytes());
  }

  /**
   * Runs {@code task} on the CPU pool and waits for it, stop-aware (PIPE-26). Checked exceptions of
   * the task are rethrown as they are.
   */
  private <T> T onCpu(ElfCycle c, Callable<T> task)
      throws CycleStoppedException, InterruptedException, IOException, ElfCsvParseException {
    CompletableFuture<T> f = offload.submit(task);
    c.await(f);
    return CpuOffload.result(f, IOException.class, ElfCsvParseException.class);
  }

  private static void closeQuietly(ElfCsvReader reader) {
    if (reader == null) {
      return;
    }
    try {
      reader.close();
    } catch (IOException e) {
      // the spool is closed by its owner right after
    }
  }
}
