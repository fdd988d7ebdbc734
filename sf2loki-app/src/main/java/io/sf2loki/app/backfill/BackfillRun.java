package io.sf2loki.app.backfill;

import io.sf2loki.app.backfill.BackfillPlanner.TypePlan;
import io.sf2loki.core.limits.EntryLimiter;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.spi.CheckpointStore;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.salesforce.elf.ElfFiles;
import io.sf2loki.salesforce.elf.ElfFiles.ListedFile;
import io.sf2loki.salesforce.elf.ElfFiles.MalformedLogFileException;
import io.sf2loki.salesforce.rest.DownloadException;
import io.sf2loki.salesforce.rest.Spool;
import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs a backfill plan (SPEC BF-5…BF-10): types one after the other; per type at most {@code
 * --concurrency} downloads in flight on virtual threads this object owns, files processed strictly
 * in listing order, each file's rows shaped by the live source's shaper and pushed in chunks
 * bounded by {@code batch.max_entries} and {@code batch.max_bytes} (line bytes); after all chunks
 * of a file were pushed (or deliberately dropped) the type's cursor advances and is committed to
 * the backfill document, so a rerun after a crash never re-sends a committed file (BF-10, BF-12).
 * Called from one thread.
 */
final class BackfillRun {
  private static final Logger log = LoggerFactory.getLogger(BackfillRun.class);

  /** Rows shaped per read from the spool. */
  static final int READ_ROWS = 512;

  /**
   * How one file or type ended.
   *
   * @param abandoned a push was abandoned (BF-9): the run stops, exit 1
   * @param stopped the stop signal fired
   */
  record Outcome(boolean abandoned, boolean stopped) {}

  /** The parts a run needs. */
  record Parts(
      ElfFiles files,
      CheckpointStore store,
      ChunkPusher pusher,
      EntryLimiter limiter,
      Map<String, String> staticLabels,
      int maxEntries,
      long maxBytes,
      String orgPrefix,
      TimeSource time,
      StopSignal stop) {}

  private final Parts p;
  private final BackfillRequest request;
  private final BackfillSummary summary;
  private final BackfillProgress progress;
  private final Map<Map<String, String>, Map<String, String>> labelCache = new IdentityHashMap<>();
  private final TimestampOrder order = new TimestampOrder();
  private Instant lastIngestStamp = Instant.EPOCH;

  BackfillRun(
      Parts parts, BackfillRequest request, BackfillSummary summary, BackfillProgress progress) {
    this.p = Objects.requireNonNull(parts);
    this.request = Objects.requireNonNull(request);
    this.summary = Objects.requireNonNull(summary);
    this.progress = Objects.requireNonNull(progress);
  }

  /** Runs every type's plan; returns early when a push is abandoned or the stop fires. */
  Outcome run(List<TypePlan> plans) throws InterruptedException {
    for (TypePlan plan : plans) {
      if (plan.failure() != null) {
        summary.typeFailed(plan.type(), plan.failure());
        continue;
      }
      Outcome o = runType(plan);
      if (o.abandoned() || o.stopped()) {
        return o;
      }
    }
    return new Outcome(false, p.stop().isStopped());
  }

  private Outcome runType(TypePlan plan) throws InterruptedException {
    String key = BackfillStore.key(p.orgPrefix(), request.interval(), plan.type());
    BackfillCursor cursor = p.store().load(key).flatMap(BackfillCursor::parse).orElse(null);
    List<ListedFile> files = plan.files();
    Deque<Future<Spool>> window = new ArrayDeque<>();
    int submitted = 0;
    try (ExecutorService downloads =
        Executors.newThreadPerTaskExecutor(
            Thread.ofVirtual().name("sf2loki-backfill-download-", 0).factory())) {
      try {
        for (int i = 0; i < files.size(); i++) {
          while (submitted < files.size() && submitted < i + request.concurrency()) {
            ListedFile f = files.get(submitted++);
            window.add(downloads.submit(() -> p.files().download(f)));
          }
          ListedFile file = files.get(i);
          Spool spool;
          try {
            spool = window.poll().get();
          } catch (ExecutionException e) {
            String reason = e.getCause() instanceof DownloadException d ? d.reason() : "download";
            log.atError()
                .addKeyValue("event_type", plan.type())
                .addKeyValue("file_id", file.id())
                .addKeyValue("reason", reason)
                .log("backfill download failed; the type stops: " + e.getCause().getMessage());
            summary.typeFailed(
                plan.type(), "download " + file.id() + ": " + e.getCause().getMessage());
            return new Outcome(false, false);
          } finally {
            summary.downloads.incrementAndGet();
          }
          try (spool) {
            FileResult r = processFile(plan.type(), file, spool, key, cursor);
            if (r.outcome() != null) {
              return r.outcome();
            }
            cursor = r.cursor();
          }
        }
      } finally {
        for (Future<Spool> f : window) { // stop or failure: no spool is left behind
          f.cancel(true);
          if (f.state() == Future.State.SUCCESS) {
            f.resultNow().close();
          }
        }
      }
    }
    return new Outcome(false, p.stop().isStopped());
  }

