package io.sf2loki.core.time;

/**
 * A monotonic clock in nanoseconds (SPEC SRC-26): intervals, timeouts and backoffs are measured on
 * it so a wall-clock step neither freezes nor rushes them. Only differences are meaningful.
 */
@FunctionalInterface
public interface Ticker {
  /** Current monotonic reading in nanoseconds. */
  long nanoTime();

  /** The system monotonic clock ({@link System#nanoTime()}). */
  static Ticker system() {
    return System::nanoTime;
  }
}
