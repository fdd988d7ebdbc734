package io.sf2loki.app.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import sun.misc.Signal;

class SignalsTest {
  @Test
  @DisplayName("CLI-3: SIGTERM and SIGINT fire the stop signal instead of killing the JVM")
  void signalsFireStop() throws Exception {
    for (String name : Signals.NAMES) {
      StopSignal stop = new StopSignal();
      Semaphore handled = new Semaphore(0);
      try (Signals ignored = Signals.install(stop, handled::release)) {
        Signal.raise(new Signal(name));
        assertThat(stop.await(Duration.ofSeconds(5))).as(name).isTrue();
        assertThat(handled.tryAcquire(5, TimeUnit.SECONDS)).isTrue();
        // a second signal is ignored, not fatal
        Signal.raise(new Signal(name));
        assertThat(handled.tryAcquire(5, TimeUnit.SECONDS)).isTrue();
      }
    }
  }
}
