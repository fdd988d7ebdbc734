package io.sf2loki.core.pipeline;

import io.opentelemetry.api.metrics.LongCounter;
import io.sf2loki.core.spi.StateConflictException;
import io.sf2loki.core.spi.StateCorruptException;
import io.sf2loki.core.spi.StateException;
import io.sf2loki.core.spi.StateFenceException;
import io.sf2loki.core.spi.StateLockException;
import io.sf2loki.core.time.Ticker;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The committer's view of a failing checkpoint store (SPEC STATE-16): which failures are an outage
 * to wait out (a plain {@link StateException}: I/O, a full or read-only disk, an object store that
 * stays unavailable after its own STATE-9 retries) rather than the end of the term (conflict,
 * fence, lock, corrupt document), since when the store has been failing, and the backoff before the
 * next write: {@link #INITIAL_WAIT} doubling up to {@link #MAX_WAIT}.
 *
 * <p>Not thread-safe: guarded by the owning {@link Committer}'s lock.
 */
final class StoreOutage {
  private static final Logger log = LoggerFactory.getLogger(StoreOutage.class);

  /** SPEC STATE-16: the first wait after a failed checkpoint write. */
  static final Duration INITIAL_WAIT = Duration.ofSeconds(1);

  /** SPEC STATE-16: the longest wait between two checkpoint write attempts. */
  static final Duration MAX_WAIT = Duration.ofSeconds(30);

  private final LongCounter writeErrors;
  private final Ticker ticker;
  private long failingSinceNanos;
  private boolean failing;
  private Duration nextWait = INITIAL_WAIT;

  /**
   * @param writeErrors {@code sf2loki_checkpoint_write_errors}, or null (tests)
   * @param ticker measures how long the store has been failing
   */
  StoreOutage(LongCounter writeErrors, Ticker ticker) {
    this.writeErrors = writeErrors;
    this.ticker = ticker;
  }

  /** Whether {@code e} is an outage the committer waits out (STATE-16). */
  static boolean waitable(RuntimeException e) {
    return e instanceof StateException
        && !(e instanceof StateConflictException
            || e instanceof StateFenceException
            || e instanceof StateLockException
            || e instanceof StateCorruptException);
  }

  /**
   * Records a failed write.
   *
   * @return how long to wait before the next attempt
   */
  Duration failed(StateException e) {
    if (writeErrors != null) {
      writeErrors.add(1);
    }
    if (!failing) {
      failing = true;
      failingSinceNanos = ticker.nanoTime();
      nextWait = INITIAL_WAIT;
    }
    Duration wait = nextWait;
    nextWait =
        nextWait.multipliedBy(2).compareTo(MAX_WAIT) > 0 ? MAX_WAIT : nextWait.multipliedBy(2);
    log.atWarn()
        .addKeyValue("retry_in", wait)
        .log(
            "checkpoint store failing; ingestion is held and nothing is committed until a write"
                + " succeeds: "
                + e.getMessage());
    return wait;
  }

  /** Records a successful write; logs the recovery once. */
  void succeeded() {
    if (failing) {
      Duration failedFor = Duration.ofNanos(ticker.nanoTime() - failingSinceNanos);
      failing = false; // read the length first: failingFor() is empty once healthy
      log.atInfo()
          .addKeyValue("failing_for", failedFor)
          .log("checkpoint store recovered; committing again");
    }
  }

  /** Whether the last write failed. */
  boolean failing() {
    return failing;
  }

  /** How long the store has been failing, on the monotonic ticker; empty when healthy. */
  Optional<Duration> failingFor() {
    return failing
        ? Optional.of(Duration.ofNanos(ticker.nanoTime() - failingSinceNanos))
        : Optional.empty();
  }
}
