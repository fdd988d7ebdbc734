package io.sf2loki.core.egress;

import io.sf2loki.core.time.Sleeper;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.Ticker;
import io.sf2loki.core.time.TimeSource;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A test clock that only the test moves. Its sleeper blocks the calling thread (no real waiting)
 * until the test advances the ticker to the sleep's deadline ({@code true}) or the caller's stop
 * signal fires ({@code false}); interruption throws. Wall-only steps ({@link #setWall}) do not wake
 * sleepers, like a real monotonic sleep. Tests synchronise with {@link #awaitSleepers(int)} and
 * {@link #awaitSleepCalls(int)} (bounded real-time waits that fail the test on timeout).
 */
final class ManualClock {
  record Sleep(String thread, Duration duration) {}

  private static final long SYNC_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(5);

  private final ReentrantLock lock = new ReentrantLock();
  private final Condition changed = lock.newCondition();
  private Instant wall;
  private long nanos;
  private int sleeping;
  private final List<Sleep> sleeps = new ArrayList<>();

  ManualClock(Instant start) {
    this.wall = start;
  }

  Instant now() {
    lock.lock();
    try {
      return wall;
    } finally {
      lock.unlock();
    }
  }

  long nanoTime() {
    lock.lock();
    try {
      return nanos;
    } finally {
      lock.unlock();
    }
  }

  /** Advances wall clock and ticker together, waking sleepers whose deadline passed. */
  void advance(Duration d) {
    lock.lock();
    try {
      wall = wall.plus(d);
      nanos += d.toNanos();
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Steps the wall clock only (forward or backward); wakes nobody. */
  void setWall(Instant instant) {
    lock.lock();
    try {
      wall = instant;
    } finally {
      lock.unlock();
    }
  }

  /** Every sleep requested so far, in call order. */
  List<Sleep> sleeps() {
    lock.lock();
    try {
      return List.copyOf(sleeps);
    } finally {
      lock.unlock();
    }
  }

  /** Sleep durations requested by one thread, in call order. */
  List<Duration> sleepsOf(String thread) {
    return sleeps().stream().filter(s -> s.thread().equals(thread)).map(Sleep::duration).toList();
  }

  /** Number of threads blocked in the sleeper right now. */
  int sleeping() {
    lock.lock();
    try {
      return sleeping;
    } finally {
      lock.unlock();
    }
  }

  /** Blocks until exactly {@code n} threads are blocked in the sleeper (fails after 5 s). */
  void awaitSleepers(int n) throws InterruptedException {
    awaitState(() -> sleeping == n, "sleepers == " + n);
  }

  /** Blocks until at least {@code n} sleeps were requested in total (fails after 5 s). */
  void awaitSleepCalls(int n) throws InterruptedException {
    awaitState(() -> sleeps.size() >= n, "sleep calls >= " + n);
  }

  private void awaitState(java.util.function.BooleanSupplier ok, String what)
      throws InterruptedException {
    lock.lock();
    try {
      long left = SYNC_TIMEOUT_NANOS;
      while (!ok.getAsBoolean()) {
        if (left <= 0) {
          throw new AssertionError(
              "timed out waiting for " + what + "; sleeping=" + sleeping + " sleeps=" + sleeps);
        }
        left = changed.awaitNanos(left);
      }
    } finally {
      lock.unlock();
    }
  }

  InstantSource wall() {
    return this::now;
  }

  Ticker ticker() {
    return this::nanoTime;
  }

  Sleeper sleeper() {
    return this::sleep;
  }

  TimeSource timeSource() {
    return new TimeSource(wall(), ticker(), sleeper());
  }

  private boolean sleep(Duration duration, StopSignal stop) throws InterruptedException {
    if (stop.isStopped()) {
      return false;
    }
    stop.onStop(this::wake);
    lock.lock();
    try {
      sleeps.add(new Sleep(Thread.currentThread().getName(), duration));
      long deadline = nanos + Math.max(0, duration.toNanos());
      sleeping++;
      changed.signalAll();
      try {
        while (nanos < deadline) {
          if (stop.isStopped()) {
            return false;
          }
          changed.await();
        }
        return !stop.isStopped();
      } finally {
        sleeping--;
        changed.signalAll();
      }
    } finally {
      lock.unlock();
    }
  }

  private void wake() {
    lock.lock();
    try {
      changed.signalAll();
    } finally {
      lock.unlock();
    }
  }
}
