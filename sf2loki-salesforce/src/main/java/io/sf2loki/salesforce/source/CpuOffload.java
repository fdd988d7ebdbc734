package io.sf2loki.salesforce.source;

import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * CPU-bound work of a source on the injected bounded platform-thread pool (SPEC PIPE-26): {@link
 * #submit} runs a task there, {@link #await(CompletableFuture, StopSignal)} waits for it
 * stop-aware, {@link #result} unwraps its outcome so a task's checked exception reaches the caller
 * as it was thrown. The pool is owned by the process; this class starts no thread.
 */
public final class CpuOffload {
  /** How often {@link #await(CompletableFuture, StopSignal)} re-checks the stop signal. */
  static final Duration STOP_POLL = Duration.ofMillis(50);

  private final Executor cpu;

  /**
   * @param cpu the process's CPU pool
   */
  public CpuOffload(Executor cpu) {
    this.cpu = Objects.requireNonNull(cpu, "cpu");
  }

  /** Runs {@code task} on the pool; a checked exception completes the future exceptionally. */
  public <T> CompletableFuture<T> submit(Callable<T> task) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return task.call();
          } catch (RuntimeException e) {
            throw e;
          } catch (Exception e) {
            throw new CompletionException(e);
          }
        },
        cpu);
  }

  /**
   * Waits for {@code f}, checking {@code stop} every {@code STOP_POLL} (50 ms); when stop fired
   * first the future is cancelled.
   *
   * @param checked the task's checked exception type, rethrown unwrapped
   * @return the value, or empty when stop fired first
   * @throws X the task's checked exception
   * @throws InterruptedException if interrupted while waiting
   */
  public static <T, X extends Exception> Optional<T> await(
      CompletableFuture<T> f, StopSignal stop, Class<X> checked) throws X, InterruptedException {
    while (true) {
      try {
        return Optional.of(f.get(STOP_POLL.toMillis(), TimeUnit.MILLISECONDS));
      } catch (TimeoutException e) {
        if (stop.isStopped()) {
          f.cancel(false);
          return Optional.empty();
        }
      } catch (ExecutionException e) {
        throw unwrap(e, checked);
      }
    }
  }

  /**
   * The value of a completed {@code f}. Runtime exceptions and errors of the task are rethrown as
   * they are, a checked one of type {@code checked} too; any other becomes an {@link
   * IllegalStateException}.
   *
   * @throws X the task's checked exception
   * @throws InterruptedException if interrupted while waiting
   */
  public static <T, X extends Exception> T result(CompletableFuture<T> f, Class<X> checked)
      throws X, InterruptedException {
    try {
      return f.get();
    } catch (ExecutionException e) {
      throw unwrap(e, checked);
    }
  }

  /**
   * {@link #result(CompletableFuture, Class)} for a task with two checked exception types.
   *
   * @throws X the task's checked exception of the first type
   * @throws Y the task's checked exception of the second type
   * @throws InterruptedException if interrupted while waiting
   */
  public static <T, X extends Exception, Y extends Exception> T result(
      CompletableFuture<T> f, Class<X> checked, Class<Y> alsoChecked)
      throws X, Y, InterruptedException {
    try {
      return f.get();
    } catch (ExecutionException e) {
      Throwable c = cause(e);
      if (alsoChecked.isInstance(c)) {
        throw alsoChecked.cast(c);
      }
      throw unwrap(e, checked);
    }
  }

  private static Throwable cause(ExecutionException e) {
    Throwable c = e.getCause();
    if (c instanceof CompletionException && c.getCause() != null) {
      c = c.getCause();
    }
    return c;
  }

  private static <X extends Exception> X unwrap(ExecutionException e, Class<X> checked) {
    Throwable c = cause(e);
    if (c instanceof RuntimeException re) {
      throw re;
    }
    if (c instanceof Error err) {
      throw err;
    }
    if (checked.isInstance(c)) {
      return checked.cast(c);
    }
    throw new IllegalStateException(c);
  }
}
