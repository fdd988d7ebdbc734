package io.sf2loki.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Samples the resident set of another process from {@code /proc/<pid>/status} (Linux): {@code
 * VmRSS} (now) and {@code VmHWM} (the kernel's own peak, which catches spikes between samples).
 * {@link #start()} runs one platform thread that {@link #close()} stops and joins.
 */
final class RssSampler implements AutoCloseable {
  private static final Pattern KIB = Pattern.compile("^(\\w+):\\s+(\\d+) kB");

  private final long pid;
  private final Duration period;
  private final Thread thread;
  private long maxRssKib; // guarded by this
  private long hwmKib; // guarded by this
  private long lastRssKib; // guarded by this
  private long anonAtMaxKib; // guarded by this
  private long fileAtMaxKib; // guarded by this
  private volatile boolean stop;

  /**
   * @param pid the process to sample
   * @param period time between samples
   */
  RssSampler(long pid, Duration period) {
    this.pid = pid;
    this.period = period;
    this.thread = Thread.ofPlatform().daemon().name("footprint-rss-" + pid).unstarted(this::loop);
  }

  /** Starts sampling. */
  RssSampler start() {
    thread.start();
    return this;
  }

  private void loop() {
    while (!stop) {
      sampleOnce();
      try {
        Thread.sleep(period); // the sampling period itself, not a synchronisation
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  /** Reads the status file once; a vanished process leaves the figures as they were. */
  void sampleOnce() {
    List<String> lines;
    try {
      lines = Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"));
    } catch (IOException e) {
      return;
    }
    long rss = field(lines, "VmRSS");
    long hwm = field(lines, "VmHWM");
    synchronized (this) {
      if (rss >= 0) {
        lastRssKib = rss;
        if (rss > maxRssKib) {
          maxRssKib = rss;
          anonAtMaxKib = field(lines, "RssAnon");
          fileAtMaxKib = field(lines, "RssFile") + Math.max(0, field(lines, "RssShmem"));
        }
      }
      if (hwm >= 0) {
        hwmKib = Math.max(hwmKib, hwm);
      }
    }
  }

  /**
   * One {@code kB} field of a {@code /proc/<pid>/status} text.
   *
   * @return the value in KiB, or -1 when absent
   */
  static long field(List<String> statusLines, String name) {
    for (String l : statusLines) {
      Matcher m = KIB.matcher(l);
      if (m.find() && m.group(1).equals(name)) {
        return Long.parseLong(m.group(2));
      }
    }
    return -1;
  }

  /** Largest sampled {@code VmRSS}, KiB. */
  synchronized long maxRssKib() {
    return maxRssKib;
  }

  /** Latest {@code VmHWM} (peak RSS as the kernel counts it), KiB. */
  synchronized long hwmKib() {
    return hwmKib;
  }

  /** {@code RssAnon} (heap, stacks, malloc) at the largest {@code VmRSS} sample, KiB. */
  synchronized long anonAtMaxKib() {
    return anonAtMaxKib;
  }

  /** {@code RssFile + RssShmem} (mapped libraries, CDS archive) at that sample, KiB. */
  synchronized long fileAtMaxKib() {
    return fileAtMaxKib;
  }

  /** Latest sampled {@code VmRSS}, KiB. */
  synchronized long lastRssKib() {
    return lastRssKib;
  }

  @Override
  public void close() throws InterruptedException {
    stop = true;
    thread.interrupt();
    thread.join();
  }
}
