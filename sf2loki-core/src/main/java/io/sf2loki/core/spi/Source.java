package io.sf2loki.core.spi;

import io.sf2loki.core.model.Lane;
import io.sf2loki.core.time.StopSignal;

/**
 * A Salesforce channel and its cursor (SPEC SRC-1…SRC-4). A fresh instance is built for every
 * leadership term (PIPE-20). {@link #run} is called once, on a thread owned by the pipeline.
 */
public interface Source {
  /** Human-readable identity for logs, e.g. {@code eventlogfile}. */
  String name();

  /** The lane this source feeds (PIPE-2). */
  Lane lane();

  /**
   * Produces entries until {@code stop} fires or the source is finite and done.
   *
   * <p>Must observe {@code stop} in every wait and return promptly when it fires; an HTTP call in
   * flight may finish within its client timeout. Expected Salesforce errors are handled inside
   * (logged, counted, retried next cycle); an exception escaping ends the term (PIPE-12).
   *
   * @param emitter blocking hand-off to the lane
   * @param stop the term's stop signal
   * @throws Exception on an unexpected failure (ends the term)
   */
  void run(EntryEmitter emitter, StopSignal stop) throws Exception;
}
