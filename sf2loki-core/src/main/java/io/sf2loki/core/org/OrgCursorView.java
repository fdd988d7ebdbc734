package io.sf2loki.core.org;

import io.sf2loki.core.spi.CheckpointStore;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * The checkpoint store as one org's inner sources see it (SPEC ORG-4, ORG-5, SRC-2, STATE-12): a
 * read-only view that reads key {@code k} as {@code org=<name>:k}. For the first configured org a
 * read that misses the prefixed key falls back to the unprefixed legacy key and notes the fallback
 * in the {@link LegacyKeyRemoval} the committer writes through, so the write that first stores the
 * prefixed key removes the legacy one.
 *
 * <p>Sources never write (SRC-2): {@link #commitMany} and {@link #delete} throw {@link
 * UnsupportedOperationException}. The view owns nothing: {@link #reset()} and {@link #close()} do
 * nothing. Thread-safe when the store is.
 */
public final class OrgCursorView implements CheckpointStore {
  private final OrgScope org;
  private final CheckpointStore store;
  private final LegacyKeyRemoval removal;

  /**
   * @param org the org (its prefix; {@link OrgScope#first()} enables the ORG-5 fallback)
   * @param store the deployment's store, usually {@code removal} itself
   * @param removal where a legacy read is noted (the store the term's committer writes through)
   */
  public OrgCursorView(OrgScope org, CheckpointStore store, LegacyKeyRemoval removal) {
    this.org = Objects.requireNonNull(org, "org");
    this.store = Objects.requireNonNull(store, "store");
    this.removal = Objects.requireNonNull(removal, "removal");
  }

  /** A view reading through {@code removal} (the usual wiring). */
  public OrgCursorView(OrgScope org, LegacyKeyRemoval removal) {
    this(org, removal, removal);
  }

  /**
   * Reads {@code org=<name>:key}; for the first org, when absent, the legacy {@code key} (ORG-5).
   *
   * @param key the unprefixed key a single-org source uses, e.g. {@code eventlogfile:Login}
   */
  @Override
  public Optional<String> load(String key) {
    String prefixed = org.prefixed(key);
    Optional<String> value = store.load(prefixed);
    if (value.isPresent() || !org.first()) {
      return value;
    }
    Optional<String> legacy = store.load(key);
    legacy.ifPresent(v -> removal.servedLegacy(prefixed, key));
    return legacy;
  }

  /** Sources read only (SRC-2). */
  @Override
  public void commitMany(Map<String, String> values, Set<String> keysToRemove) {
    throw new UnsupportedOperationException("an org's sources read cursors only (SRC-2, ORG-4)");
  }

  /** Sources read only (SRC-2). */
  @Override
  public void delete(String key) {
    throw new UnsupportedOperationException("an org's sources read cursors only (SRC-2, ORG-4)");
  }

  /** This org's keys, unprefixed, sorted by key (no legacy keys, no other org's keys). */
  @Override
  public Map<String, String> snapshot() {
    Map<String, String> out = new TreeMap<>();
    String prefix = org.keyPrefix();
    store
        .snapshot()
        .forEach(
            (k, v) -> {
              if (k.startsWith(prefix)) {
                out.put(k.substring(prefix.length()), v);
              }
            });
    return out;
  }

  /** Nothing: the view owns no cache. */
  @Override
  public void reset() {}

  /** Nothing: the daemon owns the store. */
  @Override
  public void close() {}
}
