package io.sf2loki.salesforce.pubsub;

import io.sf2loki.core.liveness.ProgressWatch;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.spi.EntryEmitter;
import io.sf2loki.core.time.StopSignal;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The Pub/Sub bridge of one leadership term (SPEC PS-17, PS-18, PIPE-20…24): a bounded hand-off
 * between the topic readers (many writers, {@link #put}) and the source's drain loop (one reader,
 * {@link #transferTo}).
 *
 * <p>Bounds: at most {@value #MAX_ENTRIES} entries and, when {@code maxBytes > 0}, a byte budget.
 * Cost = UTF-8 line bytes ({@link LogEntry#lineBytes()}) + {@value #ENTRY_OVERHEAD_BYTES} for a
 * real entry, 0 for a checkpoint-only entry. A writer of a real entry waits while the charged bytes
 * are ≥ the budget, then charges its entry; so one entry larger than the budget is admitted once
 * the bridge is (nearly) empty and never deadlocks. A checkpoint-only entry costs nothing and waits
 * only for an entry slot. An entry keeps its slot and its charge until the drain loop has handed it
 * to the lane ({@link EntryEmitter#emit} returned, either way).
 *
 * <p>Every wait observes the caller's {@link StopSignal}. Charging and enqueuing happen in one
 * critical section, so an interrupted or stopped writer never leaves a charge behind (PIPE-21);
 * {@link #close()} releases everything still held and makes every later call return at once, so a
 * term's end leaves nothing that could block a later term (whose source builds a fresh bridge).
 *
 * <p>Byte-room listeners ({@link #onByteRoom}) run on the thread that released the bytes, outside
 * the bridge's lock, on each transition from "no byte room" to "byte room" (PS-3 deferred top-ups).
 * Thread-safe.
 */
public final class PubSubBridge implements BridgeWriter {
  /** PS-17: the entry bound of the bridge. */
  public static final int MAX_ENTRIES = 1000;

  /** PS-17: bytes charged per real entry on top of its UTF-8 line bytes. */
  public static final int ENTRY_OVERHEAD_BYTES = 64;

  private final int maxEntries;
  private final long maxBytes;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition notFull = lock.newCondition();
  private final Condition notEmpty = lock.newCondition();
  private final ArrayDeque<LogEntry> queue = new ArrayDeque<>();
  private final List<Runnable> roomListeners = new CopyOnWriteArrayList<>();

  /** Stop signals already wired to {@link #wakeAll()} (one listener per signal, identity set). */
  private final Set<StopSignal> watched = ConcurrentHashMap.newKeySet();

  // guarded by lock
  private int entries; // queued + the one being handed to the lane
  private long chargedBytes;
  private int waitingWriters;
  private boolean closed;

  /**
   * A bridge with the SPEC entry bound ({@value #MAX_ENTRIES}).
   *
   * @param maxBytes {@code bridge_max_bytes}: the byte budget in bytes; 0 disables the byte bound
   * @throws IllegalArgumentException when {@code maxBytes < 0}
   */
  public PubSubBridge(long maxBytes) {
    this(MAX_ENTRIES, maxBytes);
  }

  /**
   * A bridge with an explicit entry bound (tests).
   *
   * @param maxEntries entry bound, ≥ 1
   * @param maxBytes byte budget in bytes; 0 disables the byte bound
   * @throws IllegalArgumentException when {@code maxEntries < 1} or {@code maxBytes < 0}
   */
  public PubSubBridge(int maxEntries, long maxBytes) {
    if (maxEntries < 1) {
      throw new IllegalArgumentException("maxEntries must be >= 1: " + maxEntries);
    }
    if (maxBytes < 0) {
      throw new IllegalArgumentException("bridge_max_bytes must be >= 0: " + maxBytes);
    }
    this.maxEntries = maxEntries;
    this.maxBytes = maxBytes;
  }

  /**
   * PS-17 cost of an entry in bytes.
   *
   * @return {@code lineBytes + 64} for a real entry, 0 for a checkpoint-only entry
   */
  public static long cost(LogEntry entry) {
    return entry.checkpointOnly() ? 0 : (long) entry.lineBytes() + ENTRY_OVERHEAD_BYTES;
  }

  @Override
  public boolean put(LogEntry entry, StopSignal stop) throws InterruptedException {
    Objects.requireNonNull(entry, "entry");
    watch(stop);
    long cost = cost(entry);
    lock.lockInterruptibly();
    try {
      if (mustWait(cost)) {
        waitingWriters++;
        try {
          while (!stop.isStopped() && !closed && mustWait(cost)) {
            try (ProgressWatch.Waiting w = ProgressWatch.waiting()) { // FEAT-21
              notFull.await();
            }
          }
        } finally {
          waitingWriters--;
        }
      }
      if (stop.isStopped() || closed) {
        return false;
      }
      queue.addLast(entry);
      entries++;
      chargedBytes += cost;
      notEmpty.signal();
      return true;
    } finally {
      lock.unlock();
    }
  }

  private boolean mustWait(long cost) {
    if (entries >= maxEntries) {
      return true;
    }
    return cost > 0 && maxBytes > 0 && chargedBytes >= maxBytes;
  }

  @Override
  public boolean hasByteRoom() {
    lock.lock();
    try {
      return hasRoomLocked();
    } finally {
      lock.unlock();
    }
  }

  private boolean hasRoomLocked() {
    return maxBytes <= 0 || chargedBytes < maxBytes;
  }

  @Override
  public Runnable onByteRoom(Runnable listener) {
    Objects.requireNonNull(listener, "listener");
    // a distinct wrapper per registration, so removing one leaves an equal listener registered
    // elsewhere untouched
    Runnable handle = listener::run;
    roomListeners.add(handle);
    return () -> roomListeners.remove(handle);
  }

  /**
   * The drain loop's side: waits for the oldest entry, hands it to {@code emitter} (which may block
   * while the lane is full, PS-18) and then releases the entry's slot and charge, whatever the
   * outcome of the hand-off (true, false or an exception).
   *
   * @param emitter the lane
   * @param stop the term's stop signal; observed while waiting for an entry
   * @return true when an entry was handed over and the lane accepted it; false when {@code stop}
   *     fired or the bridge was closed before an entry arrived, or the lane refused the entry (its
   *     stop fired)
   * @throws InterruptedException if the thread is interrupted (the entry's charge is released)
   */
  public boolean transferTo(EntryEmitter emitter, StopSignal stop) throws InterruptedException {
    watch(stop);
    LogEntry entry;
    lock.lockInterruptibly();
    try {
      while (queue.isEmpty() && !stop.isStopped() && !closed) {
        try (ProgressWatch.Waiting w = ProgressWatch.waiting()) { // FEAT-21
          notEmpty.await();
        }
      }
      if (queue.isEmpty() || stop.isStopped() || closed) {
        return false;
      }
      entry = queue.pollFirst();
    } finally {
      lock.unlock();
    }
    try {
      return emitter.emit(entry);
    } finally {
      release(cost(entry));
    }
  }

  private void release(long cost) {
    boolean regained;
    lock.lock();
    try {
      if (closed) {
        return; // close() already released everything
      }
      boolean hadRoom = hasRoomLocked();
      entries--;
      chargedBytes -= cost;
      regained = !hadRoom && hasRoomLocked();
      notFull.signalAll();
    } finally {
      lock.unlock();
    }
    if (regained) {
      fireRoom();
    }
  }

  /**
   * Ends the bridge (term teardown, PIPE-21): drops every queued entry, releases every charge and
   * slot, wakes every waiter; every later {@link #put} and {@link #transferTo} returns false at
   * once. Idempotent.
   *
   * @return the number of entries dropped (queued, not yet handed to the lane)
   */
  public int close() {
    boolean regained;
    int dropped;
    lock.lock();
    try {
      if (closed) {
        return 0;
      }
      boolean hadRoom = hasRoomLocked();
      dropped = queue.size();
      queue.clear();
      entries = 0;
      chargedBytes = 0;
      closed = true;
      regained = !hadRoom;
      notFull.signalAll();
      notEmpty.signalAll();
    } finally {
      lock.unlock();
    }
    if (regained) {
      fireRoom();
    }
    return dropped;
  }

  private void fireRoom() {
    for (Runnable r : roomListeners) {
      r.run();
    }
  }

  private void watch(StopSignal stop) {
    if (watched.add(stop)) {
      stop.onStop(this::wakeAll);
    }
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

  /** Entries held now (queued plus the one being handed to the lane); 0 after a full drain. */
  public int entries() {
    lock.lock();
    try {
      return entries;
    } finally {
      lock.unlock();
    }
  }

  /** Bytes charged now (PS-17 cost); 0 after a full drain or {@link #close()}. */
  public long chargedBytes() {
    lock.lock();
    try {
      return chargedBytes;
    } finally {
      lock.unlock();
    }
  }

  /** Writers currently waiting in {@link #put} for room. */
  public int waitingWriters() {
    lock.lock();
    try {
      return waitingWriters;
    } finally {
      lock.unlock();
    }
  }

  /** The byte budget in bytes; 0 = no byte bound. */
  public long maxBytes() {
    return maxBytes;
  }

  /** Whether {@link #close()} was called. */
  public boolean isClosed() {
    lock.lock();
    try {
      return closed;
    } finally {
      lock.unlock();
    }
  }
}
