package io.sf2loki.app.backfill;

import io.sf2loki.app.backfill.BackfillPlanner.TypePlan;
import io.sf2loki.salesforce.elf.ElfFiles.ListedFile;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The {@code --dry-run} report (SPEC FEAT-4, BF-14, BF-17): per type the files of the range (Id,
 * CreatedDate, {@code LogFileLength}), their count, Σ {@code LogFileLength}, the API calls the run
 * would make (the listings already made + one download per file, exact), and estimates of the rows,
 * the Loki pushes and the duration; then the totals and the basis of the estimates.
 *
 * <p>Nothing is downloaded, so rows and line bytes are estimated from {@code LogFileLength} with
 * nominal factors ({@link Estimate}); the output names them.
 */
final class DryRunReport {
  /** Nominal CSV bytes per EventLogFile row (BF-17). */
  static final long NOMINAL_CSV_BYTES_PER_ROW = 500;

  /** Nominal JSON line bytes per CSV byte: the line repeats every column name (BF-17). */
  static final double NOMINAL_LINE_BYTES_PER_CSV_BYTE = 2.0;

  /** Nominal processing rate in CSV bytes per second, without a cap (BF-17). */
  static final long NOMINAL_CSV_BYTES_PER_SECOND = 2L * 1024 * 1024;

  private DryRunReport() {}

  /**
   * The line-byte cap the run would obey: {@code --max-bytes-per-second}, else {@code
   * sink.loki.egress.max_bytes_per_second}, else none (0).
   */
  static Rate rate(long requestCap, double egressCap) {
    if (requestCap > 0) {
      return new Rate(requestCap, "--max-bytes-per-second");
    }
    if (egressCap > 0) {
      return new Rate((long) egressCap, "sink.loki.egress.max_bytes_per_second");
    }
    return new Rate(0, "none");
  }

  /** A line-bytes-per-second cap (0 = none) and where it came from. */
  record Rate(long bytesPerSecond, String source) {}

  /**
   * The estimate's inputs (BF-17).
   *
   * @param cap the line-byte cap
   * @param maxEntries {@code batch.max_entries} (entries per push)
   * @param maxBytes {@code batch.max_bytes} (line bytes per push)
   */
  record Estimate(Rate cap, int maxEntries, long maxBytes) {
    /** Rows of a file of {@code bytes} CSV bytes: ⌈bytes / row bytes⌉. */
    static long rows(long bytes) {
      return ceilDiv(bytes, NOMINAL_CSV_BYTES_PER_ROW);
    }

    /** Line bytes of a file of {@code bytes} CSV bytes. */
    static long lineBytes(long bytes) {
      return (long) Math.ceil(bytes * NOMINAL_LINE_BYTES_PER_CSV_BYTE);
    }

    /** Pushes of one file: chunks never span files (BF-9). */
    long pushes(long bytes) {
      return bytes == 0
          ? 0
          : Math.max(ceilDiv(rows(bytes), maxEntries), ceilDiv(lineBytes(bytes), maxBytes));
    }

    /** max(CSV bytes at the nominal processing rate, line bytes at the cap). */
    Duration duration(long bytes) {
      double seconds = (double) bytes / NOMINAL_CSV_BYTES_PER_SECOND;
      if (cap.bytesPerSecond() > 0) {
        seconds = Math.max(seconds, (double) lineBytes(bytes) / cap.bytesPerSecond());
      }
      return Duration.ofMillis((long) Math.ceil(seconds * 1000));
    }

    private static long ceilDiv(long a, long b) {
      return b <= 0 ? 0 : (a + b - 1) / b;
    }
  }

  static void print(PrintStream out, List<TypePlan> plans, Estimate est) {
    long files = 0;
    long bytes = 0;
    long calls = 0;
    long rows = 0;
    long pushes = 0;
    for (TypePlan p : plans) {
      long typeCalls = p.listingCalls() + (long) p.files().size();
      long typeRows = 0;
      long typePushes = 0;
      for (ListedFile f : p.files()) {
        typeRows += Estimate.rows(f.lengthBytes());
        typePushes += est.pushes(f.lengthBytes());
      }
      out.printf(
          Locale.ROOT,
          "type=%s files=%d bytes=%d api_calls=%d listings=%d downloads=%d rows_est=%d"
              + " pushes_est=%d estimated=%s%s%n",
          p.type(),
          p.files().size(),
          p.bytes(),
          typeCalls,
          p.listingCalls(),
          p.files().size(),
          typeRows,
          typePushes,
          BackfillProgress.clock(est.duration(p.bytes())),
          p.failure() == null ? "" : " failed=\"" + p.failure() + "\"");
      for (ListedFile f : p.files()) {
        out.printf(
            Locale.ROOT,
            "  file id=%s created=%s log_date=%s bytes=%d%n",
            f.id(),
            f.createdDate(),
            f.logDate(),
            f.lengthBytes());
      }
      files += p.files().size();
      bytes += p.bytes();
      calls += typeCalls;
      rows += typeRows;
      pushes += typePushes;
    }
    out.printf(
        Locale.ROOT,
        "sf2loki backfill dry run: types=%d files=%d bytes=%d api_calls=%d rows_est=%d"
            + " pushes_est=%d estimated=%s; nothing downloaded, pushed or committed%n",
        plans.size(),
        files,
        bytes,
        calls,
        rows,
        pushes,
        BackfillProgress.clock(est.duration(bytes)));
    out.printf(
        Locale.ROOT,
        "sf2loki backfill dry run estimate basis (BF-17): rows = LogFileLength / %d B (nominal);"
            + " line bytes = %.1f x LogFileLength (nominal); pushes per file = max(rows / %d,"
            + " line bytes / %d); duration = max(LogFileLength at %d B/s (nominal), line bytes at"
            + " the cap %s)%n",
        NOMINAL_CSV_BYTES_PER_ROW,
        NOMINAL_LINE_BYTES_PER_CSV_BYTE,
        est.maxEntries(),
        est.maxBytes(),
        NOMINAL_CSV_BYTES_PER_SECOND,
        est.cap().bytesPerSecond() > 0
            ? est.cap().bytesPerSecond() + " B/s (" + est.cap().source() + ")"
            : "(none)");
    out.flush();
  }
}
