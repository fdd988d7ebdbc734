package io.sf2loki.core.spi;

import io.sf2loki.core.model.Batch;
import io.sf2loki.core.time.StopSignal;

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
   * @param singleAttempt true after the term's stop fired: one attempt, no in-sink retries
   *     (PIPE-14)
   * @param stop the term's stop signal: in-sink retry waits end when it fires (the push then fails
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
   * As {@link #open(Batch)}, telling {@code failures} of every request attempt that failed
   * retryably inside a push — before the sink's own retry wait — so the lane's failing mark
   * (PIPE-11) starts at the first failed attempt, not after the in-sink retries. The default
   * ignores {@code failures} (the lane still marks when the push throws).
   *
   * @param batch the batch; must contain at least one real entry
   * @param failures called on the pushing thread; must not block or throw
   */
  default Delivery open(Batch batch, AttemptFailures failures) {
    return open(batch);
  }

  /** Told of each retryable request failure inside a push (PIPE-11). */
  @FunctionalInterface
  interface AttemptFailures {
    /** Ignores every failure. */
    AttemptFailures NONE = () -> {};

    /** One request attempt failed retryably (transport, 429, 5xx); the sink will retry. */
    void attemptFailed();
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
