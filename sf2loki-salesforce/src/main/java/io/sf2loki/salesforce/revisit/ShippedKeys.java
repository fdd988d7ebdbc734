package io.sf2loki.salesforce.revisit;

import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The bounded dedup memory of one revisit (SPEC OBJ-15): the record keys this term already shipped
 * (or deliberately skipped), each with its timestamp. Holds at most {@code maxKeys} keys; when a
 * new key exceeds the bound, every key of the oldest timestamp is evicted and that timestamp
 * becomes the {@linkplain #floor() floor}: a revisit never looks at or below it, because it could
 * no longer tell shipped rows from late ones there (the caller reports the shortened window).
 *
 * <p>Memory: about 150 bytes per key (an 18-character Id, its instant and two map entries), so the
 * default 20000 keys hold about 3 MB per object. Not thread-safe; owned by the source's poll
 * thread.
 */
public final class ShippedKeys {
  private final int maxKeys;
  private final Map<String, Instant> byKey = new HashMap<>();
  private final TreeMap<Instant, Set<String>> byTime = new TreeMap<>();
  private Instant floor;
  private long evicted;

  /**
   * @param maxKeys the bound, at least 1
   */
  public ShippedKeys(int maxKeys) {
    if (maxKeys < 1) {
      throw new IllegalArgumentException("maxKeys must be >= 1");
    }
    this.maxKeys = maxKeys;
  }

  /**
   * Remembers {@code key} shipped at {@code at} (a key seen again moves to the new instant). Keys
   * at or below the floor are not kept.
   */
  public void remember(String key, Instant at) {
    if (floor != null && !at.isAfter(floor)) {
      return;
    }
    Instant old = byKey.put(key, at);
    if (old != null) {
      Set<String> s = byTime.get(old);
      s.remove(key);
      if (s.isEmpty()) {
        byTime.remove(old);
      }
    }
    byTime.computeIfAbsent(at, k -> new HashSet<>()).add(key);
    while (byKey.size() > maxKeys) {
      Map.Entry<Instant, Set<String>> oldest = byTime.pollFirstEntry();
      oldest.getValue().forEach(byKey::remove);
      evicted += oldest.getValue().size();
      floor = oldest.getKey();
    }
  }

  /** Whether {@code key} was remembered and not pruned or evicted. */
  public boolean contains(String key) {
    return byKey.containsKey(key);
  }

  /** Forgets every key older than {@code before} (outside the revisit window). */
  public void pruneBefore(Instant before) {
    while (!byTime.isEmpty() && byTime.firstKey().isBefore(before)) {
      byTime.pollFirstEntry().getValue().forEach(byKey::remove);
    }
    if (floor != null && floor.isBefore(before)) {
      floor = null;
    }
  }

  /** The newest evicted timestamp still inside the window, or null when nothing was evicted. */
  public Instant floor() {
    return floor;
  }

  /** Keys held now (≤ the bound). */
  public int size() {
    return byKey.size();
  }

  /** Keys evicted by the bound since creation. */
  public long evicted() {
    return evicted;
  }
}
