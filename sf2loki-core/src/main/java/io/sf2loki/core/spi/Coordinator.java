package io.sf2loki.core.spi;

import io.sf2loki.core.time.StopSignal;

/**
 * Decides when this replica leads (SPEC HA). For each leadership term it calls {@link
 * TermRunner#runTerm}, which returns only after every thread of the term was joined (PIPE-23).
 */
public interface Coordinator {
  /** Runs one leadership term to completion. */
  @FunctionalInterface
  interface TermRunner {
    /**
     * @param termStop fires when the term must end (process stop or leadership loss)
     * @return true if the term ended because its sources finished on their own (finite run)
     * @throws Exception when the term failed (PIPE-12)
     */
    boolean runTerm(StopSignal termStop) throws Exception;
  }

  /**
   * Runs terms until {@code processStop} fires (or a finite term ends).
   *
   * @throws Exception the failure of a term, propagated (crash: exit 1)
   */
  void run(TermRunner runner, StopSignal processStop) throws Exception;
}
