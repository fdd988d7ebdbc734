package io.sf2loki.core.term;

import io.sf2loki.core.spi.Coordinator;
import io.sf2loki.core.time.StopSignal;

/**
 * {@code coordinate.type: noop} (SPEC HA-2): acquires immediately and holds until the process stops
 * (no {@code onLose}).
 */
public final class NoopCoordinator implements Coordinator {
  @Override
  public void run(Leadership leadership, StopSignal stop) throws InterruptedException {
    leadership.onAcquire();
    stop.await();
  }
}
