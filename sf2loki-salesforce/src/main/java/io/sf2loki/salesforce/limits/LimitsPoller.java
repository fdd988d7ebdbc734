package io.sf2loki.salesforce.limits;

import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.status.PollReporter;
import io.sf2loki.core.time.Sleeper;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.salesforce.rest.SalesforceException;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The org limits poller (SPEC OBS-12): polls at once, then every {@code limits.poll_interval}
 * (stop-aware, on the injected {@link Sleeper}) until the stop signal fires. Each successful poll
 * sets {@code sf2loki_salesforce_limit_max{limit_name}} and {@code
 * sf2loki_salesforce_limit_remaining{limit_name}} for every top-level limit ({@link OrgLimits}) and
 * then feeds {@code DailyApiRequests} to the {@link ApiReserve} (OBS-21), if one is configured. A
 * failed poll (error status, non-JSON or non-object 2xx, missing fields) counts {@code
 * sf2loki_salesforce_limits_poll_errors}, logs WARN (error redacted, OBS-34) and leaves the reserve
 * as it was; the poller never dies of it. Runs on its owner's thread ({@code run}); not thread-safe
 * otherwise.
 */
public final class LimitsPoller {
  private static final Logger log = LoggerFactory.getLogger(LimitsPoller.class);

  /** The one call the poller makes. */
  @FunctionalInterface
  public interface LimitsApi {
    /**
     * {@code GET {instance_url}/services/data/v{api}/limits} as a JSON object (401 retried once by
     * the REST client, AUTH-7).
     *
     * @throws SalesforceException on an error status, a transport failure or a 2xx body that is not
     *     a JSON object
     * @throws InterruptedException if interrupted
     */
    Map<String, Object> limits() throws SalesforceException, InterruptedException;
  }

  private final LimitsApi api;
  private final Duration interval;
  private final Sf2lokiMetrics metrics;
  private final Optional<ApiReserve> reserve;
  private final Sleeper sleeper;
  private volatile PollReporter redactor = PollReporter.NONE;

  /**
   * @param api the Limits call
   * @param interval {@code salesforce.limits.poll_interval} (&gt; 0)
   * @param metrics the instance's metrics
   * @param reserve the org's API reserve, empty when {@code reserve_percent} is 0
   * @param sleeper stop-aware sleeper (fake in tests)
   */
  public LimitsPoller(
      LimitsApi api,
      Duration interval,
      Sf2lokiMetrics metrics,
      Optional<ApiReserve> reserve,
      Sleeper sleeper) {
    this.api = Objects.requireNonNull(api, "api");
    this.interval = Objects.requireNonNull(interval, "interval");
    if (interval.isZero() || interval.isNegative()) {
      throw new IllegalArgumentException("poll_interval must be > 0: " + interval);
    }
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.reserve = Objects.requireNonNull(reserve, "reserve");
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
  }

  /**
   * Masks secrets in the failure WARN as {@code r} does (SPEC OBS-34); without it only
   * credential-looking parts are masked. Call before {@link #run}.
   *
   * @return this
   */
  public LimitsPoller reportTo(PollReporter r) {
    this.redactor = Objects.requireNonNull(r, "reporter");
    return this;
  }

  /**
   * Polls at once, then every interval, until {@code stop} fires.
   *
   * @throws InterruptedException if the thread is interrupted (its owner's stop)
   */
  public void run(StopSignal stop) throws InterruptedException {
    while (!stop.isStopped()) {
      pollOnce();
      if (!sleeper.sleep(interval, stop)) {
        return;
      }
    }
  }

  /**
   * One poll.
   *
   * @return the limits read, empty when the poll failed (counted and logged)
   * @throws InterruptedException if interrupted
   */
  public Optional<OrgLimits> pollOnce() throws InterruptedException {
    try {
      OrgLimits limits = OrgLimits.parse(api.limits());
      limits
          .limits()
          .forEach(
              (name, l) -> {
                Attributes a = Attributes.of(Sf2lokiMetrics.LIMIT_NAME, name);
                metrics.salesforceLimitMax.set(l.max(), a);
                metrics.salesforceLimitRemaining.set(l.remaining(), a);
              });
      if (reserve.isPresent()) {
        OrgLimits.Limit daily =
            limits
                .dailyApiRequests()
                .orElseThrow(
                    () ->
                        new LimitsResponseException(
                            "limits response has no DailyApiRequests with integer Max and"
                                + " Remaining; API reserve unchanged"));
        reserve.get().observe(daily);
      }
      return Optional.of(limits);
    } catch (SalesforceException e) {
      failed(e.getClass().getSimpleName(), e.status(), e.getMessage());
    } catch (LimitsResponseException e) {
      failed(e.getClass().getSimpleName(), 200, e.getMessage());
    } catch (RuntimeException e) { // a defect in a dependency must not end the poller (OBS-12)
      failed(e.getClass().getSimpleName(), 0, String.valueOf(e.getMessage()));
    }
    return Optional.empty();
  }

  private void failed(String kind, int status, String message) {
    metrics.salesforceLimitsPollErrors.add(1);
    log.atWarn()
        .addKeyValue("error_kind", kind)
        .addKeyValue("status", status)
        .addKeyValue("error", redactor.redact(message))
        .log("salesforce limits poll failed");
  }
}
