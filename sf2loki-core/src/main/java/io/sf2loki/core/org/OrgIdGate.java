package io.sf2loki.core.org;

import io.sf2loki.core.liveness.ProgressWatch;
import io.sf2loki.core.time.Sleeper;
import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The org id every wrapped source of one org waits for before it starts (SPEC ORG-3, ORG-9):
 * resolved once per process through {@link Lookup} (configured {@code org_id}, else userinfo,
 * AUTH-8), retried after a failure with a stop-aware backoff of 1 s doubling to 30 s on the
 * injected sleeper; the first failure logs WARN and every tenth ERROR, with {@code org}, {@code
 * attempt}, {@code retry_in} and {@code error}. Concurrent callers share one resolution (the others
 * wait for it); the resolved id is cached for the life of this object (a process-lifetime cache,
 * PIPE-20).
 *
 * <p>Thread-safe: resolution runs under {@link #lock}; the id is a volatile field.
 */
public final class OrgIdGate {
  private static final Logger log = LoggerFactory.getLogger(OrgIdGate.class);

  /** ORG-3: first retry delay. */
  public static final Duration INITIAL_DELAY = Duration.ofSeconds(1);

  /** ORG-3: the delay cap. */
  public static final Duration MAX_DELAY = Duration.ofSeconds(30);

  /** ORG-3: every tenth consecutive failure logs ERROR. */
  static final int ERROR_EVERY = 10;

  /** One resolution attempt. */
  @FunctionalInterface
  public interface Lookup {
    /**
     * @param stop ends the attempt's waits and calls (CLI-3)
     * @return the 15/18-character org id
     * @throws Exception any failure (retried)
     */
    String orgId(StopSignal stop) throws Exception;
  }

  private final String org;
  private final Lookup lookup;
  private final Sleeper sleeper;
  private final ReentrantLock lock = new ReentrantLock();
  private volatile String resolved;
  private int failures; // guarded by lock
  private Duration delay = INITIAL_DELAY; // guarded by lock

  /**
   * @param org the org name (logs)
   * @param lookup one attempt, e.g. {@code OrgIdResolver::orgId}
   * @param sleeper stop-aware sleeper of the backoff
   */
  public OrgIdGate(String org, Lookup lookup, Sleeper sleeper) {
    this.org = Objects.requireNonNull(org, "org");
    this.lookup = Objects.requireNonNull(lookup, "lookup");
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
  }

  /** A gate already open with a known id (configured {@code org_id}, tests). */
  public static OrgIdGate known(String org, String orgId) {
    OrgIdGate g = new OrgIdGate(org, stop -> orgId, Sleeper.system());
    g.resolved = Objects.requireNonNull(orgId, "orgId");
    return g;
  }

  /** The id once resolved, else null. */
  public String resolved() {
    return resolved;
  }

  /**
   * Waits until the org id is known.
   *
   * @param stop the caller's stop signal (the term's)
   * @return the org id, or null when {@code stop} fired first
   * @throws InterruptedException if interrupted
   */
  public String await(StopSignal stop) throws InterruptedException {
    return await(stop, e -> {});
  }

  /**
   * Waits until the org id is known, telling {@code onFailure} of every failed attempt this caller
   * made (FEAT-3: the org's {@code /statusz} rows show it).
   *
   * @param stop the caller's stop signal (the term's)
   * @param onFailure hears each failed attempt's exception, on the calling thread
   * @return the org id, or null when {@code stop} fired first
   * @throws InterruptedException if interrupted
   */
  public String await(StopSignal stop, java.util.function.Consumer<Exception> onFailure)
      throws InterruptedException {
    String id = resolved;
    if (id != null) {
      return id;
    }
    try (ProgressWatch.Waiting w = ProgressWatch.waiting()) { // FEAT-21: another source resolves
      lock.lockInterruptibly();
    }
    try {
      while (resolved == null) {
        if (stop.isStopped()) {
          return null;
        }
        Duration wait = attempt(stop, onFailure);
        if (wait != null && !sleeper.sleep(wait, stop)) {
          return resolved;
        }
      }
      return resolved;
    } finally {
      lock.unlock();
    }
  }

  /** One attempt; the wait before the next one, or null on success. Holds the lock. */
  private Duration attempt(StopSignal stop, java.util.function.Consumer<Exception> onFailure)
      throws InterruptedException {
    try {
      String id = lookup.orgId(stop);
      if (id == null || id.isBlank()) {
        throw new IllegalStateException("org id lookup returned no id");
      }
      resolved = id;
      failures = 0;
      delay = INITIAL_DELAY;
      return null;
    } catch (InterruptedException e) {
      throw e;
    } catch (Exception e) {
      if (stop.isStopped()) {
        return Duration.ZERO; // the stop ended the call: the loop returns without logging
      }
      failures++;
      onFailure.accept(e);
      Duration wait = delay;
      delay = delay.multipliedBy(2).compareTo(MAX_DELAY) > 0 ? MAX_DELAY : delay.multipliedBy(2);
      if (failures == 1 || failures % ERROR_EVERY == 0) {
        var event = failures == 1 ? log.atWarn() : log.atError();
        event
            .addKeyValue("org", org)
            .addKeyValue("attempt", failures)
            .addKeyValue("retry_in", wait)
            .addKeyValue("error", String.valueOf(e.getMessage()))
            .log("org id not resolved; the org's sources wait for it (ORG-3)");
      }
      return wait;
    }
  }

  /** Consecutive failures so far (tests). */
  int failures() {
    lock.lock();
    try {
      return failures;
    } finally {
      lock.unlock();
    }
  }
}
