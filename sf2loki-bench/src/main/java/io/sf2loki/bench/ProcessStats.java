package io.sf2loki.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;

/** Process figures the end-to-end harnesses report: CPU, heap peaks, RSS, load. Linux only. */
final class ProcessStats {
  private ProcessStats() {}

  /**
   * CPU time of live platform threads grouped by name, digits replaced by {@code #} ({@code
   * sf#loki-cpu-#} is the CPU pool, {@code ForkJoinPool-#-worker-#} the virtual-thread carriers);
   * JIT and GC are not Java threads and are not listed.
   *
   * @return group → nanoseconds
   */
  static Map<String, Long> threadCpuByGroup() {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    Map<String, Long> out = new TreeMap<>();
    for (long id : mx.getAllThreadIds()) {
      ThreadInfo info = mx.getThreadInfo(id);
      long ns = mx.getThreadCpuTime(id);
      if (info == null || ns < 0) {
        continue;
      }
      out.merge(info.getThreadName().replaceAll("[0-9]+", "#"), ns, Long::sum);
    }
    return out;
  }

  /** CPU time of this process (all threads, user + system), in nanoseconds. */
  static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /** Resets the peak usage of every heap pool. */
  static void resetPeaks() {
    for (MemoryPoolMXBean b : ManagementFactory.getMemoryPoolMXBeans()) {
      if (b.getType() == MemoryType.HEAP) {
        b.resetPeakUsage();
      }
    }
  }

  /** Sum of the heap pools' peaks since the last reset, in bytes (an upper bound of the peak). */
  static long peakHeap() {
    long sum = 0;
    for (MemoryPoolMXBean b : ManagementFactory.getMemoryPoolMXBeans()) {
      if (b.getType() == MemoryType.HEAP && b.getPeakUsage() != null) {
        sum += b.getPeakUsage().getUsed();
      }
    }
    return sum;
  }

  /** {@code VmHWM} (peak RSS) of this process as {@code /proc/self/status} says, or "unknown". */
  static String vmHwm() {
    try {
      return Files.readAllLines(Path.of("/proc/self/status")).stream()
          .filter(l -> l.startsWith("VmHWM:"))
          .map(l -> l.substring(6).trim())
          .findFirst()
          .orElse("unknown");
    } catch (IOException e) {
      return "unknown";
    }
  }

  /** {@code /proc/loadavg}, or "unknown". */
  static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim();
    } catch (IOException e) {
      return "unknown";
    }
  }
}
