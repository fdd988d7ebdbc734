package io.sf2loki.app.backfill;

import io.sf2loki.app.backfill.BackfillPlanner.TypePlan;
import io.sf2loki.salesforce.elf.ElfFiles.ListedFile;
import java.io.PrintStream;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The {@code --dry-run} report (SPEC FEAT-4, BF-14): per type the files of the range (Id,
 * CreatedDate, {@code LogFileLength}), their count, Σ {@code LogFileLength}, the API calls the run
 * would make (the listings already made + one download per file) and an estimated duration at the
 * effective rate; then the totals.
 */
final class DryRunReport {
  /** Rate assumed when neither {@code --max-bytes-per-second} nor the egress byte cap is set. */
  static final long NOMINAL_BYTES_PER_SECOND = 8L * 1024 * 1024;

  private DryRunReport() {}

  /**
   * The rate the estimate uses: {@code --max-bytes-per-second}, else {@code
   * sink.loki.egress.max_bytes_per_second}, else {@link #NOMINAL_BYTES_PER_SECOND}.
   */
  static Rate rate(long requestCap, double egressCap) {
    if (requestCap > 0) {
      return new Rate(requestCap, "--max-bytes-per-second");
    }
    if (egressCap > 0) {
      return new Rate((long) egressCap, "sink.loki.egress.max_bytes_per_second");
    }
    return new Rate(NOMINAL_BYTES_PER_SECOND, "nominal");
  }

  /** A bytes-per-second rate and where it came from. */
  record Rate(long bytesPerSecond, String source) {
    Duration estimate(long bytes) {
      return Duration.ofMillis((long) Math.ceil(bytes * 1000.0 / bytesPerSecond));
    }
  }

  static void print(PrintStream out, List<TypePlan> plans, Rate rate) {
    long files = 0;
    long bytes = 0;
    long calls = 0;
    for (TypePlan p : plans) {
      long typeCalls = p.listingCalls() + (long) p.files().size();
      out.printf(
          Locale.ROOT,
          "type=%s files=%d bytes=%d api_calls=%d listings=%d downloads=%d estimated=%s%s%n",
          p.type(),
          p.files().size(),
          p.bytes(),
          typeCalls,
          p.listingCalls(),
          p.files().size(),
          BackfillProgress.clock(rate.estimate(p.bytes())),
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
    }
    out.printf(
        Locale.ROOT,
        "sf2loki backfill dry run: types=%d files=%d bytes=%d api_calls=%d estimated=%s"
            + " rate=%d B/s (%s); nothing downloaded, pushed or committed%n",
        plans.size(),
        files,
        bytes,
        calls,
        BackfillProgress.clock(rate.estimate(bytes)),
        rate.bytesPerSecond(),
        rate.source());
    out.flush();
  }
}
