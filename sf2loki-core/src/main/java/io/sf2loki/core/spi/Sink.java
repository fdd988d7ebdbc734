package io.sf2loki.core.spi;

import io.sf2loki.core.model.Batch;
import io.sf2loki.core.time.StopSignal;

/**
 * Turns a batch into Loki push requests (SPEC SINK-1…SINK-14). Thread-safe: both lanes may push
 * concurrently. A batch that failed retryably is pushed again as the same {@link Batch} instance,
 * so the sink can exclude entries it already dropped (SINK-10).
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

  @Override
  default void close() {}
}