  /** A file's end: the cursor after it, or the outcome that ends the type or run. */
  private record FileResult(BackfillCursor cursor, Outcome outcome) {}

  private FileResult processFile(
      String type, ListedFile file, Spool spool, String key, BackfillCursor cursor)
      throws InterruptedException {
    Instant serverNow = p.time().now();
    CheckpointToken token = new CheckpointToken(key, "");
    TimestampOrder.Opener opener = () -> source(p.files().rows(file, spool, serverNow, token));
    ChunkBuilder chunks = new ChunkBuilder();
    long rows;
    try {
      // BF-8: label mode emits a file's entries in timestamp order; ingest mode restamps them
      rows =
          request.ingestTimestamps()
              ? order.emitAsRead(opener, chunks::add)
              : order.emit(opener, chunks::add);
      chunks.flush();
    } catch (ChunkPusher.PushAbandonedException e) {
      log.atError().addKeyValue("event_type", type).log("backfill abandoned: " + e.getMessage());
      summary.typeFailed(type, "push abandoned: " + e.getMessage());
      return new FileResult(cursor, new Outcome(true, false));
    } catch (ChunkPusher.StoppedException e) {
      return new FileResult(cursor, new Outcome(false, true));
    } catch (IOException | MalformedLogFileException e) {
      log.atError()
          .addKeyValue("event_type", type)
          .addKeyValue("file_id", file.id())
          .log("backfill cannot read the file; the type stops: " + e.getMessage());
      summary.typeFailed(type, "read " + file.id() + ": " + e.getMessage());
      return new FileResult(cursor, new Outcome(false, false));
    } catch (InterruptedException | RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException("unexpected: " + e, e);
    }
    summary.fileBytesDone.addAndGet(file.lengthBytes());
    if (rows == 0) { // BF-10: a file yielding no entries is not committed
      progress.update();
      return new FileResult(cursor, null);
    }
    BackfillCursor next =
        cursor == null
            ? new BackfillCursor(file.createdDate(), List.of(file.id()))
            : cursor.advance(file.id(), file.createdDate());
    p.store().commitMany(Map.of(key, next.toJson()), Set.of());
    summary.files.incrementAndGet();
    progress.update();
    log.atDebug()
        .addKeyValue("event_type", type)
        .addKeyValue("file_id", file.id())
        .addKeyValue("rows", rows)
        .log("backfill file committed");
    return new FileResult(next, null);
  }

  /** Builds BF-9 chunks of decorated entries and pushes each full one. */
  private final class ChunkBuilder {
    private List<LogEntry> chunk = new ArrayList<>();
    private long chunkBytes;

    void add(LogEntry raw) throws Exception {
      summary.rowsRead.incrementAndGet();
      LogEntry e = p.limiter().apply(decorate(raw));
      if (!chunk.isEmpty()
          && (chunk.size() >= p.maxEntries() || chunkBytes + e.lineBytes() > p.maxBytes())) {
        p.pusher().push(chunk);
        progress.update();
        chunk = new ArrayList<>();
        chunkBytes = 0;
      }
      chunk.add(e);
      chunkBytes += e.lineBytes();
    }

    void flush() throws Exception {
      if (!chunk.isEmpty()) {
        p.pusher().push(chunk);
        chunk = new ArrayList<>();
        chunkBytes = 0;
      }
    }
  }

  private static TimestampOrder.Source source(ElfFiles.Rows rows) {
    return new TimestampOrder.Source() {
      @Override
      public List<LogEntry> next(int max) throws IOException, MalformedLogFileException {
        return rows.next(max);
      }

      @Override
      public long rowsRead() {
        return rows.rowsRead();
      }

      @Override
      public void close() throws IOException {
        rows.close();
      }
    };
  }

  /**
   * BF-7, BF-8: static labels win over the row's, then {@code backfill="true"} (real event times)
   * or {@code backfill="ingest"} (timestamp = max(now, previous + 1 µs), event time kept in
   * metadata {@code event_time}).
   */
  private LogEntry decorate(LogEntry e) {
    Map<String, String> labels = labelCache.get(e.labels());
    if (labels == null) {
      Map<String, String> m = new LinkedHashMap<>(e.labels());
      m.putAll(p.staticLabels());
      m.put("backfill", request.ingestTimestamps() ? "ingest" : "true");
      labels = java.util.Collections.unmodifiableMap(m);
      if (labelCache.size() > 4096) {
        labelCache.clear();
      }
      labelCache.put(e.labels(), labels);
    }
    LogEntry out = e.withLabels(labels);
    if (!request.ingestTimestamps()) {
      return out;
    }
    Instant now = p.time().now();
    Instant floor = lastIngestStamp.plus(1, ChronoUnit.MICROS);
    lastIngestStamp = now.isAfter(floor) ? now : floor;
    Map<String, String> md = new LinkedHashMap<>(e.structuredMetadata());
    md.put("event_time", e.timestamp().toString());
    return out.withTimestamp(lastIngestStamp).withStructuredMetadata(md);
  }
}
