package io.sf2loki.core.time;

import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;

/**
 * Deterministic time for tests: a settable wall clock and ticker; {@link #sleeper()} advances both
 * by the requested duration instead of waiting (returns false when the stop signal already fired).
 * Thread-safe. Shared with other modules through the core test-jar.
 */
public final class FakeTime {
  private Instant wall;
  private long nanos;
  private final List<Duration> sleeps = new ArrayList<>();

  public FakeTime(Instant start) {
    this.wall = start;
  }

  public synchronized Instant now() {
    return wall;
  }

  public synchronized long nanoTime() {
    return nanos;
  }

  /** Advances wall clock and ticker together. */
  public synchronized void advance(Duration d) {
    wall = wall.plus(d);
    nanos += d.toNanos();
  }

  /** Sets the wall clock only (simulates a wall-clock step). */
  public synchronized void setWall(Instant instant) {
    wall = instant;
  }

  /** Every duration passed to the sleeper, in order. */
  public synchronized List<Duration> sleeps() {
    return List.copyOf(sleeps);
  }

  public InstantSource wall() {
    return this::now;
  }

  public Ticker ticker() {
    return this::nanoTime;
  }

  public Sleeper sleeper() {
    return (duration, stop) -> {
      if (stop.isStopped()) {
        return false;
      }
      synchronized (this) {
        sleeps.add(duration);
      }
      if (!duration.isNegative()) {
        advance(duration);
      }
      return !stop.isStopped();
    };
  }

  public TimeSource timeSource() {
    return new TimeSource(wall(), ticker(), sleeper());
  }
}
