package io.sf2loki.core.pipeline;

import io.sf2loki.core.liveness.ProgressWatch;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.Ticker;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * One lane's bounded queue (SPEC PIPE-3): at most {@code maxEntries} entries and, when {@code
 * maxBytes > 0}, a byte budget. Producers block while full (structural backpressure; nothing is
 * ever dropped) and give up only when the term's stop signal fires. A checkpoint value is charged
 * once per distinct token instance while any queued entry holds it. One oversized entry is admitted
 * once the lane's charged bytes are below the budget.
 *
 * <p>Thread-safety: all state is guarded by {@link #lock}. Charging and enqueuing happen in one
 * critical section, so an interrupted producer never leaves a charge behind (PIPE-21).
 *
 * <p>Time: the busy-lane window is measured on the injected {@link Ticker} (SRC-26), the one the
 * rest of the term uses; the queue never reads {@link System#nanoTime()} itself. The waits are
 * condition waits woken by puts, {@link #producerFinished()} and the stop signal; their timeout is
 * the caller's (the consumer computes it from the same ticker).
 *
 * <p>Status view (FEAT-3): {@link #publishedSize()} and {@link #publishedBytes()} read two atomics
 * that every locked operation updates with a release store before it unlocks, so {@code /statusz}
 * never takes the queue's lock.
 */
public final class LaneQueue {
  private final int maxEntries;
  private final long maxBytes;
  private final StopSignal stop;
  private final Ticker ticker;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition notFull = lock.newCondition();
  private final Condition notEmpty = lock.newCondition();

  // each entry with its PIPE-3 cost (without token), computed once by the producer: the consumer
  // releases exactly what was charged without reading the entry's maps again
  private record Queued(LogEntry entry, long cost) {}

  private final ArrayDeque<Queued> items = new ArrayDeque<>();
  private final Map<CheckpointToken, int[]> tokenRefs = new IdentityHashMap<>();

  /** A busy lane's consumer is woken early once this many entries wait. */
  static final int WAKE_BATCH = 64;

  /** Longest wait of a busy lane's consumer before it looks at the queue again (1 ms). */
  static final long SLICE_NANOS = 1_000_000L;

  /** A lane counts as busy this long after its last put (10 ms). */
  static final long BUSY_NANOS = 10_000_000L;

  private long chargedBytes;
  private final AtomicLong publishedSize = new AtomicLong();
  private final AtomicLong publishedBytes = new AtomicLong();
  private long lastPutNanos;
  private boolean consumerWaiting;
  private boolean consumerSlicing;
  private int activeProducers;

  /**
   * @param maxEntries entry bound, ≥ 1
   * @param maxBytes byte budget; 0 disables the byte bound
   * @param producers number of producers that will call {@link #producerFinished()}
   * @param stop the term's stop signal; waiting producers return when it fires
   */
  public LaneQueue(int maxEntries, long maxBytes, int producers, StopSignal stop) {
    this(maxEntries, maxBytes, producers, stop, Ticker.system());
  }

  /**
   * @param maxEntries entry bound, ≥ 1
   * @param maxBytes byte budget; 0 disables the byte bound
   * @param producers number of producers that will call {@link #producerFinished()}
   * @param stop the term's stop signal; waiting producers return when it fires
   * @param ticker the term's monotonic clock (SRC-26): the busy-lane window is measured on it
   */
  public LaneQueue(int maxEntries, long maxBytes, int producers, StopSignal stop, Ticker ticker) {
    this.maxEntries = maxEntries;
    this.maxBytes = maxBytes;
    this.activeProducers = producers;
    this.stop = stop;
    this.ticker = ticker;
    this.lastPutNanos = ticker.nanoTime() - BUSY_NANOS;
    stop.onStop(this::wakeAll);
  }

  /** The entry bound (PIPE-3, PIPE-28). */
  int maxEntries() {
    return maxEntries;
  }

  /** The byte budget; 0 when unbounded (PIPE-3, PIPE-28). */
  long maxBytes() {
    return maxBytes;
  }

  private void wakeAll() {
    lock.lock();
    try {
      notFull.signalAll();
      notEmpty.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Enqueues one entry, waiting while the lane is full.
   *
   * @return true when enqueued; false when the stop signal fired first (nothing charged)
   * @throws InterruptedException if interrupted while waiting (nothing charged)
   */
  public boolean put(LogEntry entry) throws InterruptedException {
    long cost = cost(entry);
    lock.lockInterruptibly();
    try {
      while (!stop.isStopped() && isFull(entry)) {
        try (ProgressWatch.Waiting w = ProgressWatch.waiting()) { // FEAT-21
          notFull.await();
        }
      }
      if (stop.isStopped()) {
        return false;
      }
      enqueue(entry, cost);
      publish();
      lastPutNanos = ticker.nanoTime();
      signalConsumer();
      return true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Enqueues {@code entries} in order under one lock acquisition per run of entries that fit: each
   * entry waits while the lane is full exactly as {@link #put} does (entry bound, byte budget,
   * token charged once per distinct instance), so bounds and charges are those of calling {@link
   * #put} for each entry. While it waits, the consumer is woken so it can drain the full lane.
   *
   * @param entries entries in order (not modified)
   * @return how many leading entries were enqueued; fewer than {@code entries.size()} only when the
   *     stop signal fired first (the rest were not enqueued and hold no charge)
   * @throws InterruptedException if interrupted while waiting: the entries enqueued before stay
   *     queued (charged, and released when dequeued or drained), the rest hold no charge
   */
  public int putAll(List<LogEntry> entries) throws InterruptedException {
    int n = entries.size();
    if (n == 0) {
      return 0;
    }
    long[] costs = new long[n];
    for (int i = 0; i < n; i++) {
      costs[i] = cost(entries.get(i));
    }
    lock.lockInterruptibly();
    try {
      for (int i = 0; i < n; i++) {
        LogEntry entry = entries.get(i);
        if (!stop.isStopped() && isFull(entry)) {
          publish();
          lastPutNanos = ticker.nanoTime();
          if (consumerWaiting) {
            notEmpty.signal(); // the lane is full: no reason to let the consumer slice on
          }
          do {
            try (ProgressWatch.Waiting w = ProgressWatch.waiting()) { // FEAT-21
              notFull.await();
            }
          } while (!stop.isStopped() && isFull(entry));
        }
        if (stop.isStopped()) {
          publish();
          signalConsumer();
          return i;
        }
        enqueue(entry, costs[i]);
      }
      publish();
      lastPutNanos = ticker.nanoTime();
      signalConsumer();
      return n;
    } finally {
      lock.unlock();
    }
  }

  /** Appends and charges one entry (PIPE-3); caller holds the lock and checked the bounds. */
  private void enqueue(LogEntry entry, long entryCost) {
    long cost = entryCost;
    items.addLast(new Queued(entry, cost));
    if (!entry.checkpointOnly()) {
      int[] refs = tokenRefs.get(entry.checkpoint());
      if (refs == null) {
        cost += EntryCost.tokenBytes(entry);
        tokenRefs.put(entry.checkpoint(), new int[] {1});
      } else {
        refs[0]++;
      }
    }
    chargedBytes += cost;
  }

  /** Wakes a waiting consumer now unless it is slicing and fewer than WAKE_BATCH entries wait. */
  private void signalConsumer() {
    if (consumerWaiting && !items.isEmpty() && (!consumerSlicing || items.size() >= WAKE_BATCH)) {
      notEmpty.signal();
    }
  }

  private boolean isFull(LogEntry entry) {
    if (items.size() >= maxEntries) {
      return true;
    }
    return maxBytes > 0 && !entry.checkpointOnly() && chargedBytes >= maxBytes;
  }

  /**
   * Takes the oldest entry, waiting up to {@code timeoutNanos}.
   *
   * @return the entry, or null on timeout or when the queue is empty and every producer finished
   * @throws InterruptedException if interrupted while waiting
   */
  public LogEntry poll(long timeoutNanos) throws InterruptedException {
    lock.lockInterruptibly();
    try {
      if (!awaitNotEmpty(timeoutNanos)) {
        return null;
      }
      Queued q = items.pollFirst();
      LogEntry e = q.entry();
      release(e, q.cost());
      publish();
      notFull.signalAll();
      return e;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Takes the oldest entries under one lock acquisition, waiting up to {@code timeoutNanos} for the
   * first: at most {@code maxCount} entries, and it stops after the entry with which Σ({@link
   * LogEntry#lineBytes()} + 64) over the taken real entries reaches {@code maxBytes} (the PIPE-5
   * batch byte measure), so a consumer passing its batch's remaining room never takes an entry its
   * batch could not hold. Each taken entry's charge is released as by {@link #poll}.
   *
   * @param out where the entries are appended, oldest first
   * @param maxCount most entries to take, ≥ 1
   * @param maxBytes byte room (PIPE-5 measure); at least one entry is taken whatever its size
   * @param timeoutNanos longest wait for the first entry, nanoseconds
   * @return how many entries were appended; 0 on timeout or when the queue is empty and every
   *     producer finished
   * @throws InterruptedException if interrupted while waiting (nothing taken)
   */
  public int pollBatch(List<LogEntry> out, int maxCount, long maxBytes, long timeoutNanos)
      throws InterruptedException {
    lock.lockInterruptibly();
    try {
      if (!awaitNotEmpty(timeoutNanos)) {
        return 0;
      }
      int taken = 0;
      long bytes = 0;
      while (taken < Math.max(1, maxCount) && !items.isEmpty()) {
        Queued q = items.pollFirst();
        LogEntry e = q.entry();
        release(e, q.cost());
        out.add(e);
        taken++;
        if (!e.checkpointOnly()) {
          bytes += e.lineBytes() + EntryCost.OVERHEAD_BYTES;
          if (bytes >= maxBytes) {
            break;
          }
        }
      }
      publish();
      notFull.signalAll();
      return taken;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits (lock held) until an entry is queued: returns false on timeout or when the queue is empty
   * and every producer finished.
   */
  private boolean awaitNotEmpty(long timeoutNanos) throws InterruptedException {
    long nanos = timeoutNanos;
    while (items.isEmpty()) {
      if (activeProducers <= 0 || nanos <= 0) {
        return false;
      }
      // a busy lane (a put within BUSY_NANOS) is polled in slices of at most SLICE_NANOS and
      // woken early only once WAKE_BATCH entries wait: one wake-up per batch of entries instead
      // of one per entry, at most SLICE_NANOS later than an immediate wake-up
      boolean busy = busy();
      long slice = busy ? Math.min(nanos, SLICE_NANOS) : nanos;
      consumerWaiting = true;
      consumerSlicing = busy;
      long left;
      try (ProgressWatch.Waiting w = ProgressWatch.waiting()) { // FEAT-21
        left = notEmpty.awaitNanos(slice);
      } finally {
        consumerWaiting = false;
      }
      nanos -= slice - Math.max(0, left);
    }
    return true;
  }

  /**
   * Whether a put happened within {@link #BUSY_NANOS} on the ticker (lock held): a busy lane's
   * consumer waits in slices and is woken early only once {@link #WAKE_BATCH} entries wait.
   */
  private boolean busy() {
    return ticker.nanoTime() - lastPutNanos < BUSY_NANOS;
  }

  /** {@link #busy()} under the lock (tests). */
  boolean isBusy() {
    lock.lock();
    try {
      return busy();
    } finally {
      lock.unlock();
    }
  }

  /** Label bytes of the last label map instance seen (label maps are immutable). */
  private record LabelCost(Map<String, String> labels, long bytes) {}

  private volatile LabelCost lastLabelCost;

  /**
   * {@link EntryCost#withoutToken} with the label part memoised per label map instance: entries of
   * one stream share their (immutable) merged label map, so its bytes are counted once.
   */
  private long cost(LogEntry e) {
    if (e.checkpointOnly()) {
      return 0;
    }
    LabelCost lc = lastLabelCost;
    if (lc == null || lc.labels() != e.labels()) {
      lc = new LabelCost(e.labels(), EntryCost.mapBytes(e.labels()));
      lastLabelCost = lc;
    }
    return EntryCost.OVERHEAD_BYTES
        + e.lineBytes()
        + lc.bytes()
        + EntryCost.mapBytes(e.structuredMetadata());
  }

  private void release(LogEntry e, long charged) {
    long cost = charged;
    if (!e.checkpointOnly()) {
      int[] refs = tokenRefs.get(e.checkpoint());
      if (refs != null && refs[0] <= 1) {
        tokenRefs.remove(e.checkpoint());
        cost += EntryCost.tokenBytes(e);
      } else if (refs != null) {
        refs[0]--;
      }
    }
    chargedBytes -= cost;
  }

  /** Called once by each producer when it returns; wakes the consumer. */
  public void producerFinished() {
    lock.lock();
    try {
      activeProducers--;
      notEmpty.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /** Whether every producer finished and nothing is queued. */
  public boolean isClosedAndEmpty() {
    lock.lock();
    try {
      return activeProducers <= 0 && items.isEmpty();
    } finally {
      lock.unlock();
    }
  }

  /** Entries queued now. */
  public int size() {
    lock.lock();
    try {
      return items.size();
    } finally {
      lock.unlock();
    }
  }

  /** Bytes charged now (PIPE-3 cost); 0 after a full drain. */
  public long chargedBytes() {
    lock.lock();
    try {
      return chargedBytes;
    } finally {
      lock.unlock();
    }
  }

  /** Copies size and charged bytes to the status atomics (lock held; release stores, no fence). */
  private void publish() {
    publishedSize.setRelease(items.size());
    publishedBytes.setRelease(chargedBytes);
  }

  /** Entries queued as of the last completed put or take, read without the lock (FEAT-3 status). */
  public long publishedSize() {
    return publishedSize.getAcquire();
  }

  /**
   * Bytes charged (PIPE-3 cost) as of the last completed put or take, read without the lock (FEAT-3
   * status).
   */
  public long publishedBytes() {
    return publishedBytes.getAcquire();
  }

  /** Removes and returns everything still queued, releasing its charges (teardown, PIPE-21). */
  public List<LogEntry> drainAll() {
    lock.lock();
    try {
      List<LogEntry> out = new ArrayList<>(items.size());
      for (Queued q : items) {
        out.add(q.entry());
      }
      items.clear();
      tokenRefs.clear();
      chargedBytes = 0;
      publish();
      notFull.signalAll();
      return out;
    } finally {
      lock.unlock();
    }
  }

  /** Convenience for tests: waits up to {@code timeout} for an entry. */
  LogEntry poll(long timeout, TimeUnit unit) throws InterruptedException {
    return poll(unit.toNanos(timeout));
  }
}
