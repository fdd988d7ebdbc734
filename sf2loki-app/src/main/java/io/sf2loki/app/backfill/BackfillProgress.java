package io.sf2loki.app.backfill;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;

/**
 * Progress of a backfill run (SPEC BF-13): files and bytes done of the planned totals, rows per
 * second and an ETA. On a terminal a live bar on stderr ({@link TerminalProgress}); otherwise one
 * INFO line every 30 s of the injected clock ({@link LogProgress}). Fed by the run thread.
 */
interface BackfillProgress extends AutoCloseable {
  /** Totals of the plan; called once before the first file. */
  void start(long totalFiles, long totalBytes);

  /** Something changed (a chunk pushed, a file done); counters are read from the summary. */
  void update();

  /** Stops the display (joins its thread, if any). */
  @Override
  void close();

  /** A point-in-time view of the run against the plan. */
  record Snapshot(
      long filesDone,
      long totalFiles,
      long bytesDone,
      long totalBytes,
      long rows,
      Duration elapsed) {
    double rowsPerSecond() {
      double s = elapsed.toNanos() / 1e9;
      return s <= 0 ? 0 : rows / s;
    }

    /** ETA from the byte rate so far; empty before any byte is done. */
    java.util.Optional<Duration> eta() {
      if (bytesDone <= 0 || elapsed.isZero()) {
        return java.util.Optional.empty();
      }
      double perByte = elapsed.toNanos() / (double) bytesDone;
      return java.util.Optional.of(
          Duration.ofNanos((long) (perByte * Math.max(0, totalBytes - bytesDone))));
    }

    /** {@code files=a/b bytes=c/d rows=n rows_per_second=r eta=Ns}. */
    String text() {
      return String.format(
          Locale.ROOT,
          "files=%d/%d bytes=%d/%d rows=%d rows_per_second=%.0f eta=%s",
          filesDone,
          totalFiles,
          bytesDone,
          totalBytes,
          rows,
          rowsPerSecond(),
          eta().map(BackfillProgress::clock).orElse("?"));
    }
  }

  /** {@code H:MM:SS}. */
  static String clock(Duration d) {
    long s = Math.max(0, d.toSeconds());
    return String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, (s / 60) % 60, s % 60);
  }

  /**
   * Whether this process's stderr is a terminal (Linux: {@code /proc/self/fd/2} names a tty
   * device). Anything else, or a platform without {@code /proc}, counts as not a terminal.
   */
  static boolean stderrIsTerminal() {
    try {
      String target = Files.readSymbolicLink(Path.of("/proc/self/fd/2")).toString();
      return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
    } catch (IOException | UnsupportedOperationException | SecurityException e) {
      return false;
    }
  }
}
