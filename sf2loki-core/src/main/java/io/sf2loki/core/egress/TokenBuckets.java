package io.sf2loki.core.egress;

import io.sf2loki.core.time.Sleeper;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.Ticker;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The EGR-7 rate caps: one token bucket for lines/s and one for bytes/s, each holding at most one
 * second of its rate, refilled from the monotonic {@link Ticker} (SRC-26). Callers are served
 * strictly in arrival order: only the head of the waiting line may take tokens or sleep; later
 * callers wait behind it (PIPE-25). Thread-safe.
 */
final class TokenBuckets {
  /** Shortfalls below this many tokens count as none (floating-point slack). */
  private static final double EPSILON = 1e-9;

  private final double lineRate;
  private final double byteRate;
  private final Ticker ticker;
  private final Sleeper sleeper;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition turn = lock.newCondition();
  // guarded by lock
  private final ArrayDeque<Object> line = new ArrayDeque<>();
  private final Set<StopSignal> hooked = Collections.newSetFromMap(new WeakHashMap<>());
  private double lineTokens;
  private double byteTokens;
  private long refilledAt;

  /**
   * @param lineRate lines per second, 0 = off
   * @param byteRate bytes per second, 0 = off
   */
  TokenBuckets(double lineRate, double byteRate, Ticker ticker, Sleeper sleeper) {
    this.lineRate = lineRate;
    this.byteRate = byteRate;
    this.ticker = ticker;
    this.sleeper = sleeper;
    this.lineTokens = lineRate;
    this.byteTokens = byteRate;
    this.refilledAt = ticker.nanoTime();
  }

  /**
   * Waits in arrival order until both buckets hold min(amount, capacity), then takes the full
   * amounts (a bucket may go negative).
   *
   * @return true when the tokens were taken; false when {@code stop} fired or the thread was
   *     interrupted while waiting (the interrupt status is then set again)
   */
  boolean acquire(long lines, long bytes, StopSignal stop) {
    Object me = new Object();
    lock.lock();
    try {
      line.addLast(me);
      while (true) {
        if (line.peekFirst() != me) {
          hook(stop); // before the check: a stop after it signals once we await (we hold the lock)
          if (stop.isStopped()) {
            return false;
          }
          turn.await();
          continue;
        }
        refill();
        Duration wait = shortfallWait(lines, bytes);
        if (wait.isZero()) {
          if (lineRate > 0) {
            lineTokens -= lines;
          }
          if (byteRate > 0) {
            byteTokens -= bytes;
          }
          return true;
        }
        boolean slept;
        lock.unlock();
        try {
          slept = sleeper.sleep(wait, stop);
        } finally {
          lock.lock();
        }
        if (!slept) {
          return false;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } finally {
      line.remove(me);
      turn.signalAll();
      lock.unlock();
    }
  }

  /** Callers currently in the waiting line (including one taking tokens right now). */
  int waiting() {
    lock.lock();
    try {
      return line.size();
    } finally {
      lock.unlock();
    }
  }

  private void hook(StopSignal stop) {
    if (hooked.add(stop)) {
      stop.onStop(this::wakeAll);
    }
  }

  private void wakeAll() {
    lock.lock();
    try {
      turn.signalAll();
    } finally {
      lock.unlock();
    }
  }

  private void refill() {
    long now = ticker.nanoTime();
    double seconds = Math.max(0, now - refilledAt) / 1e9;
    refilledAt = now;
    if (lineRate > 0) {
      lineTokens = Math.min(lineRate, lineTokens + seconds * lineRate);
    }
    if (byteRate > 0) {
      byteTokens = Math.min(byteRate, byteTokens + seconds * byteRate);
    }
  }

  private Duration shortfallWait(long lines, long bytes) {
    double seconds = 0;
    if (lineRate > 0) {
      double shortfall = Math.min(lines, lineRate) - lineTokens;
      if (shortfall > EPSILON) {
        seconds = Math.max(seconds, shortfall / lineRate);
      }
    }
    if (byteRate > 0) {
      double shortfall = Math.min(bytes, byteRate) - byteTokens;
      if (shortfall > EPSILON) {
        seconds = Math.max(seconds, shortfall / byteRate);
      }
    }
    return seconds == 0 ? Duration.ZERO : Duration.ofNanos((long) Math.ceil(seconds * 1e9));
  }
}
