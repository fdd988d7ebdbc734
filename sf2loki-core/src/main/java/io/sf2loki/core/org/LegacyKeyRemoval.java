package io.sf2loki.core.org;

import io.sf2loki.core.spi.CheckpointStore;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The checkpoint store as the term's committer writes to it in multi-org mode (SPEC ORG-5, ORG-10,
 * STATE-2): delegates every operation, and a {@link #commitMany} that stores a prefixed key whose
 * value the first org read from its unprefixed legacy key ({@link #servedLegacy}) also removes that
 * legacy key, in the same durable write. A removal is forgotten only once that write succeeded, so
 * a failed write (STATE-16 retries the same values) removes it again; {@link #reset()} (term end)
 * forgets every pending removal, and the next term's fallback read notes it again.
 *
 * <p>Thread-safe: the cursor views note fallbacks from source threads while the committer writes.
 * The delegate serialises store operations (STATE-1).
 */
public final class LegacyKeyRemoval implements CheckpointStore {
  private static final Logger log = LoggerFactory.getLogger(LegacyKeyRemoval.class);
  private final CheckpointStore delegate;
  private final Map<String, String> pending = new ConcurrentHashMap<>(); // prefixed → legacy

  /**
   * @param delegate the deployment's checkpoint store (one document for every org, STATE-18)
   */
  public LegacyKeyRemoval(CheckpointStore delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  /**
   * Notes that the value of {@code prefixedKey} was read from {@code legacyKey} (ORG-5): the write
   * that first stores {@code prefixedKey} removes {@code legacyKey}.
   */
  void servedLegacy(String prefixedKey, String legacyKey) {
    pending.put(prefixedKey, legacyKey);
  }

  /** Legacy keys whose removal waits for the first write of their prefixed key (tests, status). */
  public Set<String> pendingRemovals() {
    return Set.copyOf(pending.values());
  }

  @Override
  public Optional<String> load(String key) {
    return delegate.load(key);
  }

  /**
   * Writes {@code values}, removing {@code keysToRemove} and the legacy keys of every prefixed key
   * in {@code values} that was served from one (ORG-5).
   */
  @Override
  public void commitMany(Map<String, String> values, Set<String> keysToRemove) {
    Map<String, String> removing = new java.util.LinkedHashMap<>();
    for (String key : values.keySet()) {
      String legacy = pending.get(key);
      if (legacy != null && !values.containsKey(legacy)) {
        removing.put(key, legacy);
      }
    }
    if (removing.isEmpty()) {
      delegate.commitMany(values, keysToRemove);
      return;
    }
    Set<String> remove = new LinkedHashSet<>(keysToRemove);
    remove.addAll(removing.values());
    delegate.commitMany(values, remove);
    Set<String> done = new HashSet<>();
    removing.forEach(
        (prefixed, legacy) -> {
          if (pending.remove(prefixed, legacy)) {
            done.add(legacy);
          }
        });
    for (String legacy : done) {
      log.atInfo()
          .addKeyValue("key", legacy)
          .log("legacy checkpoint key removed; its org-prefixed key is stored now (ORG-5)");
    }
  }

  @Override
  public void delete(String key) {
    delegate.delete(key);
  }

  @Override
  public Map<String, String> snapshot() {
    return delegate.snapshot();
  }

  /** Drops the delegate's cache and every pending removal (term end, STATE-2). */
  @Override
  public void reset() {
    pending.clear();
    delegate.reset();
  }

  @Override
  public void close() {
    delegate.close();
  }
}
