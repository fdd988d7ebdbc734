package io.sf2loki.app.backfill;

import io.sf2loki.core.time.Ticker;
import java.io.PrintStream;
import java.time.Duration;
import java.util.function.Supplier;
import me.tongfei.progressbar.InteractiveConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * The live progress bar on a terminal (SPEC BF-13), drawn by {@code me.tongfei:progressbar} on
 * stderr: bytes done of Σ {@code LogFileLength}, then {@code files a/b, r rows/s, ETA h:mm:ss}. The
 * library's refresh thread is owned by its {@link ProgressBar}, stopped by {@link #close()}.
 */
final class TerminalProgress implements BackfillProgress {
  private final PrintStream err;
  private final Ticker ticker;
  private final Supplier<long[]> counters;
  private ProgressBar bar;
  private long totalFiles;
  private long totalBytes;
  private long startNanos;

  /**
   * @param err the terminal stream
   * @param ticker measures rows/s and the ETA
   * @param counters {@code [filesDone, bytesDone, rows]}
   */
  TerminalProgress(PrintStream err, Ticker ticker, Supplier<long[]> counters) {
    this.err = err;
    this.ticker = ticker;
    this.counters = counters;
  }

  @Override
  public void start(long totalFiles, long totalBytes) {
    this.totalFiles = totalFiles;
    this.totalBytes = totalBytes;
    this.startNanos = ticker.nanoTime();
    bar =
        new ProgressBarBuilder()
            .setTaskName("backfill")
            .setInitialMax(Math.max(1, totalBytes))
            .setUnit(" KiB", 1024)
            .setStyle(ProgressBarStyle.ASCII)
            .setUpdateIntervalMillis(250)
            .hideEta()
            .setConsumer(new InteractiveConsoleProgressBarConsumer(err))
            .build();
    update();
  }

  @Override
  public synchronized void update() {
    if (bar == null) {
      return;
    }
    Snapshot s = snapshot();
    bar.stepTo(s.bytesDone());
    bar.setExtraMessage(
        String.format(
            java.util.Locale.ROOT,
            "files %d/%d, %.0f rows/s, ETA %s",
            s.filesDone(),
            s.totalFiles(),
            s.rowsPerSecond(),
            s.eta().map(BackfillProgress::clock).orElse("?")));
  }

  private Snapshot snapshot() {
    long[] c = counters.get();
    return new Snapshot(
        c[0], totalFiles, c[1], totalBytes, c[2], Duration.ofNanos(ticker.nanoTime() - startNanos));
  }

  @Override
  public synchronized void close() {
    if (bar != null) {
      update();
      bar.close();
      bar = null;
    }
  }
}
