package io.sf2loki.salesforce.limits;

import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.salesforce.source.PollGate;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The API reserve of one org (SPEC OBS-21): after each successful limits poll ({@link
 * #observe(OrgLimits.Limit)}) the polling sources are paused while {@code
 * DailyApiRequests.Remaining} &lt; {@code reserve_percent} % of {@code Max}. Entering the pause
 * logs WARN once and sets {@code sf2loki_salesforce_api_reserve_paused} to 1; a poll at or above
 * the reserve logs INFO and sets it to 0. A failed poll does not call {@code observe}, so it keeps
 * the current state.
 *
 * <p>Process lifetime per org (the pause outlives a term, so a new term's sources stay paused until
 * a poll shows recovery). Thread-safe: the poller writes, sources and readiness read.
 */
public final class ApiReserve implements PollGate {
  private static final Logger log = LoggerFactory.getLogger(ApiReserve.class);

  /** The {@code /readyz} body while paused (OBS-8). */
  public static final String DEGRADED = "degraded: API reserve reached";

  private final double reservePercent;
  private final Sf2lokiMetrics metrics;
  private volatile boolean paused;

  /**
   * @param reservePercent {@code salesforce.limits.reserve_percent}, in (0, 100]
   * @param metrics the instance's metrics ({@code sf2loki_salesforce_api_reserve_paused})
   */
  public ApiReserve(double reservePercent, Sf2lokiMetrics metrics) {
    if (!(reservePercent > 0 && reservePercent <= 100)) {
      throw new IllegalArgumentException("reserve_percent must be in (0, 100]: " + reservePercent);
    }
    this.reservePercent = reservePercent;
    this.metrics = metrics;
  }

  /**
   * Applies one poll's {@code DailyApiRequests}: pauses below the reserve, resumes at or above it.
   *
   * @param daily {@code DailyApiRequests} of a successful poll
   */
  public synchronized void observe(OrgLimits.Limit daily) {
    boolean below = daily.remaining() < daily.max() * reservePercent / 100.0;
    if (below == paused) {
      return;
    }
    paused = below;
    metrics.salesforceApiReservePaused.set(below ? 1 : 0);
    var event =
        (below ? log.atWarn() : log.atInfo())
            .addKeyValue("remaining", daily.remaining())
            .addKeyValue("max", daily.max())
            .addKeyValue("reserve_percent", reservePercent);
    event.log(
        below
            ? "salesforce API reserve reached; polling sources paused"
            : "salesforce API reserve recovered; polling sources resumed");
  }

  /** Whether the polling sources are paused now. */
  public boolean paused() {
    return paused;
  }

  @Override
  public boolean open() {
    return !paused;
  }

  /** The readiness degradation (OBS-8 row after PIPE-11's): {@link #DEGRADED} while paused. */
  public Optional<String> degradation() {
    return paused ? Optional.of(DEGRADED) : Optional.empty();
  }
}
