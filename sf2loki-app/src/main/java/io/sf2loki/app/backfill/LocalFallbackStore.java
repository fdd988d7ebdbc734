package io.sf2loki.app.backfill;

import io.sf2loki.core.spi.CheckpointStore;
import io.sf2loki.state.file.FileCheckpointStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The 1.x fallback of SPEC BF-2: with an s3/gcs store whose backfill document does not exist yet
 * (it holds no key), the local file {@code <stem>-backfill<suffix>} beside {@code state.file.path}
 * — where 1.x kept backfill cursors whatever the store — is read once, without its lock. Its
 * cursors answer {@link #load} for keys the object store lacks; the first commit writes them into
 * the object store together with the new values, so the next run finds them there (the local file
 * is left as it is). Every other call goes to the object store. Called from one thread.
 */
final class LocalFallbackStore implements CheckpointStore {
  private static final Logger log = LoggerFactory.getLogger(LocalFallbackStore.class);

  private final CheckpointStore store;
  private Map<String, String> fallback;

  private LocalFallbackStore(CheckpointStore store, Map<String, String> fallback) {
    this.store = store;
    this.fallback = fallback;
  }

  /**
   * {@code store} itself when it already holds a key or {@code localFile} does not exist; else
   * {@code store} with the file's cursors as fallback.
   *
   * @param store the opened object-store backfill document
   * @param localFile the 1.x local backfill file
   */
  static CheckpointStore wrap(CheckpointStore store, Path localFile) {
    if (!Files.isRegularFile(localFile) || !store.snapshot().isEmpty()) {
      return store;
    }
    Map<String, String> legacy;
    try (FileCheckpointStore local =
        new FileCheckpointStore(localFile, FileCheckpointStore.LockMode.NONE)) {
      legacy = new LinkedHashMap<>(local.snapshot());
    }
    if (legacy.isEmpty()) {
      return store;
    }
    log.atInfo()
        .addKeyValue("path", localFile.toAbsolutePath().toString())
        .addKeyValue("keys", legacy.size())
        .log("backfill reads the 1.x local cursors until its object-store document exists (BF-2)");
    return new LocalFallbackStore(store, legacy);
  }

  @Override
  public Optional<String> load(String key) {
    Optional<String> v = store.load(key);
    return v.isPresent() || fallback.isEmpty() ? v : Optional.ofNullable(fallback.get(key));
  }

  @Override
  public void commitMany(Map<String, String> values, Set<String> keysToRemove) {
    if (fallback.isEmpty()) {
      store.commitMany(values, keysToRemove);
      return;
    }
    Map<String, String> merged = new HashMap<>(fallback);
    merged.keySet().removeAll(keysToRemove);
    merged.putAll(values);
    store.commitMany(merged, keysToRemove);
    fallback = Map.of();
  }

  @Override
  public void delete(String key) {
    if (!fallback.isEmpty()) {
      Map<String, String> rest = new HashMap<>(fallback);
      rest.remove(key);
      fallback = Map.of();
      if (!rest.isEmpty()) {
        store.commitMany(rest, Set.of(key));
        return;
      }
    }
    store.delete(key);
  }

  @Override
  public Map<String, String> snapshot() {
    Map<String, String> all = new TreeMap<>(fallback);
    all.putAll(store.snapshot());
    return all;
  }

  @Override
  public void reset() {
    store.reset();
  }

  @Override
  public void close() {
    store.close();
  }
}
