package io.sf2loki.core.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class StopSignalTest {
  @Test
  @DisplayName(
      "SRC-2: a call-scoped listener on a long-lived stop signal is removed by its handle, runs"
          + " once if the signal fires first, and repeated calls leave nothing behind")
  void src2_removableListener() {
    StopSignal s = new StopSignal();
    AtomicInteger runs = new AtomicInteger();
    for (int i = 0; i < 1000; i++) {
      Runnable remove = s.onStopUntilRemoved(runs::incrementAndGet);
      remove.run();
      remove.run(); // idempotent
    }
    assertThat(s.listenerCount()).isZero();

    Runnable kept = s.onStopUntilRemoved(runs::incrementAndGet);
    Runnable same = runs::incrementAndGet;
    s.onStop(same);
    s.onStopUntilRemoved(same).run(); // removes only its own registration
    assertThat(s.listenerCount()).isEqualTo(2);
    s.stop();
    assertThat(runs).hasValue(2);
    kept.run(); // after firing: a no-op
    assertThat(s.onStopUntilRemoved(runs::incrementAndGet)).isNotNull();
    assertThat(runs).as("registered after firing: runs at once").hasValue(3);
  }
}
