package io.sf2loki.loki.encode;

import com.google.protobuf.CodedOutputStream;
import java.util.Arrays;
import java.util.Map;

/**
 * The structured metadata of one batch's entries, flattened per entry in code-point key order (SPEC
 * SINK-6) with each {@code LabelPairAdapter}'s protobuf size computed once, for the two passes of
 * {@link ProtobufEncoder#serialize} (size, then write). Entries of one source usually share their
 * key sequence (the same key instances in the same order), so the sort order is computed once per
 * key sequence, not per entry. One instance per serialization; not thread-safe.
 */
final class MetadataTable {
  private String[] names;
  private String[] values;
  private int[] pairSizes;
  private final int[] start;
  private int entries;
  private int pairs;

  private String[] keys = new String[8];
  private String[] vals = new String[8];
  private String[] lastKeys;
  private int lastCount = -1;
  private int[] lastOrder;

  /**
   * @param expectedEntries entries that will be added
   * @param expectedPairsPerEntry a capacity hint
   */
  MetadataTable(int expectedEntries, int expectedPairsPerEntry) {
    int cap = Math.max(16, expectedEntries * Math.max(1, expectedPairsPerEntry));
    names = new String[cap];
    values = new String[cap];
    pairSizes = new int[cap];
    start = new int[expectedEntries + 1];
  }

  /**
   * Appends the next entry's metadata.
   *
   * @return the protobuf bytes of the entry's {@code structuredMetadata} fields (tags and length
   *     prefixes included)
   */
  long add(Map<String, String> md) {
    int n = 0;
    for (Map.Entry<String, String> p : md.entrySet()) {
      if (n == keys.length) {
        keys = Arrays.copyOf(keys, n * 2);
        vals = Arrays.copyOf(vals, n * 2);
      }
      keys[n] = p.getKey();
      vals[n] = p.getValue();
      n++;
    }
    int[] order = order(n);
    if (pairs + n > names.length) {
      int cap = Math.max(names.length * 2, pairs + n);
      names = Arrays.copyOf(names, cap);
      values = Arrays.copyOf(values, cap);
      pairSizes = Arrays.copyOf(pairSizes, cap);
    }
    long bytes = 0;
    for (int j = 0; j < n; j++) {
      int idx = order[j];
      String name = keys[idx];
      String value = vals[idx];
      int ps = pairSize(name, value);
      names[pairs] = name;
      values[pairs] = value;
      pairSizes[pairs] = ps;
      pairs++;
      bytes += 1 + CodedOutputStream.computeUInt32SizeNoTag(ps) + ps;
    }
    Arrays.fill(keys, 0, n, null);
    Arrays.fill(vals, 0, n, null);
    start[++entries] = pairs;
    return bytes;
  }

  /** First pair index of entry {@code k} (in {@link #add} order). */
  int from(int k) {
    return start[k];
  }

  /** One past the last pair index of entry {@code k}. */
  int to(int k) {
    return start[k + 1];
  }

  String name(int i) {
    return names[i];
  }

  String value(int i) {
    return values[i];
  }

  int pairSize(int i) {
    return pairSizes[i];
  }

  /** The code-point order of keys[0..n), reused while the key sequence repeats. */
  private int[] order(int n) {
    if (n == lastCount) {
      boolean same = true;
      for (int j = 0; j < n; j++) {
        String a = keys[j];
        String b = lastKeys[j];
        if (a != b && !a.equals(b)) {
          same = false;
          break;
        }
      }
      if (same) {
        return lastOrder;
      }
    }
    int[] order = new int[n];
    for (int j = 0; j < n; j++) {
      // insertion sort: a handful of keys; map keys are distinct, so the order is total
      int v = j;
      int i = j - 1;
      while (i >= 0 && Streams.CODE_POINT_ORDER.compare(keys[order[i]], keys[v]) > 0) {
        order[i + 1] = order[i];
        i--;
      }
      order[i + 1] = v;
    }
    lastKeys = Arrays.copyOf(keys, n);
    lastCount = n;
    lastOrder = order;
    return order;
  }

  /** Protobuf size of one {@code LabelPairAdapter} (empty strings omitted, as proto3 does). */
  static int pairSize(String name, String value) {
    int size = 0;
    if (!name.isEmpty()) {
      size += 1 + CodedOutputStream.computeStringSizeNoTag(name);
    }
    if (!value.isEmpty()) {
      size += 1 + CodedOutputStream.computeStringSizeNoTag(value);
    }
    return size;
  }
}
