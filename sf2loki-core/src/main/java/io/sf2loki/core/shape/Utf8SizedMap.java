package io.sf2loki.core.shape;

import io.sf2loki.core.model.LogEntry;
import java.util.AbstractMap;
import java.util.Collections;
import java.util.Map;
import java.util.Set;

/**
 * An unmodifiable string map that knows the UTF-8 byte length of all its keys and values (the map
 * part of the SPEC PIPE-3 entry cost). A source builds it on the thread that just produced the
 * values (cheap: the strings are in that core's cache), so the lane's producer can charge the entry
 * without walking every string again. Iteration order is the wrapped map's.
 */
public final class Utf8SizedMap extends AbstractMap<String, String> {
  private final Map<String, String> view;
  private final long utf8Bytes;
  private final int size;

  private Utf8SizedMap(Map<String, String> map) {
    this.view = Collections.unmodifiableMap(map);
    this.size = map.size();
    long n = 0;
    for (Map.Entry<String, String> kv : map.entrySet()) {
      n += utf8Length(kv.getKey()) + utf8Length(kv.getValue());
    }
    this.utf8Bytes = n;
  }

  /**
   * Wraps {@code map}, which the caller must not modify afterwards.
   *
   * @param map string keys and values, none null
   * @return an unmodifiable view with its byte size computed once
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
  public Set<Map.Entry<String, String>> entrySet() {
    return view.entrySet();
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public boolean isEmpty() {
    return size == 0;
  }

  @Override
  public String get(Object key) {
    return view.get(key);
  }

  @Override
  public boolean containsKey(Object key) {
    return view.containsKey(key);
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
