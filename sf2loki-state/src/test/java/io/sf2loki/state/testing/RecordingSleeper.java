package io.sf2loki.state.testing;

import io.sf2loki.core.time.Sleeper;
import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A sleeper that returns at once and records each requested wait (retry tests). */
public final class RecordingSleeper implements Sleeper {
  private final List<Duration> waits = new CopyOnWriteArrayList<>();

  @Override
  public boolean sleep(Duration duration, StopSignal stop) {
    waits.add(duration);
    return !stop.isStopped();
  }

  /** The waits requested so far, in order. */
  public List<Duration> waits() {
    return List.copyOf(waits);
  }
}
