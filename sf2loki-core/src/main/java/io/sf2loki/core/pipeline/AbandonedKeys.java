package io.sf2loki.core.pipeline;

import java.util.Collection;
import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;

/**
 * The term's abandoned-key set (SPEC PIPE-15, PIPE-16): checkpoint keys of batches abandoned at
 * shutdown. No later commit of the term may write them. Belongs to one pipeline (PIPE-18).
 * Thread-safe.
 */
public final class AbandonedKeys {
  private final Set<String> keys = new HashSet<>();

  /** Adds keys. */
  public synchronized void addAll(Collection<String> more) {
    keys.addAll(more);
  }

  /** Whether {@code key} was abandoned in this term. */
  public synchronized boolean contains(String key) {
    return keys.contains(key);
  }

  /** A sorted copy. */
  public synchronized Set<String> snapshot() {
    return new TreeSet<>(keys);
  }
}
