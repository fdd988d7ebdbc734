package io.sf2loki.salesforce.elf;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * A CSV row under transforms (SPEC XF-1, XF-15): a mutable map over a read-only {@link CsvRow} that
 * keeps the edits next to the parsed cells instead of copying the row into a hash map. Replacing a
 * header column's value with a string (what {@code hash}, {@code mask} and {@code regex_replace}
 * write, XF-13) and removing header columns ({@code drop_field}) stay in this cell form, so the
 * shaper still writes the line with the file's pre-sorted {@code RowWriter} and resolves metadata
 * with the file's compiled layout. Any other edit (a new key, a non-string value, {@code _extra},
 * {@link #clear}) first turns the row into a plain {@code HashMap} copy ({@link #cellBacked()}
 * false from then on). Either way the map has exactly the entries the same edits give on {@link
 * CsvRow#toMutableMap()}. Views ({@link #entrySet()}, {@link #keySet()}) are read-only. One row,
 * one thread: not thread-safe.
 */
final class EditableCsvRow extends AbstractMap<String, Object> {
  private final CsvRow row;
  private final CsvRow.Layout layout;

  /** The cells with edits applied (at least header-long), or null before the first edit. */
  private String[] edited;

  /** Removed header columns, or null before the first removal. */
  private boolean[] removed;

  private int removedCount;

  /** The row as a plain map once an edit left the cell form; then the only state. */
  private Map<String, Object> plain;

  private Set<Map.Entry<String, Object>> entrySet;

  private Object lastKey;
  private Integer lastColumn;

  EditableCsvRow(CsvRow row) {
    this.row = row;
    this.layout = row.layout();
  }

  /** True while the row is its cells plus edits ({@link #cells()} and the layout describe it). */
  boolean cellBacked() {
    return plain == null;
  }

  /** The file's header index. */
  CsvRow.Layout layout() {
    return layout;
  }

  /** The cells with edits applied, in column order (only while {@link #cellBacked()}). */
  List<String> cells() {
    return edited == null ? row.cells() : Arrays.asList(edited);
  }

  /** Removed columns ({@code true} = absent), or null when none was removed. */
  boolean[] removedColumns() {
    return removedCount == 0 ? null : removed;
  }

  private boolean isRemoved(int column) {
    return removedCount != 0 && removed[column];
  }

  private String cell(int column) {
    return edited != null ? edited[column] : row.cell(column);
  }

  @Override
  public Object get(Object key) {
    if (plain != null) {
      return plain.get(key);
    }
    String extra = row.extra();
    if (extra != null && ElfCsvReader.EXTRA_KEY.equals(key)) {
      return extra;
    }
    Integer col = column(key);
    return col == null || isRemoved(col) ? null : cell(col);
  }

  @Override
  public boolean containsKey(Object key) {
    if (plain != null) {
      return plain.containsKey(key);
    }
    if (row.extra() != null && ElfCsvReader.EXTRA_KEY.equals(key)) {
      return true;
    }
    Integer col = column(key);
    return col != null && !isRemoved(col);
  }

  @Override
  public Object put(String key, Object value) {
    if (plain == null && value instanceof String s && !ElfCsvReader.EXTRA_KEY.equals(key)) {
      Integer col = column(key);
      if (col != null) {
        Object old = null;
        if (isRemoved(col)) {
          removed[col] = false;
          removedCount--;
        } else {
          old = cell(col);
        }
        if (edited == null) {
          edited = copyCells();
        }
        edited[col] = s;
        return old;
      }
    }
    return plain().put(key, value);
  }

  @Override
  public Object remove(Object key) {
    if (plain == null && !ElfCsvReader.EXTRA_KEY.equals(key)) {
      Integer col = column(key);
      if (col == null || isRemoved(col)) {
        return null; // absent already: nothing changes
      }
      Object old = cell(col);
      if (removed == null) {
        removed = new boolean[layout.headerSize()];
      }
      removed[col] = true;
      removedCount++;
      return old;
    }
    return plain().remove(key);
  }

  @Override
  public void clear() {
    plain().clear();
  }

  @Override
  public int size() {
    return plain != null ? plain.size() : row.size() - removedCount;
  }

  @Override
  public boolean isEmpty() {
    return size() == 0;
  }

  @Override
  public Set<Map.Entry<String, Object>> entrySet() {
    if (plain != null) {
      return java.util.Collections.unmodifiableMap(plain).entrySet();
    }
    Set<Map.Entry<String, Object>> s = entrySet;
    if (s == null) {
      s = new Entries();
      entrySet = s;
    }
    return s;
  }

  private String[] copyCells() {
    List<String> cells = row.cells();
    int size = cells.size();
    String[] out = cells.toArray(new String[Math.max(size, layout.headerSize())]);
    Arrays.fill(out, size, out.length, ""); // a missing cell reads as ""
    return out;
  }

  /**
   * The header column of {@code key}; the last key asked is kept (rules get, then put, a field).
   */
  private Integer column(Object key) {
    if (key != lastKey) {
      lastColumn = layout.column(key);
      lastKey = key;
    }
    return lastColumn;
  }

  private Map<String, Object> plain() {
    if (plain == null) {
      Map<String, Object> m = new HashMap<>((int) ((size() + 1) / 0.75f) + 1);
      for (Map.Entry<String, Object> e : entrySet()) {
        m.put(e.getKey(), e.getValue());
      }
      plain = m;
      edited = null;
      removed = null;
      removedCount = 0;
      entrySet = null;
    }
    return plain;
  }

  /** The cell-form entries: header names not removed, then a virtual {@code _extra}. */
  private final class Entries extends AbstractSet<Map.Entry<String, Object>> {
    @Override
    public int size() {
      return EditableCsvRow.this.size();
    }

    @Override
    public Iterator<Map.Entry<String, Object>> iterator() {
      if (plain != null) {
        return EditableCsvRow.this.entrySet().iterator();
      }
      return new Iterator<>() {
        private final int keys = layout.keyCount();
        private final int end = keys + (row.virtualExtra() ? 1 : 0);
        private int next = skipRemoved(0);

        private int skipRemoved(int k) {
          while (k < keys && isRemoved(layout.columnAt(k))) {
            k++;
          }
          return k;
        }

        @Override
        public boolean hasNext() {
          return next < end;
        }

        @Override
        public Map.Entry<String, Object> next() {
          if (!hasNext()) {
            throw new NoSuchElementException();
          }
          int k = next;
          next = skipRemoved(k + 1);
          if (k == keys) {
            return new SimpleImmutableEntry<>(ElfCsvReader.EXTRA_KEY, row.extra());
          }
          String key = layout.keyAt(k);
          return new SimpleImmutableEntry<>(key, get(key));
        }
      };
    }
  }
}
