package io.sf2loki.core.pipeline;

import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.time.Backoff;
import io.sf2loki.core.time.Sleeper;
import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.UnaryOperator;
import java.util.random.RandomGenerator;

/**
 * The one retry layer of Loki pushes: every wait before a push is tried again, of either kind, on
 * one {@link Backoff} type, one stop-aware sleeper and one place for the retry metrics.
 *
 * <ul>
 *   <li><b>Request</b> (SPEC SINK-9, through {@link Sink.Retries}): a request answered 429/5xx or
 *       failing in transport is sent again, at most {@value #REQUEST_ATTEMPTS} attempts; the wait
 *       before retry k (k = 1…4) is uniform in [0.5 s, min(30 s, 2^(k−1) s)], raised to the
 *       answer's {@code Retry-After}, capped at 60 s ({@code
 *       sf2loki_loki_retry_after_waits{layer="in_sink"}} when a {@code Retry-After} was announced).
 *   <li><b>Batch</b> (PIPE-7, PIPE-27): after a push failed retryably, the batch is pushed again
 *       after {@code initial} doubling to {@code max}, raised to the failure's {@code Retry-After}
 *       capped at 60 s ({@code layer="batch_retry"} when the {@code Retry-After} raised the wait).
 * </ul>
 *
 * <p>Every request failure is reported to {@code onFailure} before any wait (PIPE-11). After the
 * stop signal fired no request is retried (PIPE-14). The request part keeps no state between
 * requests and may be shared by threads; the batch part ({@link #nextBatchWait(Duration)}) belongs
 * to one batch and its consumer thread.
 */
public final class RetrySchedule implements Sink.Retries {
  /** SINK-9: attempts per request for 429/5xx/transport outcomes. */
  public static final int REQUEST_ATTEMPTS = 5;

  /** SINK-9: shortest request retry wait. */
  static final Duration REQUEST_MIN_WAIT = Duration.ofMillis(500);

  /** SINK-9: the first request backoff's upper bound, doubling per retry. */
  static final Duration REQUEST_INITIAL = Duration.ofSeconds(1);

  /** SINK-9: longest request backoff before {@code Retry-After}. */
  static final Duration REQUEST_MAX = Duration.ofSeconds(30);

  /** SINK-9, PIPE-27: cap on every wait, {@code Retry-After} included. */
  public static final Duration RETRY_AFTER_CAP = Duration.ofSeconds(60);

  private static final Attributes IN_SINK = Attributes.of(Sf2lokiMetrics.LAYER, "in_sink");
  private static final Attributes BATCH_RETRY = Attributes.of(Sf2lokiMetrics.LAYER, "batch_retry");

  private final Sleeper sleeper;
  private final UnaryOperator<Duration> requestJitter;
  private final Sf2lokiMetrics metrics;
  private final Runnable onFailure;
  private final Backoff batch;

  /**
   * @param sleeper the stop-aware sleeper every retry wait runs on (the term's, in a lane)
   * @param random jitter source of the SINK-9 waits; used under its own lock, so one generator may
   *     serve several schedules
   * @param batchInitial first batch retry wait (PIPE-7: 1 s)
   * @param batchMax longest batch retry wait before {@code Retry-After} (PIPE-7: 30 s)
   * @param metrics where the {@code Retry-After} waits are counted
   * @param onFailure told of every failed request attempt before its wait (PIPE-11); must not block
   *     or throw
   */
  public RetrySchedule(
      Sleeper sleeper,
      RandomGenerator random,
      Duration batchInitial,
      Duration batchMax,
      Sf2lokiMetrics metrics,
      Runnable onFailure) {
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    Objects.requireNonNull(random, "random");
    this.requestJitter = base -> requestWait(base, random);
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.onFailure = Objects.requireNonNull(onFailure, "onFailure");
    this.batch = new Backoff(batchInitial, batchMax, sleeper, UnaryOperator.identity());
  }

  /**
   * Request retries only (SINK-9), for pushes outside a lane (tools, tests): the batch part has the
   * PIPE-7 defaults and nobody is told of failures.
   */
  public static RetrySchedule requests(
      Sleeper sleeper, RandomGenerator random, Sf2lokiMetrics metrics) {
    return new RetrySchedule(
        sleeper, random, Duration.ofSeconds(1), Duration.ofSeconds(30), metrics, () -> {});
  }

  @Override
  public Sink.RequestAttempts request() {
    Backoff backoff = new Backoff(REQUEST_INITIAL, REQUEST_MAX, sleeper, requestJitter);
    return new Sink.RequestAttempts() {
      private int attempts;

      @Override
      public Optional<Duration> failed(Duration retryAfter) {
        onFailure.run();
        attempts++;
        if (attempts >= REQUEST_ATTEMPTS) {
          return Optional.empty();
        }
        Duration ra = cap(retryAfter);
        Duration wait = backoff.next();
        if (ra.isPositive()) {
          metrics.lokiRetryAfterWaits.add(1, IN_SINK);
        }
        return Optional.of(cap(ra.compareTo(wait) > 0 ? ra : wait));
      }

      @Override
      public boolean await(Duration wait, StopSignal stop) throws InterruptedException {
        return backoff.sleep(wait, stop);
      }
    };
  }

  /**
   * PIPE-7, PIPE-27: the wait before the batch is pushed again — the doubling backoff raised to
   * {@code retryAfter} (capped at 60 s); counts {@code layer="batch_retry"} when {@code retryAfter}
   * raised it. Advances the backoff.
   */
  public Duration nextBatchWait(Duration retryAfter) {
    Duration base = batch.next();
    Duration ra = cap(retryAfter);
    if (ra.compareTo(base) > 0) {
      metrics.lokiRetryAfterWaits.add(1, BATCH_RETRY);
      return ra;
    }
    return base;
  }

  /**
   * Waits a batch retry wait on the schedule's sleeper.
   *
   * @return false when {@code stop} cut the wait short (PIPE-14 (b))
   * @throws InterruptedException if the thread is interrupted
   */
  public boolean awaitBatch(Duration wait, StopSignal stop) throws InterruptedException {
    return sleeper.sleep(wait, stop);
  }

  /** {@code d} capped at {@link #RETRY_AFTER_CAP}; null counts as zero. */
  public static Duration cap(Duration d) {
    if (d == null) {
      return Duration.ZERO;
    }
    return d.compareTo(RETRY_AFTER_CAP) > 0 ? RETRY_AFTER_CAP : d;
  }

  /** SINK-9: uniform in [0.5 s, {@code upper}]. */
  private static Duration requestWait(Duration upper, RandomGenerator random) {
    long lowerNanos = REQUEST_MIN_WAIT.toNanos();
    double r;
    synchronized (random) {
      r = random.nextDouble();
    }
    return Duration.ofNanos(lowerNanos + (long) (r * Math.max(0, upper.toNanos() - lowerNanos)));
  }
}
