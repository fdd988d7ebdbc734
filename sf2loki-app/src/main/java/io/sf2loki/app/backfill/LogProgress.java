package io.sf2loki.app.backfill;

import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import java.time.Duration;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Progress when stderr is not a terminal (SPEC BF-13): one INFO line {@code backfill progress
 * files=a/b bytes=c/d rows=n rows_per_second=r eta=h:mm:ss} every {@link #INTERVAL} of the injected
 * clock, from a virtual thread this object starts in {@link #start} and joins in {@link #close}.
 */
final class LogProgress implements BackfillProgress {
  private static final Logger log = LoggerFactory.getLogger(LogProgress.class);

  /** Time between two progress lines. */
  static final Duration INTERVAL = Duration.ofSeconds(30);

  private final TimeSource time;
  private final Supplier<long[]> counters;
  private final StopSignal stop = new StopSignal();
  private Thread thread;
  private volatile long totalFiles;
  private volatile long totalBytes;
  private volatile long startNanos;

  /**
   * @param time ticker (rates) and sleeper (the 30 s wait)
   * @param counters {@code [filesDone, bytesDone, rows]}
   */
  LogProgress(TimeSource time, Supplier<long[]> counters) {
    this.time = time;
    this.counters = counters;
  }

  @Override
  public synchronized void start(long totalFiles, long totalBytes) {
    this.totalFiles = totalFiles;
    this.totalBytes = totalBytes;
    this.startNanos = time.ticker().nanoTime();
    thread = Thread.ofVirtual().name("sf2loki-backfill-progress").start(this::loop);
  }

  private void loop() {
    try {
      while (time.sleeper().sleep(INTERVAL, stop)) {
        log.atInfo().log("backfill progress " + snapshot().text());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  Snapshot snapshot() {
    long[] c = counters.get();
    return new Snapshot(
        c[0],
        totalFiles,
        c[1],
        totalBytes,
        c[2],
        Duration.ofNanos(time.ticker().nanoTime() - startNanos));
  }

  @Override
  public void update() {}

  @Override
  public void close() {
    stop.stop();
    Thread t;
    synchronized (this) {
      t = thread;
      thread = null;
    }
    if (t != null) {
      try {
        t.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
