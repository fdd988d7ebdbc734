package io.sf2loki.salesforce.pubsub;

import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.spi.EntryEmitter;
import io.sf2loki.core.time.Sleeper;
import io.sf2loki.core.time.StopSignal;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * Fakes shared by the bridge and source tests: entries, a bounded lane, runners, a gated sleeper.
 */
final class BridgeTestSupport {
  private BridgeTestSupport() {}

  /** A real entry whose line is {@code lineBytes} ASCII bytes (cost = lineBytes + 64). */
  static LogEntry entry(String topic, int lineBytes, long n) {
    return LogEntry.of(
        Instant.EPOCH,
        Map.of("source", "pubsub"),
        "x".repeat(lineBytes),
        Map.of(),
        new CheckpointToken(PubSubTopics.checkpointKey(topic), Long.toString(n)));
  }

  static LogEntry keepalive(String topic) {
    return LogEntry.checkpointOnly(
        new CheckpointToken(PubSubTopics.checkpointKey(topic), "keepalive"));
  }

  /** Spins (no sleep) until {@code condition} holds; fails after 2 s of real time. */
  static void eventually(BooleanSupplier condition, String what) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("timed out waiting for: " + what);
      }
      Thread.onSpinWait();
      Thread.yield();
    }
  }

  /**
   * A lane of fixed capacity: {@link #emit} blocks while full and returns false once {@code stop}
   * fired (the pipeline's behaviour, PIPE-3).
   */
  static final class FakeLane implements EntryEmitter {
    final BlockingQueue<LogEntry> queue;
    final StopSignal stop;
    final AtomicInteger blockedEmits = new AtomicInteger();

    FakeLane(int capacity, StopSignal stop) {
      this.queue = new ArrayBlockingQueue<>(capacity);
      this.stop = stop;
    }

    @Override
    public boolean emit(LogEntry entry) throws InterruptedException {
      if (queue.offer(entry)) {
        return true;
      }
      blockedEmits.incrementAndGet();
      try {
        while (!stop.isStopped()) {
          if (queue.offer(entry, 5, TimeUnit.MILLISECONDS)) {
            return true;
          }
        }
        return false;
      } finally {
        blockedEmits.decrementAndGet();
      }
    }

    LogEntry take() throws InterruptedException {
      LogEntry e = queue.poll(2, TimeUnit.SECONDS);
      if (e == null) {
        throw new AssertionError("no entry reached the lane within 2 s");
      }
      return e;
    }
  }

  /**
   * A topic reader that writes entries of {@code lineBytes} until stop (or {@code limit} entries,
   * then waits for stop). Counts put attempts per topic.
   */
  static final class ProducingRunner implements TopicRunner {
    final int lineBytes;
    final long limit;
    final Map<String, AtomicLong> attempts = new ConcurrentHashMap<>();
    final Map<String, AtomicInteger> starts = new ConcurrentHashMap<>();
    final AtomicInteger running = new AtomicInteger();

    ProducingRunner(int lineBytes, long limit) {
      this.lineBytes = lineBytes;
      this.limit = limit;
    }

    @Override
    public void run(String topic, BridgeWriter bridge, StopSignal stop)
        throws InterruptedException {
      starts.computeIfAbsent(topic, t -> new AtomicInteger()).incrementAndGet();
      running.incrementAndGet();
      try {
        AtomicLong n = attempts.computeIfAbsent(topic, t -> new AtomicLong());
        while (!stop.isStopped() && n.get() < limit) {
          long i = n.incrementAndGet();
          if (!bridge.put(entry(topic, lineBytes, i), stop)) {
            return;
          }
        }
        stop.await();
      } finally {
        running.decrementAndGet();
      }
    }

    long attempts(String topic) {
      AtomicLong n = attempts.get(topic);
      return n == null ? 0 : n.get();
    }
  }

  /** A reader that records its start, waits for stop, and records its end. */
  static final class IdleRunner implements TopicRunner {
    final Map<String, AtomicInteger> starts = new ConcurrentHashMap<>();
    final Map<String, AtomicInteger> ends = new ConcurrentHashMap<>();
    final Map<String, Thread> threads = new ConcurrentHashMap<>();

    @Override
    public void run(String topic, BridgeWriter bridge, StopSignal stop)
        throws InterruptedException {
      threads.put(topic, Thread.currentThread());
      starts.computeIfAbsent(topic, t -> new AtomicInteger()).incrementAndGet();
      try {
        stop.await();
      } finally {
        ends.computeIfAbsent(topic, t -> new AtomicInteger()).incrementAndGet();
      }
    }

    int starts(String topic) {
      AtomicInteger n = starts.get(topic);
      return n == null ? 0 : n.get();
    }

    int ends(String topic) {
      AtomicInteger n = ends.get(topic);
      return n == null ? 0 : n.get();
    }
  }

  /**
   * A sleeper that returns at once for waits shorter than {@code gate} (recording them) and blocks
   * waits of at least {@code gate} until the test {@link #open opens} them (stop-aware).
   */
  static final class GatedSleeper implements Sleeper {
    final Duration gate;
    final List<Duration> shortSleeps = new ArrayList<>();
    final BlockingQueue<Duration> gated = new LinkedBlockingQueue<>();
    private final Semaphore permits = new Semaphore(0);

    GatedSleeper(Duration gate) {
      this.gate = gate;
    }

    @Override
    public boolean sleep(Duration duration, StopSignal stop) throws InterruptedException {
      if (stop.isStopped()) {
        return false;
      }
      if (duration.compareTo(gate) < 0) {
        synchronized (shortSleeps) {
          shortSleeps.add(duration);
        }
        return !stop.isStopped();
      }
      gated.add(duration);
      while (!stop.isStopped()) {
        if (permits.tryAcquire(2, TimeUnit.MILLISECONDS)) {
          return !stop.isStopped();
        }
      }
      return false;
    }

    /** Waits until a gated sleep starts and returns its duration. */
    Duration awaitGate() throws InterruptedException {
      Duration d = gated.poll(2, TimeUnit.SECONDS);
      if (d == null) {
        throw new AssertionError("no gated sleep within 2 s");
      }
      return d;
    }

    void open() {
      permits.release();
    }

    List<Duration> shortSleeps() {
      synchronized (shortSleeps) {
        return List.copyOf(shortSleeps);
      }
    }
  }
}
