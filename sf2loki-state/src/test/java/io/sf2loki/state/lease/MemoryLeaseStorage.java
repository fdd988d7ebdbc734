package io.sf2loki.state.lease;

import io.sf2loki.core.spi.StateException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * An in-memory {@link LeaseStorage} with versioned compare-and-swap (like the object back ends) and
 * scripted faults. Thread-safe.
 */
final class MemoryLeaseStorage implements LeaseStorage {
  private byte[] body;
  private long version;
  private int failReads;
  private int failWrites;
  private boolean conflictNextWrite;
  private Consumer<MemoryLeaseStorage> afterWrite = s -> {};
  private final List<LeaseDocument> written = new ArrayList<>();
  private int reads;

  @Override
  public synchronized LeaseRead read() {
    reads++;
    if (failReads > 0) {
      failReads--;
      return LeaseRead.unreadable(new java.io.IOException("injected read failure"));
    }
    if (body == null) {
      return LeaseRead.absent(null);
    }
    String v = Long.toString(version);
    return LeaseDocument.parse(body)
        .map(d -> LeaseRead.present(d, v))
        .orElseGet(() -> LeaseRead.absent(v));
  }

  @Override
  public String write(byte[] b, String expectedVersion) {
    Consumer<MemoryLeaseStorage> hook;
    synchronized (this) {
      if (failWrites > 0) {
        failWrites--;
        throw new LeaseWriteException("injected write failure", new java.io.IOException("EIO"));
      }
      String current = body == null ? null : Long.toString(version);
      if (conflictNextWrite || !java.util.Objects.equals(current, expectedVersion)) {
        conflictNextWrite = false;
        throw new LeaseConflictException("precondition failed", null);
      }
      body = b.clone();
      version++;
      written.add(LeaseDocument.parse(b).orElseThrow());
      hook = afterWrite;
    }
    hook.accept(this);
    return Long.toString(version);
  }

  /** Stores {@code text} as another replica would (no precondition). */
  synchronized void putRaw(String text) {
    body = text.getBytes(StandardCharsets.UTF_8);
    version++;
  }

  synchronized void delete() {
    body = null;
    version++;
  }

  synchronized void failReads(int n) {
    failReads = n;
  }

  synchronized void failWrites(int n) {
    failWrites = n;
  }

  synchronized void conflictNextWrite() {
    conflictNextWrite = true;
  }

  synchronized void afterWrite(Consumer<MemoryLeaseStorage> hook) {
    afterWrite = hook;
  }

  synchronized List<LeaseDocument> written() {
    return List.copyOf(written);
  }

  synchronized int reads() {
    return reads;
  }

  synchronized LeaseDocument current() {
    return body == null ? null : LeaseDocument.parse(body).orElse(null);
  }

  @Override
  public String describe() {
    return "memory";
  }

  @Override
  public void close() {}

  /** A store binding with a settable fence epoch; {@code failStoreReads} throws. */
  static class Binding implements LeaseStoreBinding {
    volatile long fenceEpoch;
    volatile boolean failStoreReads;
    volatile io.sf2loki.state.Fencing fencing;
    volatile int termsBegun;
    volatile int termsEnded;

    @Override
    public long freshFenceEpoch() {
      if (failStoreReads) {
        throw new StateException("store down");
      }
      return fenceEpoch;
    }

    @Override
    public void install(io.sf2loki.state.Fencing f) {
      fencing = f;
    }

    @Override
    public boolean beginTerm(java.time.Duration maxWait, io.sf2loki.core.time.StopSignal stop) {
      termsBegun++;
      if (beginFailure != null) {
        throw beginFailure;
      }
      return !stop.isStopped();
    }

    @Override
    public void endTerm() {
      termsEnded++;
    }

    /** What {@link #beginTerm} throws, or null to take the term lock. */
    volatile RuntimeException beginFailure;

    /** What {@link #claimEpoch} throws next, or null to stamp the epoch. */
    volatile RuntimeException claimFailure;

    @Override
    public void claimEpoch() {
      if (claimFailure != null) {
        throw claimFailure;
      }
      java.util.Map<String, String> current = new java.util.HashMap<>();
      if (fenceEpoch > 0) {
        current.put("__fence_epoch__", Long.toString(fenceEpoch));
      }
      fencing.requireUnclaimed(fenceEpoch, "memory");
      java.util.Map<String, String> next = new java.util.HashMap<>(current);
      fencing.stamp(current, next, "memory");
      fenceEpoch = Long.parseLong(next.get("__fence_epoch__"));
    }
  }
}
