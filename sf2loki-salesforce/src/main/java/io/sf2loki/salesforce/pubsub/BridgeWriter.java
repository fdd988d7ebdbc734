package io.sf2loki.salesforce.pubsub;

import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.time.StopSignal;

/**
 * The topic reader's side of the Pub/Sub bridge (SPEC PS-17, PS-18): a bounded hand-off of at most
 * 1000 entries and, when {@code bridge_max_bytes > 0}, a byte budget. One bridge belongs to one
 * leadership term (PIPE-20…24). Implementations are thread-safe: every topic reader of the term
 * writes to the same bridge.
 */
public interface BridgeWriter {
  /**
   * Hands one entry to the bridge, waiting while it is full: 1000 entries queued, or charged bytes
   * ≥ the budget (one entry larger than the budget is admitted once the bridge is empty). Cost =
   * UTF-8 line bytes + 64 for a real entry, 0 for a checkpoint-only entry (PS-17).
   *
   * @param entry a real or checkpoint-only entry, in commit order for its key
   * @param stop the term's stop signal; every wait observes it
   * @return true when the entry was accepted (and charged), false when {@code stop} fired first
   * @throws InterruptedException if the calling thread is interrupted
   */
  boolean put(LogEntry entry, StopSignal stop) throws InterruptedException;

  /**
   * Whether a credit top-up may be written now (PS-3): the charged bytes are below {@code
   * bridge_max_bytes}, or the byte bound is off.
   *
   * @return true while the bridge has byte room
   */
  boolean hasByteRoom();

  /**
   * Registers a callback run each time the bridge regains byte room after having none (PS-3: a
   * deferred top-up is written as soon as the bridge regains room). The callback runs on the thread
   * that released the bytes and must not block.
   *
   * @param listener called on every transition from "no room" to "room"
   * @return a handle whose {@code run()} unregisters the listener (call it when the reader ends)
   */
  Runnable onByteRoom(Runnable listener);
}
