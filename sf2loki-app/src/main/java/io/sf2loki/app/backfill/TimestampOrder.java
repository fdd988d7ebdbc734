package io.sf2loki.app.backfill;

import io.sf2loki.core.model.LogEntry;
import io.sf2loki.salesforce.elf.ElfFiles.MalformedLogFileException;
import java.io.IOException;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;

/**
 * Emits the entries of one file in timestamp order (SPEC BF-8) with bounded memory (BF-6): a first
 * pass over the spool keeps one {@code long} per entry (its timestamp); if the timestamps never
 * decrease, a second pass emits the entries as read. Otherwise the stable order by (timestamp,
 * position) is computed over a fixed-size index per entry (a rank, {@code int}), and the entries
 * are emitted window by window: each further pass over the spool keeps only the entries whose rank
 * falls in the next {@link #WINDOW} ranks. Entries are matched across passes by their position
 * among the shaped entries, which is stable because shaping is deterministic (sampling is off,
 * BF-7). Not thread-safe.
 */
final class TimestampOrder {
  /** Entries held in memory at once when a file is out of order. */
  static final int WINDOW = 32_768;

  /** A fresh reader over the file's shaped entries. */
  interface Opener {
    Source open() throws IOException, MalformedLogFileException;
  }

  /** One pass over the shaped entries. */
  interface Source extends AutoCloseable {
    /** Up to {@code max} further entries; empty at the end. */
    List<LogEntry> next(int max) throws IOException, MalformedLogFileException;

    /** Data rows read so far (before transforms dropped any). */
    long rowsRead();

    @Override
    void close() throws IOException;
  }

  /** Receives entries in order. */
  interface Sink {
    void accept(LogEntry entry) throws Exception;
  }

  private final int window;
  private int passes;

  TimestampOrder() {
    this(WINDOW);
  }

  /** For tests: a smaller window. */
  TimestampOrder(int window) {
    if (window < 1) {
      throw new IllegalArgumentException("window < 1");
    }
    this.window = window;
  }

  /** Passes over the spool of the last {@link #emit} (index pass included). */
  int passes() {
    return passes;
  }

  /**
   * Emits every entry of the file to {@code sink} in (timestamp, position) order.
   *
   * @return the file's data rows
   * @throws Exception whatever the reader or the sink throws
   */
  long emit(Opener opener, Sink sink) throws Exception {
    passes = 1;
    long[] stamps = new long[1024];
    int n = 0;
    boolean sorted = true;
    long rows;
    try (Source s = opener.open()) {
      for (List<LogEntry> read = s.next(BackfillRun.READ_ROWS);
          !read.isEmpty();
          read = s.next(BackfillRun.READ_ROWS)) {
        for (LogEntry e : read) {
          if (n == stamps.length) {
            stamps = Arrays.copyOf(stamps, n * 2);
          }
          stamps[n] = nanos(e.timestamp());
          sorted &= n == 0 || stamps[n] >= stamps[n - 1];
          n++;
        }
      }
      rows = s.rowsRead();
    }
    if (n == 0) {
      return rows;
    }
    if (sorted) {
      pass(opener, null, 0, n, sink);
      return rows;
    }
    int[] rank = ranks(stamps, n);
    for (int lo = 0; lo < n; lo += window) {
      pass(opener, rank, lo, Math.min(n, lo + window), sink);
    }
    return rows;
  }

  /** Emits every entry as read, in one pass ({@code --ingest-timestamps}: stamps are restamped). */
  long emitAsRead(Opener opener, Sink sink) throws Exception {
    passes = 0;
    return pass(opener, null, 0, 0, sink);
  }

  /** One pass emitting the entries of ranks [lo, hi) in rank order (all, as read, if no ranks). */
  private long pass(Opener opener, int[] rank, int lo, int hi, Sink sink) throws Exception {
    passes++;
    LogEntry[] held = rank == null ? null : new LogEntry[hi - lo];
    int pos = 0;
    long rows;
    try (Source s = opener.open()) {
      for (List<LogEntry> read = s.next(BackfillRun.READ_ROWS);
          !read.isEmpty();
          read = s.next(BackfillRun.READ_ROWS)) {
        for (LogEntry e : read) {
          if (held == null) {
            sink.accept(e);
          } else if (pos < rank.length && rank[pos] >= lo && rank[pos] < hi) {
            held[rank[pos] - lo] = e;
          }
          pos++;
        }
      }
      rows = s.rowsRead();
    }
    if (held != null) {
      for (LogEntry e : held) {
        if (e != null) {
          sink.accept(e);
        }
      }
    }
    return rows;
  }

  /**
   * rank[position] = place of the entry in the stable (timestamp, position) order: timestamps are
   * compressed to their distinct-value index and packed with the position into one {@code long}.
   */
  static int[] ranks(long[] stamps, int n) {
    long[] distinct = Arrays.copyOf(stamps, n);
    Arrays.sort(distinct);
    int d = 0;
    for (int i = 0; i < n; i++) {
      if (i == 0 || distinct[i] != distinct[d - 1]) {
        distinct[d++] = distinct[i];
      }
    }
    long[] packed = new long[n];
    for (int i = 0; i < n; i++) {
      long value = Arrays.binarySearch(distinct, 0, d, stamps[i]);
      packed[i] = (value << 32) | i;
    }
    Arrays.sort(packed);
    int[] rank = new int[n];
    for (int r = 0; r < n; r++) {
      rank[(int) packed[r]] = r;
    }
    return rank;
  }

  /** Epoch nanoseconds, saturated outside years 1677…2262. */
  private static long nanos(Instant t) {
    try {
      return Math.addExact(Math.multiplyExact(t.getEpochSecond(), 1_000_000_000L), t.getNano());
    } catch (ArithmeticException e) {
      return t.getEpochSecond() < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }
}
