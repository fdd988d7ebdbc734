package io.sf2loki.app.cli;

import io.sf2loki.core.time.StopSignal;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import sun.misc.Signal;
import sun.misc.SignalHandler;

/**
 * Intercepts SIGTERM and SIGINT (SPEC CLI-3) with {@code sun.misc.Signal} (module {@code
 * jdk.unsupported}) and turns them into {@link StopSignal#stop()}, so the JVM never exits with its
 * default signal status (143/130): the daemon's main thread returns its exit status after cleanup.
 * Further signals after the first are logged and otherwise ignored. {@link #close()} restores the
 * previous handlers.
 */
public final class Signals implements AutoCloseable {
  /** The intercepted signals. */
  public static final List<String> NAMES = List.of("TERM", "INT");

  private static final Logger log = LoggerFactory.getLogger(Signals.class);

  private final List<Signal> signals = new ArrayList<>();
  private final List<SignalHandler> previous = new ArrayList<>();

  private Signals() {}

  /**
   * Installs the handlers.
   *
   * @param stop fired (on the JVM's signal-dispatch thread) by the first SIGTERM or SIGINT
   * @return a handle whose {@link #close()} restores the previous handlers
   * @throws IllegalArgumentException if the platform does not support one of the signals
   */
  public static Signals install(StopSignal stop) {
    return install(stop, () -> {});
  }

  /** As {@link #install(StopSignal)}; {@code afterEach} runs after every handled signal (tests). */
  static Signals install(StopSignal stop, Runnable afterEach) {
    Objects.requireNonNull(stop, "stop");
    Signals s = new Signals();
    SignalHandler handler =
        sig -> {
          if (stop.isStopped()) {
            log.atInfo()
                .addKeyValue("signal", "SIG" + sig.getName())
                .log("signal received while already stopping; ignored");
          } else {
            log.atInfo().addKeyValue("signal", "SIG" + sig.getName()).log("stopping on signal");
            stop.stop();
          }
          afterEach.run();
        };
    try {
      for (String name : NAMES) {
        Signal sig = new Signal(name);
        s.previous.add(Signal.handle(sig, handler));
        s.signals.add(sig);
      }
    } catch (RuntimeException e) {
      s.close();
      throw e;
    }
    return s;
  }

  /** Restores the handlers that were installed before {@link #install(StopSignal)}. */
  @Override
  public void close() {
    for (int i = signals.size() - 1; i >= 0; i--) {
      Signal.handle(signals.get(i), previous.get(i));
    }
    signals.clear();
    previous.clear();
  }
}
