package io.sf2loki.core.spi;

import io.sf2loki.core.model.Batch;

/**
 * Turns a batch into Loki push requests (SPEC SINK-1…SINK-14). Thread-safe: both lanes may push
 * concurrently.
 */
public interface Sink extends AutoCloseable {
  /**
   * Pushes the real entries of {@code batch} (checkpoint-only entries are ignored).
   *
   * @param batch the batch; must contain at least one real entry
   * @param singleAttempt true after the term's stop fired: one attempt, no in-sink retries
   *     (PIPE-14)
   * @return what was delivered and what was deliberately dropped
   * @throws RetryableSinkException nothing stored; retry the same batch
   * @throws PermanentSinkException the whole request was rejected permanently
   * @throws InterruptedException if the pushing thread is interrupted
   */
  PushResult push(Batch batch, boolean singleAttempt)
      throws RetryableSinkException, PermanentSinkException, InterruptedException;

  @Override
  default void close() {}
}
