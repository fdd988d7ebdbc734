package io.sf2loki.core.term;

import io.sf2loki.core.spi.Coordinator;
import io.sf2loki.core.time.StopSignal;

/**
 * {@code coordinate.type: noop} (SPEC HA): a standalone replica leads at once and for its whole
 * life, so it runs exactly one term, which ends on process stop or when its sources finish.
 */
public final class NoopCoordinator implements Coordinator {
  @Override
  public void run(TermRunner runner, StopSignal processStop) throws Exception {
    runner.runTerm(processStop);
  }
}
