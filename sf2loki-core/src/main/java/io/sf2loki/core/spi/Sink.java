package io.sf2loki.core.spi;

import io.sf2loki.core.model.Batch;
import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.util.Optional;

/**
 * Turns a batch into Loki push requests (SPEC SINK-1…SINK-19). Thread-safe: both lanes may push
 * concurrently. A batch that failed retryably is retried through its {@link Delivery} ({@link
 * #open(Batch)}), which holds what earlier attempts delivered, dropped or restamped, so the retry
 * excludes those entries (SINK-10); a sink keeps no per-batch state between calls.
 */
public interface Sink extends AutoCloseable {
  /**
   * Pushes the real entries of {@code batch} (checkpoint-only entries are ignored).
   *
   * @param batch the batch; must contain at least one real entry
   * @param singleAttempt true after the term's stop fired: one attempt per request, no retries
   *     (PIPE-14)
   * @param stop the term's stop signal: request retry waits end when it fires (the push then fails
   *     retryably)
   * @return what was delivered and what was deliberately dropped
   * @throws RetryableSinkException nothing stored; retry the same batch
   * @throws PermanentSinkException the whole request was rejected permanently
   * @throws InterruptedException if the pushing thread is interrupted
   */
  PushResult push(Batch batch, boolean singleAttempt, StopSignal stop)
      throws RetryableSinkException, PermanentSinkException, InterruptedException;

  /**
   * {@link #push(Batch, boolean, StopSignal)} with a stop signal that never fires (tools and tests
   * outside a term).
   */
  default PushResult push(Batch batch, boolean singleAttempt)
      throws RetryableSinkException, PermanentSinkException, InterruptedException {
    return push(batch, singleAttempt, new StopSignal());
  }

  /**
   * Opens the delivery of one batch (issue 12: the per-batch state of a push lives with the batch's
   * delivery, which the lane holds across its retries, not in the sink between calls). The lane
   * calls {@link Delivery#push} until the batch is delivered, dropped or abandoned, then forgets
   * the delivery. The default delegates every attempt to {@link #push(Batch, boolean, StopSignal)}.
   *
   * @param batch the batch; must contain at least one real entry
   * @return the batch's delivery; confined to the lane's consumer thread
   */
  default Delivery open(Batch batch) {
    return (singleAttempt, stop) -> push(batch, singleAttempt, stop);
  }

  /**
   * As {@link #open(Batch)}, with the caller's retry layer (SPEC PIPE-7, SINK-9): after every
   * request attempt that fails retryably inside a push (429, 5xx, transport error), the sink asks
   * {@code retries} whether and when to send the same request again, and waits through it — the
   * sink has no retry schedule, sleeper or retry metric of its own. The lane passes its batch's
   * {@code io.sf2loki.core.pipeline.RetrySchedule}, so its failing mark (PIPE-11) starts at the
   * first failed attempt. The default ignores {@code retries} (the lane still marks when the push
   * throws).
   *
   * @param batch the batch; must contain at least one real entry
   * @param retries the retry layer; called on the pushing thread
   */
  default Delivery open(Batch batch, Retries retries) {
    return open(batch);
  }

  /** The one retry layer of Loki pushes (PIPE-7, SINK-9), as a sink sees it. */
  @FunctionalInterface
  interface Retries {
    /** Begins the attempts of one request (SINK-9: counted per request, not per batch). */
    RequestAttempts request();
  }

  /** The attempts of one request; confined to the pushing thread. */
  interface RequestAttempts {
    /**
     * The last attempt of this request failed retryably (429, 5xx, transport error). The failing
     * mark starts now (PIPE-11), before any wait.
     *
     * @param retryAfter the answer's delta-seconds {@code Retry-After} (capped at 60 s), or zero
     * @return the wait before the same request is sent again (SINK-9), or empty when the push must
     *     fail now (the request's attempts are exhausted)
     */
    Optional<Duration> failed(Duration retryAfter);

    /**
     * Waits {@code wait}, stop-aware, on the retry layer's sleeper.
     *
     * @return false when {@code stop} cut the wait short (the push then fails retryably)
     * @throws InterruptedException if the thread is interrupted
     */
    boolean await(Duration wait, StopSignal stop) throws InterruptedException;
  }

  /** One batch's delivery: each call is one attempt of {@link Sink#push} for that batch. */
  @FunctionalInterface
  interface Delivery {
    /**
     * Pushes what of the batch is not yet delivered or deliberately dropped; the contract is {@link
     * Sink#push(Batch, boolean, StopSignal)}'s, the result counting drops of earlier attempts of
     * this delivery once.
     */
    PushResult push(boolean singleAttempt, StopSignal stop)
        throws RetryableSinkException, PermanentSinkException, InterruptedException;
  }

  @Override
  default void close() {}
}
