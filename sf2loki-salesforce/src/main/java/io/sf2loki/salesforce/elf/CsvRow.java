package io.sf2loki.salesforce.elf;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * One CSV data row as a read-only map view over the parsed cells (SPEC ELF-9 semantics, identical
 * to a dict built from the header: a duplicated header name takes its <em>last</em> column, missing
 * cells are {@code ""}, cells beyond the header are joined with {@code ,} under {@code _extra},
 * overriding a header column of that name). No per-row hash map is built: lookups go through the
 * file's shared {@link Layout}. Mutators throw; transforms edit an {@link EditableCsvRow} over it
 * (XF-15), {@link #toMutableMap()} gives a plain {@code HashMap} copy. Immutable once built, so
 * safe to publish.
 */
final class CsvRow extends AbstractMap<String, Object> {
  private final Layout layout;
  private final List<String> cells;
  private final String extra;
  private Set<Map.Entry<String, Object>> entrySet;

  /** The per-file header index shared by every row of the file. Immutable. */
  static final class Layout {
    private final String[] header;
    private final String[] keys;
    private final int[] columns;
    private final Map<String, Integer> columnOf;
    private final boolean headerHasExtra;
    private final Set<String> keySet;
    private final Set<String> keySetWithExtra;

    Layout(String[] header) {
      this.header = header;
      Map<String, Integer> last = new LinkedHashMap<>();
      for (int i = 0; i < header.length; i++) {
        last.remove(header[i]); // keep the position of the last occurrence
        last.put(header[i], i);
      }
      this.columnOf = new HashMap<>(last);
      this.keys = last.keySet().toArray(new String[0]);
      this.columns = new int[keys.length];
      for (int i = 0; i < keys.length; i++) {
        columns[i] = last.get(keys[i]);
      }
      this.headerHasExtra = last.containsKey(ElfCsvReader.EXTRA_KEY);
      this.keySet = Collections.unmodifiableSet(last.keySet());
      Set<String> withExtra = new java.util.LinkedHashSet<>(last.keySet());
      withExtra.add(ElfCsvReader.EXTRA_KEY);
      this.keySetWithExtra = Collections.unmodifiableSet(withExtra);
    }

    int headerSize() {
      return header.length;
    }

    /** The column a key reads (the last of duplicated names), or null when the header lacks it. */
    Integer column(Object key) {
      return columnOf.get(key);
    }

    /** Number of distinct header names. */
    int keyCount() {
      return keys.length;
    }

    /** The {@code k}-th distinct header name (first-occurrence order of the last columns). */
    String keyAt(int k) {
      return keys[k];
    }

    /** The column of {@link #keyAt}{@code (k)}. */
    int columnAt(int k) {
      return columns[k];
    }

    /** Every key a row of this file can have: the header names plus {@code _extra}. */
    Set<String> allKeys() {
      return keySetWithExtra;
    }
  }

  /**
   * @param layout the file's header index
   * @param cells the row's cells as parsed (any length)
   */
  CsvRow(Layout layout, List<String> cells) {
    this.layout = layout;
    this.cells = cells;
    int h = layout.headerSize();
    int n = cells.size();
    if (n > h) {
      StringBuilder sb = new StringBuilder();
      for (int i = h; i < n; i++) {
        if (i > h) {
          sb.append(',');
        }
        sb.append(cells.get(i));
      }
      this.extra = sb.toString();
    } else {
      this.extra = null;
    }
  }

  /** The file's header index. */
  Layout layout() {
    return layout;
  }

  /** The raw cells in column order (for the pre-sorted row writer). */
  List<String> cells() {
    return cells;
  }

  /** A mutable copy with the same entries (what transforms mutate). */
  Map<String, Object> toMutableMap() {
    Map<String, Object> m = new HashMap<>((int) ((size() + 1) / 0.75f) + 1);
    m.putAll(this);
    return m;
  }

  /** True when {@code _extra} is a key only because of cells beyond a header without it. */
  boolean virtualExtra() {
    return extra != null && !layout.headerHasExtra;
  }

  /** The joined cells beyond the header, or null when there are none. */
  String extra() {
    return extra;
  }

  /** The cell of a header column ({@code ""} when the row is shorter). */
  String cell(int column) {
    return column < cells.size() ? cells.get(column) : "";
  }

  @Override
  public Object get(Object key) {
    if (extra != null && ElfCsvReader.EXTRA_KEY.equals(key)) {
      return extra;
    }
    Integer col = layout.columnOf.get(key);
    return col == null ? null : cell(col);
  }

  @Override
  public boolean containsKey(Object key) {
    return layout.columnOf.containsKey(key)
        || (extra != null && ElfCsvReader.EXTRA_KEY.equals(key));
  }

  @Override
  public int size() {
    return layout.keys.length + (virtualExtra() ? 1 : 0);
  }

  @Override
  public boolean isEmpty() {
    return size() == 0;
  }

  @Override
  public Set<String> keySet() {
    return virtualExtra() ? layout.keySetWithExtra : layout.keySet;
  }

  @Override
  public Set<Map.Entry<String, Object>> entrySet() {
    Set<Map.Entry<String, Object>> s = entrySet;
    if (s == null) {
      s = new Entries();
      entrySet = s;
    }
    return s;
  }

  private final class Entries extends AbstractSet<Map.Entry<String, Object>> {
    @Override
    public int size() {
      return CsvRow.this.size();
    }

    @Override
    public Iterator<Map.Entry<String, Object>> iterator() {
      return new Iterator<>() {
        private int i;

        @Override
        public boolean hasNext() {
          return i < size();
        }

        @Override
        public Map.Entry<String, Object> next() {
          if (!hasNext()) {
            throw new NoSuchElementException();
          }
          int k = i++;
          if (k == layout.keys.length) {
            return new SimpleImmutableEntry<>(ElfCsvReader.EXTRA_KEY, extra);
          }
          String key = layout.keys[k];
          return new SimpleImmutableEntry<>(key, get(key));
        }
      };
    }
  }
}
