package io.sf2loki.bench;

import io.sf2loki.core.spi.CheckpointStore;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** An in-memory checkpoint store for the harness (no disk I/O in the measured path). */
final class MapStore implements CheckpointStore {
  private final Map<String, String> values = new ConcurrentHashMap<>();

  @Override
  public Optional<String> load(String key) {
    return Optional.ofNullable(values.get(key));
  }

  @Override
  public void commitMany(Map<String, String> newValues, Set<String> keysToRemove) {
    values.putAll(newValues);
    keysToRemove.forEach(values::remove);
  }

  @Override
  public void delete(String key) {
    values.remove(key);
  }

  @Override
  public Map<String, String> snapshot() {
    return Map.copyOf(values);
  }

  @Override
  public void reset() {
    values.clear();
  }

  @Override
  public void close() {}
}
