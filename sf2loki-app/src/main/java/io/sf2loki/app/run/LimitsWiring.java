package io.sf2loki.app.run;

import io.sf2loki.app.config.SalesforceConfig;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.time.Sleeper;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.salesforce.limits.ApiReserve;
import io.sf2loki.salesforce.limits.LimitsPoller;
import io.sf2loki.salesforce.rest.HttpSalesforceRest;
import io.sf2loki.salesforce.source.PollGate;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One org's limits poller (SPEC OBS-12) and API reserve (OBS-21), process lifetime. The poller runs
 * only while leading: {@link #leading()} (term start) starts its thread, {@link #notLeading()}
 * (term end) stops and joins it; {@link #close()} does the same at shutdown. The reserve (and its
 * pause) outlives terms. Thread-safe; the thread is a virtual thread (blocking HTTP).
 */
final class LimitsWiring implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LimitsWiring.class);

  private final LimitsPoller poller;
  private final Optional<ApiReserve> reserve;
  private StopSignal stop; // guarded by this
  private Thread thread; // guarded by this

  /**
   * @param limits the org's {@code salesforce.limits} ({@code enabled} is the caller's check)
   * @param rest the org's REST client ({@code GET /services/data/v{api}/limits})
   * @param metrics the instance's metrics
   * @param sleeper stop-aware sleeper of the poll interval
   */
  LimitsWiring(
      SalesforceConfig.Limits limits,
      HttpSalesforceRest rest,
      Sf2lokiMetrics metrics,
      Sleeper sleeper) {
    this.reserve =
        limits.reservePercent() > 0
            ? Optional.of(new ApiReserve(limits.reservePercent(), metrics))
            : Optional.empty();
    String path = "/services/data/v" + rest.apiVersion() + "/limits";
    this.poller =
        new LimitsPoller(
            () -> rest.getObject(path), limits.pollInterval(), metrics, reserve, sleeper);
  }

  /** The gate of the polling sources: the reserve, or always open without one. */
  PollGate gate() {
    return reserve.<PollGate>map(r -> r).orElse(PollGate.OPEN);
  }

  /** The readiness degradation of OBS-21 (empty without a reserve or while not paused). */
  Optional<String> degradation() {
    return reserve.flatMap(ApiReserve::degradation);
  }

  /** A term started: start the poller (polls at once). */
  synchronized void leading() {
    if (thread != null) {
      return;
    }
    StopSignal s = new StopSignal();
    stop = s;
    thread =
        Thread.ofVirtual()
            .name("limits-poller")
            .start(
                () -> {
                  try {
                    poller.run(s);
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  } catch (RuntimeException e) { // pollOnce catches per poll; defensive
                    log.atError().setCause(e).log("salesforce limits poller ended unexpectedly");
                  }
                });
  }

  /** A term ended: stop the poller (interrupting a call in flight) and join it. */
  void notLeading() {
    Thread t;
    synchronized (this) {
      t = thread;
      if (t == null) {
        return;
      }
      stop.stop();
      t.interrupt(); // ends a limits call in flight at once (the poller keeps no state)
      thread = null;
      stop = null;
    }
    boolean interrupted = false;
    while (true) {
      try {
        t.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    notLeading();
  }
}
