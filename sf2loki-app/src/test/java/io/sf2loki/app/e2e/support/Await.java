package io.sf2loki.app.e2e.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/** Polls a loopback-network end-to-end condition (a receiver's counters, a child's output). */
public final class Await {
  private Await() {}

  /**
   * Polls {@code cond} every 20 ms until it holds.
   *
   * @throws AssertionError named {@code what} when it does not hold within {@code limit}
   */
  public static void until(String what, Duration limit, BooleanSupplier cond)
      throws InterruptedException {
    long deadline = System.nanoTime() + limit.toNanos();
    while (!cond.getAsBoolean()) {
      assertThat(System.nanoTime()).as(what).isLessThan(deadline);
      TimeUnit.MILLISECONDS.sleep(20); // loopback network e2e: poll the receiver
    }
  }

  /** A condition that holds while {@code child} runs and fails the wait with its stderr if not. */
  public static BooleanSupplier alive(ChildJvm child) {
    return () -> {
      if (!child.process().isAlive()) {
        throw new AssertionError("child exited: " + child.stderr());
      }
      return true;
    };
  }
}
