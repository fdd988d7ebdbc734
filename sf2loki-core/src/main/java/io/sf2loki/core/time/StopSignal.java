package io.sf2loki.core.time;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A one-shot, cooperative stop signal observed by every blocking wait of a term (SPEC SRC-2).
 * Thread-safe. Listeners registered with {@link #onStop(Runnable)} run once, on the thread that
 * fires the signal (or at once if it already fired).
 */
public final class StopSignal {
  private final CountDownLatch latch = new CountDownLatch(1);
  private final List<Runnable> listeners = new ArrayList<>();

  /** Fires the signal; idempotent. */
  public void stop() {
    List<Runnable> toRun;
    synchronized (listeners) {
      if (latch.getCount() == 0) {
        return;
      }
      latch.countDown();
      toRun = List.copyOf(listeners);
      listeners.clear();
    }
    for (Runnable r : toRun) {
      r.run();
    }
  }

  /** Whether {@link #stop()} was called. */
  public boolean isStopped() {
    return latch.getCount() == 0;
  }

  /**
   * Waits until the signal fires or {@code timeout} elapses (real time).
   *
   * @return true if the signal fired
   * @throws InterruptedException if the waiting thread is interrupted
   */
  public boolean await(Duration timeout) throws InterruptedException {
    return latch.await(Math.max(0, timeout.toNanos()), TimeUnit.NANOSECONDS);
  }

  /** Waits until the signal fires. */
  public void await() throws InterruptedException {
    latch.await();
  }

  /** Registers a listener run once when the signal fires (at once if it already fired). */
  public void onStop(Runnable listener) {
    synchronized (listeners) {
      if (latch.getCount() != 0) {
        listeners.add(listener);
        return;
      }
    }
    listener.run();
  }

  /**
   * As {@link #onStop(Runnable)} for a call-scoped listener on a long-lived signal: the returned
   * handle removes the listener again (idempotent; a no-op once the signal fired), so repeated
   * calls leave nothing behind.
   *
   * @return the handle that unregisters {@code listener}
   */
  public Runnable onStopUntilRemoved(Runnable listener) {
    Runnable own = listener::run; // a distinct instance, so removal takes exactly this one
    onStop(own);
    return () -> {
      synchronized (listeners) {
        listeners.remove(own);
      }
    };
  }

  /** Listeners still registered (tests). */
  int listenerCount() {
    synchronized (listeners) {
      return listeners.size();
    }
  }
}
