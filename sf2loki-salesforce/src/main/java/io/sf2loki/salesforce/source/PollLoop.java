package io.sf2loki.salesforce.source;

import io.sf2loki.core.time.Sleeper;
import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * The one poll loop of the polling sources (SPEC SRC-21, ELF-1, APX-1): polls at once, then every
 * jittered interval ({@link Jitter#poll}, stop-aware) until the stop signal fires or a poll reports
 * {@link Poll.Result#stopped()}. A finite loop (demo, tests, backfill-like runs) polls back to back
 * and returns after the first poll that made no progress. Runs on the caller's thread.
 */
public final class PollLoop {
  /** One poll of a source. */
  @FunctionalInterface
  public interface Poll {
    /**
     * How one poll ended.
     *
     * @param stopped the stop signal fired or the emitter refused an entry: the loop returns
     * @param progressed the poll moved a cursor (a finite loop goes on only while polls progress)
     */
    record Result(boolean stopped, boolean progressed) {}

    /** Polls once. */
    Result poll() throws Exception;
  }

  /** A poll loop that can throw no checked exception but {@link InterruptedException}. */
  @FunctionalInterface
  public interface InterruptiblePoll {
    /** Polls once. */
    Poll.Result poll() throws InterruptedException;
  }

  private final Duration interval;
  private final boolean finite;
  private final Sleeper sleeper;
  private final RandomGenerator random;

  /**
   * @param interval the configured {@code poll_interval}
   * @param finite poll back to back and return after a poll without progress
   * @param sleeper stop-aware sleeper
   * @param random jitter source
   */
  public PollLoop(Duration interval, boolean finite, Sleeper sleeper, RandomGenerator random) {
    this.interval = Objects.requireNonNull(interval, "interval");
    this.finite = finite;
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    this.random = Objects.requireNonNull(random, "random");
  }

  /**
   * Runs {@code poll} until stop, a stopped poll or (finite) a poll without progress.
   *
   * @throws Exception what {@code poll} threw; it ends the loop
   */
  public void run(StopSignal stop, Poll poll) throws Exception {
    while (!stop.isStopped()) {
      if (!next(poll.poll(), stop)) {
        return;
      }
    }
  }

  /** {@link #run(StopSignal, Poll)} for a poll that throws only {@link InterruptedException}. */
  public void runInterruptibly(StopSignal stop, InterruptiblePoll poll)
      throws InterruptedException {
    while (!stop.isStopped()) {
      if (!next(poll.poll(), stop)) {
        return;
      }
    }
  }

  /** After a poll: whether to poll again (sleeping the jittered interval first, unless finite). */
  private boolean next(Poll.Result r, StopSignal stop) throws InterruptedException {
    if (r.stopped()) {
      return false;
    }
    if (finite) {
      return r.progressed();
    }
    return sleeper.sleep(Jitter.poll(interval, random), stop);
  }
}
