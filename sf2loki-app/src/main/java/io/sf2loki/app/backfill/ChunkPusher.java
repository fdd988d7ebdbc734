package io.sf2loki.app.backfill;

import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.Batch;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.pipeline.RetrySchedule;
import io.sf2loki.core.spi.PermanentSinkException;
import io.sf2loki.core.spi.PushResult;
import io.sf2loki.core.spi.RetryableSinkException;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pushes backfill chunks through the normal sink (SPEC BF-9) with the one retry layer of Loki
 * pushes ({@link RetrySchedule}: SINK-9 request retries inside the push): a retryable failure waits
 * 1 s doubling to 30 s (at least the sink's {@code Retry-After}) and retries the same batch; 10
 * consecutive retryable failures abort the run; a permanent failure counts {@code
 * sf2loki_loki_entries_dropped{reason}} and continues. With a byte cap (CLI-20) each push waits
 * until the bytes pushed so far fit the rate, measured on the injected ticker. Used by one thread.
 */
final class ChunkPusher {
  private static final Logger log = LoggerFactory.getLogger(ChunkPusher.class);

  /** BF-9: consecutive retryable failures that abort the run. */
  static final int MAX_CONSECUTIVE_FAILURES = 10;

  static final Duration FIRST_WAIT = Duration.ofSeconds(1);
  static final Duration MAX_WAIT = Duration.ofSeconds(30);

  private final Sink sink;
  private final Sf2lokiMetrics metrics;
  private final TimeSource time;
  private final StopSignal stop;
  private final BackfillSummary summary;
  private final long maxBytesPerSecond;
  private final long startedNanos;
  private long pacedBytes;
  private int consecutiveFailures;
  private final RandomGenerator random = new SplittableRandom();

  /** The run gave up on Loki (BF-9): exit 1. */
  static final class PushAbandonedException extends Exception {
    PushAbandonedException(String message, Throwable cause) {
      super(message, cause);
    }
  }

  /** The stop signal fired during a wait. */
  static final class StoppedException extends Exception {
    StoppedException() {
      super("backfill stopped");
    }
  }

  ChunkPusher(
      Sink sink,
      Sf2lokiMetrics metrics,
      TimeSource time,
      StopSignal stop,
      BackfillSummary summary,
      long maxBytesPerSecond) {
    this.sink = Objects.requireNonNull(sink);
    this.metrics = Objects.requireNonNull(metrics);
    this.time = Objects.requireNonNull(time);
    this.stop = Objects.requireNonNull(stop);
    this.summary = Objects.requireNonNull(summary);
    this.maxBytesPerSecond = maxBytesPerSecond;
    this.startedNanos = time.ticker().nanoTime();
  }

  /** Pushes one chunk (BF-9) and counts what was delivered and dropped. */
  void push(List<LogEntry> entries)
      throws PushAbandonedException, StoppedException, InterruptedException {
    long lineBytes = 0;
    for (LogEntry e : entries) {
      lineBytes += e.lineBytes();
    }
    pace(lineBytes);
    Batch batch = new Batch(entries);
    // the one retry layer of Loki pushes: SINK-9 request retries and the BF-9 chunk waits
    RetrySchedule retries =
        new RetrySchedule(time.sleeper(), random, FIRST_WAIT, MAX_WAIT, metrics, () -> {});
    Sink.Delivery delivery = sink.open(batch, retries);
    while (true) {
      if (stop.isStopped()) {
        throw new StoppedException();
      }
      try {
        PushResult r = delivery.push(false, stop);
        consecutiveFailures = 0;
        int dropped = 0;
        for (Map.Entry<String, Integer> d : r.droppedByReason().entrySet()) {
          dropped += d.getValue();
          metrics.lokiEntriesDropped.add(
              d.getValue(), Attributes.of(Sf2lokiMetrics.REASON, d.getKey()));
        }
        summary.rowsPushed.addAndGet(entries.size() - dropped);
        summary.rowsDropped.addAndGet(dropped);
        summary.bytesPushed.addAndGet(lineBytes);
        return;
      } catch (PermanentSinkException e) {
        consecutiveFailures = 0;
        metrics.lokiEntriesDropped.add(
            entries.size(), Attributes.of(Sf2lokiMetrics.REASON, e.reason()));
        summary.rowsDropped.addAndGet(entries.size());
        log.atError()
            .addKeyValue("entries", entries.size())
            .addKeyValue("status", e.status())
            .addKeyValue("reason", e.reason())
            .log("backfill chunk rejected permanently; dropped: " + e.getMessage());
        return;
      } catch (RetryableSinkException e) {
        consecutiveFailures++;
        if (consecutiveFailures >= MAX_CONSECUTIVE_FAILURES) {
          throw new PushAbandonedException(
              consecutiveFailures + " consecutive retryable push failures; last: " + e.getMessage(),
              e);
        }
        Duration w = retries.nextBatchWait(e.retryAfter());
        log.atWarn()
            .addKeyValue("status", e.status())
            .addKeyValue("consecutive_failures", consecutiveFailures)
            .addKeyValue("retry_in_ms", w.toMillis())
            .log("backfill push failed; retrying: " + e.getMessage());
        if (!retries.awaitBatch(w, stop)) {
          throw new StoppedException();
        }
      }
    }
  }

  /** CLI-20: waits until {@code bytes} more fit {@code maxBytesPerSecond} since the start. */
  private void pace(long bytes) throws StoppedException, InterruptedException {
    if (maxBytesPerSecond <= 0) {
      return;
    }
    long dueNanos = startedNanos + (long) (pacedBytes * 1e9 / maxBytesPerSecond);
    long now = time.ticker().nanoTime();
    if (dueNanos > now && !time.sleeper().sleep(Duration.ofNanos(dueNanos - now), stop)) {
      throw new StoppedException();
    }
    pacedBytes += bytes;
  }
}
