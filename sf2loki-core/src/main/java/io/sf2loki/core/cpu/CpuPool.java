package io.sf2loki.core.cpu;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The bounded platform-thread pool for CPU-bound work — CSV parsing, shaping, encoding, compression
 * (SPEC PIPE-26) — so a busy parser never holds the virtual-thread carriers that I/O threads and
 * probes need. Process-lifetime; closed by the application.
 */
public final class CpuPool implements AutoCloseable {
  private final ExecutorService executor;
  private final int threads;

  /** A pool of max(2, available processors) daemon platform threads. */
  public CpuPool() {
    this(Math.max(2, Runtime.getRuntime().availableProcessors()));
  }

  /**
   * @param threads pool size, ≥ 1
   */
  public CpuPool(int threads) {
    this.threads = threads;
    AtomicInteger n = new AtomicInteger();
    ThreadFactory tf =
        r -> {
          Thread t = new Thread(r, "sf2loki-cpu-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        };
    this.executor = Executors.newFixedThreadPool(threads, tf);
  }

  /** The executor to submit CPU-bound tasks to. */
  public ExecutorService executor() {
    return executor;
  }

  /** Number of threads. */
  public int threads() {
    return threads;
  }

  @Override
  public void close() {
    executor.shutdownNow();
    try {
      executor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
