package io.sf2loki.core.shape;

import io.sf2loki.core.model.LogEntry;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * An unmodifiable, array-backed string map that knows the UTF-8 byte length of all its keys and
 * values (the map part of the SPEC PIPE-3 entry cost). A source builds it on the thread that just
 * produced the values (cheap: the strings are in that core's cache), so the lane's producer can
 * charge the entry without walking every string again, and later readers (limits, encoders) follow
 * two arrays instead of a chain of hash nodes. Meant for the few pairs of structured metadata:
 * lookups scan linearly. Iteration order is the source map's; keys are distinct.
 */
public final class Utf8SizedMap extends AbstractMap<String, String> {
  private final String[] keys;
  private final String[] values;
  private final long utf8Bytes;

  private Utf8SizedMap(Map<String, String> map) {
    int n = map.size();
    String[] k = new String[n];
    String[] v = new String[n];
    long bytes = 0;
    int i = 0;
    for (Map.Entry<String, String> kv : map.entrySet()) {
      if (i == n) {
        throw new IllegalStateException("map modified while being wrapped");
      }
      k[i] = Objects.requireNonNull(kv.getKey(), "key");
      v[i] = Objects.requireNonNull(kv.getValue(), "value");
      bytes += utf8Length(k[i]) + utf8Length(v[i]);
      i++;
    }
    if (i != n) {
      throw new IllegalStateException("map modified while being wrapped");
    }
    this.keys = k;
    this.values = v;
    this.utf8Bytes = bytes;
  }

  /**
   * Copies {@code map} (a map with distinct, non-null string keys and values).
   *
   * @return an unmodifiable map with the same pairs in the same iteration order and its byte size
   *     computed once; {@code map} itself when it already is one
   * @throws NullPointerException if a key or value is null
   */
  public static Utf8SizedMap wrap(Map<String, String> map) {
    return map instanceof Utf8SizedMap s ? s : new Utf8SizedMap(map);
  }

  /** Σ UTF-8 bytes of every key and value, in bytes (as {@link LogEntry#utf8Length}). */
  public long utf8Bytes() {
    return utf8Bytes;
  }

  @Override
  public int size() {
    return keys.length;
  }

  @Override
  public boolean isEmpty() {
    return keys.length == 0;
  }

  @Override
  public String get(Object key) {
    int i = indexOf(key);
    return i < 0 ? null : values[i];
  }

  @Override
  public boolean containsKey(Object key) {
    return indexOf(key) >= 0;
  }

  private int indexOf(Object key) {
    for (int i = 0; i < keys.length; i++) {
      if (keys[i].equals(key)) {
        return i;
      }
    }
    return -1;
  }

  @Override
  public Set<Map.Entry<String, String>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public Iterator<Map.Entry<String, String>> iterator() {
        return new Iterator<>() {
          private int next;

          @Override
          public boolean hasNext() {
            return next < keys.length;
          }

          @Override
          public Map.Entry<String, String> next() {
            if (next >= keys.length) {
              throw new NoSuchElementException();
            }
            int i = next++;
            return new SimpleImmutableEntry<>(keys[i], values[i]);
          }
        };
      }

      @Override
      public int size() {
        return keys.length;
      }
    };
  }

  /**
   * {@link LogEntry#utf8Length}, with a tight scan first: an all-ASCII string (the usual case) is
   * its char count.
   *
   * @throws NullPointerException if {@code s} is null
   */
  public static int utf8Length(String s) {
    int n = s.length();
    for (int i = 0; i < n; i++) {
      if (s.charAt(i) >= 0x80) {
        return LogEntry.utf8Length(s);
      }
    }
    return n;
  }
}
