package io.sf2loki.core.pipeline;

import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.egress.EgressGovernor;
import io.sf2loki.core.liveness.ProgressWatch;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.Batch;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.spi.PermanentSinkException;
import io.sf2loki.core.spi.PushResult;
import io.sf2loki.core.spi.RetryableSinkException;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeSet;
import java.util.function.UnaryOperator;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A lane's single consumer (SPEC PIPE-5…PIPE-8, PIPE-14…PIPE-17): batches entries by count, bytes
 * and age, pushes real entries, and commits the batch's tokens only after the push succeeded or
 * after a deliberate, counted drop. It owns the one retry layer of its pushes, a {@link
 * RetrySchedule} per batch: requests failing inside the push are retried per SINK-9 through the
 * batch's {@link Sink.Delivery}, and a push that failed retryably is retried with 1 s doubling to
 * 30 s, raised to the failure's {@code Retry-After} (PIPE-27, capped at 60 s; stop-aware) while the
 * term runs; after stop a failing push abandons its batch and fences its keys.
 *
 * <p>Thread ownership: {@link #run()} runs on one thread owned by {@link Pipeline}; {@link
 * #failingSince()} and {@link #pendingRealEntries()} may be read from any thread.
 */
final class LaneConsumer {
  private static final Logger log = LoggerFactory.getLogger(LaneConsumer.class);

  private final String lane; // label: kind, or kind/group (PIPE-28)
  private final LaneQueue queue;
  private final Sink sink;
  private final Committer committer;
  private final AbandonedKeys abandoned;
  private final PipelineSettings settings;
  private final UnaryOperator<LogEntry> limiter;
  private final Sf2lokiMetrics metrics;
  private final TimeSource time;
  private final StopSignal stop;
  private final LeadershipFlag leadership;
  private final EgressGovernor governor;
  private long
      governedBytes; // UTF-8 line bytes of the batch's real entries before truncation (EGR-1)
  private final Attributes successAttrs = Attributes.of(Sf2lokiMetrics.OUTCOME, "success");
  private final Attributes retriedAttrs = Attributes.of(Sf2lokiMetrics.OUTCOME, "retried");

  /** Jitter of the SINK-9 request retry waits (the schedule uses it under its own lock). */
  private final RandomGenerator random = new SplittableRandom();

  private volatile Instant failingSince;

  /** Ticker reading when {@link #failingSince} was set (SRC-26: PIPE-11 is measured on it). */
  private volatile long failingSinceNanos;

  private volatile int pendingReal;
  private final java.util.concurrent.ConcurrentMap<Attributes, Long> pendingGroups =
      new java.util.concurrent.ConcurrentHashMap<>(); // FEAT-10, only when attribution is on

  /**
   * Entries taken from the queue by the last poll; those from {@link #takenNext} on are not yet
   * batched.
   */
  private final List<LogEntry> taken = new ArrayList<>();

  private int takenNext;

  LaneConsumer(
      String lane,
      LaneQueue queue,
      Sink sink,
      Committer committer,
      AbandonedKeys abandoned,
      PipelineSettings settings,
      UnaryOperator<LogEntry> limiter,
      Sf2lokiMetrics metrics,
      TimeSource time,
      StopSignal stop,
      LeadershipFlag leadership,
      EgressGovernor governor) {
    this.lane = lane;
    this.queue = queue;
    this.sink = sink;
    this.committer = committer;
    this.abandoned = abandoned;
    this.settings = settings;
    this.limiter = limiter;
    this.metrics = metrics;
    this.time = time;
    this.stop = stop;
    this.leadership = leadership;
    this.governor = governor;
  }

  /** When this lane's pushes started failing (PIPE-11), or empty when healthy. */
  Optional<Instant> failingSince() {
    return Optional.ofNullable(failingSince);
  }

  /**
   * How long this lane's pushes have been failing, measured on the monotonic ticker (PIPE-11,
   * SRC-26: a wall-clock step neither freezes nor rushes it), or empty when healthy.
   */
  Optional<Duration> failingFor() {
    if (failingSince == null) {
      return Optional.empty();
    }
    return Optional.of(Duration.ofNanos(Math.max(0, time.ticker().nanoTime() - failingSinceNanos)));
  }

  /** Real entries batched but not yet committed or abandoned (for drain-timeout accounting). */
  int pendingRealEntries() {
    return pendingReal;
  }

  /**
   * FEAT-10: the real entries batched but not yet settled, by attribution group (empty when
   * attribution is off; {@link #pendingRealEntries()} then counts them). Any thread.
   */
  Map<io.opentelemetry.api.common.Attributes, Long> pendingGroups() {
    return Map.copyOf(pendingGroups);
  }

  private void clearPending() {
    pendingReal = 0;
    pendingGroups.clear();
  }

  /**
   * Consumes until every producer finished and the queue is drained.
   *
   * @throws InterruptedException when cancelled (grace expired)
   */
  void run() throws InterruptedException {
    List<LogEntry> batch = new ArrayList<>();
    try {
      consume(batch);
    } catch (LeadershipLost lost) {
      abandonOnLoss(lost.batch == null ? batch : lost.batch.entries());
    }
  }

  /** HA-4, PIPE-17: nothing more is pushed; the batch and the queue are counted once, one WARN. */
  private void abandonOnLoss(List<LogEntry> inHand) {
    List<LogEntry> all = new ArrayList<>(inHand);
    // taken from the queue but not yet batched (only when a limiter grew an entry mid-poll)
    all.addAll(taken.subList(takenNext, taken.size()));
    taken.clear();
    all.addAll(queue.drainAll());
    long real = all.stream().filter(e -> !e.checkpointOnly()).count();
    clearPending();
    metrics
        .dropAttribution()
        .add( // FEAT-10
            metrics.pipelineEntriesAbandoned,
            Attributes.of(Sf2lokiMetrics.LANE, lane, Sf2lokiMetrics.REASON, "leadership_lost"),
            all);
    log.atWarn()
        .addKeyValue("lane", lane)
        .addKeyValue("entries", real)
        .log("leadership lost; queued entries abandoned");
  }

  /** Thrown inside the consumer when leadership was lost: the term ends without pushing. */
  private static final class LeadershipLost extends Exception {
    private final transient Batch batch;

    LeadershipLost(Batch batch) {
      super(null, null, false, false);
      this.batch = batch;
    }
  }

  private void consume(List<LogEntry> batch) throws InterruptedException, LeadershipLost {
    long batchBytes = 0;
    long firstAt = 0;
    long intervalNanos = settings.flushInterval().toNanos();
    List<LogEntry> taken = this.taken;
    while (true) {
      ProgressWatch.progress(); // FEAT-21: at least once per flush interval
      if (leadership.lost()) {
        throw new LeadershipLost(null);
      }
      long wait =
          batch.isEmpty()
              ? intervalNanos
              : Math.max(0, firstAt + intervalNanos - time.ticker().nanoTime());
      // one lock round trip for every entry that waits, limited to the batch's remaining room
      // (PIPE-5 count and bytes), so the batch never needs to flush with taken entries left over
      taken.clear();
      takenNext = 0;
      int n =
          queue.pollBatch(
              taken, settings.maxEntries() - batch.size(), settings.maxBytes() - batchBytes, wait);
      if (n > 0) {
        if (batch.isEmpty()) {
          firstAt = time.ticker().nanoTime();
        }
        for (int i = 0; i < n; i++) {
          LogEntry e = taken.get(i);
          LogEntry limited = e.checkpointOnly() ? e : limiter.apply(e);
          batch.add(limited);
          takenNext = i + 1;
          if (!limited.checkpointOnly()) {
            governedBytes += e.lineBytes();
            batchBytes += limited.lineBytes() + EntryCost.OVERHEAD_BYTES;
            pendingReal++;
            if (metrics.dropAttribution().enabled()) {
              pendingGroups.merge(metrics.dropAttribution().group(limited), 1L, Long::sum);
            }
          }
          if (batch.size() >= settings.maxEntries() || batchBytes >= settings.maxBytes()) {
            flush(batch);
            batch.clear();
            batchBytes = 0;
            if (i + 1 < n) {
              firstAt = time.ticker().nanoTime(); // the rest start the next batch
            }
          }
        }
        taken.clear();
        takenNext = 0;
        continue;
      }
      if (queue.isClosedAndEmpty()) {
        if (!batch.isEmpty()) {
          flush(batch);
        }
        return;
      }
      if (!batch.isEmpty() && time.ticker().nanoTime() - firstAt >= intervalNanos) {
        flush(batch);
        batch.clear();
        batchBytes = 0;
      }
    }
  }

  private void flush(List<LogEntry> entries) throws InterruptedException, LeadershipLost {
    Batch batch = new Batch(entries);
    try {
      if (batch.isCheckpointOnly()) {
        committer.submit(Committer.lastValues(batch.entries())); // PIPE-6: not pushed, not governed
        return;
      }
      pushUntilDone(batch);
    } finally {
      clearPending();
      governedBytes = 0;
    }
  }

  /**
   * EGR-4: admits the batch once, before its first attempt.
   *
   * @return false when the batch was settled here (budget drop, or abandoned at stop)
   */
  private boolean admitted(Batch batch, long bytes, int real)
      throws InterruptedException, LeadershipLost {
    switch (governor.admit(bytes, real, stop)) {
      case ADMITTED -> {
        return true;
      }
      case DROPPED -> {
        metrics
            .dropAttribution()
            .add(
                metrics.lokiEntriesDropped,
                Attributes.of(Sf2lokiMetrics.REASON, "budget"),
                batch.entries());
        committer.submit(Committer.lastValues(batch.entries()));
        return false;
      }
      case ABANDONED -> {
        if (Thread.currentThread().isInterrupted()) {
          throw new InterruptedException("cancelled while waiting for the egress governor");
        }
        if (leadership.lost()) {
          throw new LeadershipLost(batch);
        }
        abandon(batch); // PIPE-14 (c), (d): a budget pause or rate wait cut short by stop
        return false;
      }
    }
    throw new IllegalStateException("unreachable");
  }

  private void pushUntilDone(Batch batch) throws InterruptedException, LeadershipLost {
    long bytes = governedBytes;
    int real = batch.realCount();
    if (!admitted(batch, bytes, real)) {
      return;
    }
    // the one retry layer of this batch (PIPE-7, SINK-9): request retries inside the push and
    // batch retries here share its backoff, sleeper and metrics; request failures mark at once
    RetrySchedule retries =
        new RetrySchedule(
            time.sleeper(),
            random,
            settings.retryInitial(),
            settings.retryMax(),
            metrics,
            this::markFailing);
    // the batch's push state, kept across its retries
    Sink.Delivery delivery = sink.open(batch, retries);
    while (true) {
      if (leadership.lost()) {
        throw new LeadershipLost(batch);
      }
      boolean singleAttempt = stop.isStopped();
      long started = time.ticker().nanoTime();
      try {
        PushResult result = delivery.push(singleAttempt, stop);
        failingSince = null;
        metrics.lokiPush.add(1, successAttrs);
        metrics.lastPushSuccessTimestampSeconds.set(time.now().toEpochMilli() / 1000.0);
        metrics.lokiPushDurationSeconds.record((time.ticker().nanoTime() - started) / 1e9);
        for (Map.Entry<String, Integer> d : result.droppedByReason().entrySet()) {
          metrics
              .dropAttribution()
              .add(
                  metrics.lokiEntriesDropped,
                  Attributes.of(Sf2lokiMetrics.REASON, d.getKey()),
                  d.getValue(),
                  result.droppedEntries(d.getKey()));
        }
        Map<String, String> commit = Committer.lastValues(batch.entries());
        governor.record(bytes).ifPresent(t -> commit.put(t.key(), t.value())); // EGR-6
        committer.submit(commit);
        return;
      } catch (PermanentSinkException ex) {
        failingSince = null;
        metrics
            .dropAttribution()
            .add(
                metrics.lokiEntriesDropped,
                Attributes.of(Sf2lokiMetrics.REASON, ex.reason()),
                batch.entries());
        log.atError()
            .addKeyValue("lane", lane)
            .addKeyValue("entries", real)
            .addKeyValue("reason", ex.reason())
            .addKeyValue("status", ex.status())
            .addKeyValue("error", ex.getMessage())
            .log("loki rejected batch permanently; entries dropped");
        committer.submit(Committer.lastValues(batch.entries()));
        return;
      } catch (RetryableSinkException ex) {
        metrics.lokiPush.add(1, retriedAttrs);
        markFailing();
        if (leadership.lost()) {
          throw new LeadershipLost(batch); // a push in flight at the loss is not retried
        }
        if (stop.isStopped()) {
          abandon(batch);
          return;
        }
        Duration wait = retries.nextBatchWait(ex.retryAfter());
        log.atWarn()
            .addKeyValue("lane", lane)
            .addKeyValue("status", ex.status())
            .addKeyValue("error", ex.getMessage())
            .addKeyValue("retry_in", wait.toString())
            .log("loki push failed; retrying batch");
        if (!retries.awaitBatch(wait, stop)) {
          if (leadership.lost()) {
            throw new LeadershipLost(batch);
          }
          abandon(batch);
          return;
        }
      }
    }
  }

  /** PIPE-11: the lane's failing mark starts at its first failed attempt (kept until cleared). */
  private void markFailing() {
    if (failingSince == null) {
      failingSinceNanos = time.ticker().nanoTime();
      failingSince = time.now();
    }
  }

  private void abandon(Batch batch) {
    TreeSet<String> keys = new TreeSet<>();
    for (LogEntry e : batch.entries()) {
      keys.add(e.checkpoint().key());
    }
    abandoned.addAll(keys);
    int real = batch.realCount();
    metrics
        .dropAttribution()
        .add(
            metrics.pipelineEntriesAbandoned,
            Attributes.of(Sf2lokiMetrics.LANE, lane, Sf2lokiMetrics.REASON, "shutdown"),
            batch.entries());
    log.atWarn()
        .addKeyValue("lane", lane)
        .addKeyValue("keys", List.copyOf(keys))
        .addKeyValue("entries", real)
        .addKeyValue("checkpoint_only", batch.entries().size() - real)
        .log("batch abandoned at shutdown");
  }
}
