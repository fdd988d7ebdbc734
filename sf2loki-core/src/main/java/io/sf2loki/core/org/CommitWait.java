package io.sf2loki.core.org;

import io.sf2loki.core.time.StopSignal;
import java.util.Map;

/**
 * What an ORG-6 restart waits for before the fresh inner instance starts (SPEC ORG-13): every
 * checkpoint key the failed instance emitted holds, in the store, the last value that instance
 * emitted for it — its entries still queued in a lane have been committed (or dropped and
 * committed, PIPE-8). The fresh instance then reads exactly the position the failed one reached, so
 * a stored checkpoint never moves backwards and nothing the failed instance queued is sent twice.
 */
@FunctionalInterface
public interface CommitWait {
  /** No wait: for tests whose restarted instances share no key with their predecessor. */
  CommitWait NONE = (values, stop) -> true;

  /**
   * Waits until the store holds every {@code values} entry.
   *
   * @param values prefixed key → the last value the failed instance emitted for it
   * @param stop the term's stop signal
   * @return true once all are stored; false when {@code stop} fired first
   * @throws InterruptedException if interrupted
   */
  boolean await(Map<String, String> values, StopSignal stop) throws InterruptedException;
}
