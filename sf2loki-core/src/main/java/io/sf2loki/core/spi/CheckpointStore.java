package io.sf2loki.core.spi;

import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Persists {@code key → value} checkpoints in one flat JSON document (SPEC STATE-1, STATE-2). All
 * operations on one store are serialised. The reserved key {@code __fence_epoch__} is never
 * returned by {@link #load} or {@link #snapshot} (STATE-12).
 */
public interface CheckpointStore extends AutoCloseable {
  /**
   * Reads one key (from the cache after the first load).
   *
   * @return the stored value, or empty when absent
   * @throws StateCorruptException when the document cannot be read
   * @throws StateException on I/O failure
   */
  Optional<String> load(String key);

  /**
   * One durable write setting {@code values} and removing {@code keysToRemove}.
   *
   * @throws StateException on I/O failure (ends the term, PIPE-12)
   */
  void commitMany(Map<String, String> values, Set<String> keysToRemove);

  /** Removes one key; a missing key causes no write. */
  void delete(String key);

  /** All keys except reserved ones, sorted by key. */
  Map<String, String> snapshot();

  /** Drops the cache so the next term reads fresh (STATE-2). */
  void reset();

  @Override
  void close();
}
