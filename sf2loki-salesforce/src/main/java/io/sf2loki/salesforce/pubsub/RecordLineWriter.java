package io.sf2loki.salesforce.pubsub;

import io.sf2loki.core.shape.CanonicalJson;
import java.util.Arrays;
import java.util.Map;

/**
 * Renders a decoded Pub/Sub record as its canonical JSON line (SPEC SRC-7), exactly as {@link
 * CanonicalJson#write(Object)} does, but sorts and escapes the top-level keys once per key sequence
 * instead of once per event: the decoder ({@link AvroEventDecoder}) yields the same keys in the
 * same order for every event of a writer schema. The last key sequence seen is cached (compared by
 * identity, then by equality); a different sequence rebuilds the cache. Nested maps and every value
 * are rendered by {@link CanonicalJson#write(Object, StringBuilder)}.
 *
 * <p>Not thread-safe (one per {@link PubSubEntryShaper}).
 */
final class RecordLineWriter {
  private String[] keys = new String[0];
  private int[] order = new int[0];
  private String[] prefixes = new String[0];
  private int lastLength = 256;

  /**
   * @param record a decoded record (string keys)
   * @return the canonical JSON text, identical to {@code CanonicalJson.write(record)}
   */
  String write(Map<String, ?> record) {
    int n = record.size();
    if (n == 0) {
      return "{}";
    }
    String[] seen = new String[n];
    Object[] values = new Object[n];
    boolean same = keys.length == n;
    int i = 0;
    for (Map.Entry<String, ?> e : record.entrySet()) {
      Object k = e.getKey();
      if (!(k instanceof String key)) {
        return CanonicalJson.write(record); // not a decoded record; keep the generic rules
      }
      if (same && keys[i] != key && !keys[i].equals(key)) {
        same = false;
      }
      seen[i] = key;
      values[i] = e.getValue();
      i++;
    }
    if (!same) {
      rebuild(seen);
    }
    StringBuilder out = new StringBuilder(lastLength + 64);
    out.append('{');
    for (int j = 0; j < n; j++) {
      if (j > 0) {
        out.append(", ");
      }
      int idx = order[j];
      out.append(prefixes[idx]);
      CanonicalJson.write(values[idx], out);
    }
    out.append('}');
    lastLength = out.length();
    return out.toString();
  }

  private void rebuild(String[] newKeys) {
    int n = newKeys.length;
    Integer[] sorted = new Integer[n];
    String[] p = new String[n];
    for (int i = 0; i < n; i++) {
      sorted[i] = i;
      StringBuilder sb = new StringBuilder(newKeys[i].length() + 4);
      CanonicalJson.appendString(newKeys[i], sb);
      sb.append(": ");
      p[i] = sb.toString();
    }
    Arrays.sort(sorted, (a, b) -> CanonicalJson.compareCodePoints(newKeys[a], newKeys[b]));
    int[] o = new int[n];
    for (int i = 0; i < n; i++) {
      o[i] = sorted[i];
    }
    keys = newKeys;
    order = o;
    prefixes = p;
  }
}
