package io.sf2loki.core.pipeline;

import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.shape.Utf8SizedMap;
import java.util.Map;

/** Queue byte cost of an entry (SPEC PIPE-3). */
final class EntryCost {
  /** Fixed per-entry overhead in bytes. */
  static final int OVERHEAD_BYTES = 64;

  private EntryCost() {}

  /**
   * 64 + UTF-8 bytes of the line, every label key and value and every metadata key and value; the
   * checkpoint value is charged separately, once per distinct token. Checkpoint-only entries cost
   * 0.
   */
  static long withoutToken(LogEntry e) {
    if (e.checkpointOnly()) {
      return 0;
    }
    long cost = OVERHEAD_BYTES + e.lineBytes();
    cost += mapBytes(e.labels());
    cost += mapBytes(e.structuredMetadata());
    return cost;
  }

  /** UTF-8 bytes of a token's value. */
  static long tokenBytes(LogEntry e) {
    return LogEntry.utf8Length(e.checkpoint().value());
  }

  /** UTF-8 bytes of every key and value of {@code m}. */
  static long mapBytes(Map<String, String> m) {
    if (m instanceof Utf8SizedMap sized) {
      return sized.utf8Bytes(); // computed once by the source, where the strings were built
    }
    long n = 0;
    for (Map.Entry<String, String> kv : m.entrySet()) {
      n += Utf8SizedMap.utf8Length(kv.getKey()) + Utf8SizedMap.utf8Length(kv.getValue());
    }
    return n;
  }
}
