package io.sf2loki.core.testing;

import io.sf2loki.core.spi.CheckpointStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/** A thread-safe in-memory {@link CheckpointStore} that records every write (test double). */
public final class InMemoryCheckpointStore implements CheckpointStore {
  private final TreeMap<String, String> doc = new TreeMap<>();
  private final List<Map<String, String>> writes = new ArrayList<>();
  private int resets;
  private RuntimeException writeFailure;

  public InMemoryCheckpointStore() {}

  public InMemoryCheckpointStore(Map<String, String> initial) {
    doc.putAll(initial);
  }

  @Override
  public synchronized Optional<String> load(String key) {
    return Optional.ofNullable(doc.get(key));
  }

  @Override
  public synchronized void commitMany(Map<String, String> values, Set<String> keysToRemove) {
    if (writeFailure != null) {
      throw writeFailure;
    }
    doc.putAll(values);
    keysToRemove.forEach(doc::remove);
    writes.add(Map.copyOf(values));
  }

  @Override
  public synchronized void delete(String key) {
    doc.remove(key);
  }

  @Override
  public synchronized Map<String, String> snapshot() {
    return new TreeMap<>(doc);
  }

  @Override
  public synchronized void reset() {
    resets++;
  }

  /** Makes every later write throw {@code failure} (null: writes succeed again). */
  public synchronized void failWritesWith(RuntimeException failure) {
    this.writeFailure = failure;
  }

  /** Every commitMany call's values, in order. */
  public synchronized List<Map<String, String>> writes() {
    return List.copyOf(writes);
  }

  public synchronized int resets() {
    return resets;
  }

  @Override
  public void close() {}
}
