package io.sf2loki.core.shape;

import java.lang.reflect.Array;
import java.math.BigInteger;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Byte-exact canonical JSON of SPEC SRC-7 (identical to sf2loki 1.x's {@code json.dumps(value,
 * sort_keys=True, default=str)} with {@code ensure_ascii}).
 *
 * <p>Accepted value types: {@code Map<?,?>} (keys sorted by Unicode code point, recursively; a
 * non-string key is rendered as its text form), {@code Collection<?>} and arrays other than {@code
 * byte[]} (order kept), {@code CharSequence}/{@code Character}, {@code
 * Integer/Long/Short/Byte/BigInteger} (plain decimal), {@code Double/Float} (shortest round-trip,
 * Python repr rules, {@code NaN}/{@code Infinity}/{@code -Infinity}), {@code Boolean}, {@code
 * null}; anything else (byte arrays, decimals, instants, ...) is rendered as the JSON string of its
 * text form ({@link TextForm}, SRC-8).
 *
 * <p>For CSV rows (all values strings, one header per file) use {@link RowWriter}, which sorts and
 * escapes the keys once per header. Stateless and thread-safe.
 */
public final class CanonicalJson {
  private CanonicalJson() {}

  /**
   * Orders strings by Unicode code point (SRC-7), not by UTF-16 unit: a supplementary character
   * (surrogate pair) sorts after every BMP character, including U+E000…U+FFFF.
   */
  public static final Comparator<String> CODE_POINT_ORDER = CanonicalJson::compareCodePoints;

  private static final char[] HEX = "0123456789abcdef".toCharArray();

  /** Renders {@code value} as canonical JSON. */
  public static String write(Object value) {
    StringBuilder sb = new StringBuilder();
    write(value, sb);
    return sb.toString();
  }

  /** Appends the canonical JSON of {@code value} to {@code out}. */
  public static void write(Object value, StringBuilder out) {
    if (value == null) {
      out.append("null");
    } else if (value instanceof String s) {
      appendString(s, out);
    } else if (value instanceof Map<?, ?> m) {
      writeMap(m, out);
    } else if (value instanceof Boolean b) {
      out.append(b ? "true" : "false");
    } else if (value instanceof Integer || value instanceof Long) {
      out.append(((Number) value).longValue());
    } else if (value instanceof Double d) {
      appendDouble(d, out);
    } else if (value instanceof List<?> l) {
      out.append('[');
      int n = l.size();
      for (int i = 0; i < n; i++) {
        if (i > 0) {
          out.append(", ");
        }
        write(l.get(i), out);
      }
      out.append(']');
    } else if (value instanceof BigInteger bi) {
      out.append(bi.toString());
    } else if (value instanceof Short || value instanceof Byte) {
      out.append(((Number) value).intValue());
    } else if (value instanceof Float f) {
      appendDouble(f.doubleValue(), out);
    } else if (value instanceof CharSequence || value instanceof Character) {
      appendString(value.toString(), out);
    } else if (value instanceof Collection<?> c) {
      out.append('[');
      boolean first = true;
      for (Object o : c) {
        if (!first) {
          out.append(", ");
        }
        first = false;
        write(o, out);
      }
      out.append(']');
    } else if (value.getClass().isArray() && !(value instanceof byte[])) {
      out.append('[');
      int n = Array.getLength(value);
      for (int i = 0; i < n; i++) {
        if (i > 0) {
          out.append(", ");
        }
        write(Array.get(value, i), out);
      }
      out.append(']');
    } else {
      appendString(TextForm.of(value), out);
    }
  }

  private static void appendDouble(double d, StringBuilder out) {
    if (Double.isNaN(d)) {
      out.append("NaN");
    } else if (Double.isInfinite(d)) {
      out.append(d > 0 ? "Infinity" : "-Infinity");
    } else {
      PyFloat.appendFinite(d, out);
    }
  }

  private static void writeMap(Map<?, ?> m, StringBuilder out) {
    int n = m.size();
    if (n == 0) {
      out.append("{}");
      return;
    }
    String[] keys = new String[n];
    Object[] values = new Object[n];
    Integer[] order = new Integer[n];
    int i = 0;
    for (Map.Entry<?, ?> e : m.entrySet()) {
      Object k = e.getKey();
      keys[i] = k instanceof String s ? s : keyText(k);
      values[i] = e.getValue();
      order[i] = i;
      i++;
    }
    Arrays.sort(order, (a, b) -> compareCodePoints(keys[a], keys[b]));
    out.append('{');
    for (int j = 0; j < n; j++) {
      if (j > 0) {
        out.append(", ");
      }
      int idx = order[j];
      appendString(keys[idx], out);
      out.append(": ");
      write(values[idx], out);
    }
    out.append('}');
  }

  /** Python json's coercion of non-string dict keys (bool, None, numbers), else the text form. */
  private static String keyText(Object k) {
    if (k == null) {
      return "null";
    }
    if (k instanceof Boolean b) {
      return b ? "true" : "false";
    }
    if (k instanceof Double || k instanceof Float) {
      StringBuilder sb = new StringBuilder();
      appendDouble(((Number) k).doubleValue(), sb);
      return sb.toString();
    }
    return TextForm.of(k);
  }

  /**
   * Compares two strings by Unicode code point (see {@link #CODE_POINT_ORDER}).
   *
   * @return negative, zero or positive like {@link Comparator#compare}
   */
  public static int compareCodePoints(String a, String b) {
    int n = Math.min(a.length(), b.length());
    for (int i = 0; i < n; i++) {
      char x = a.charAt(i);
      char y = b.charAt(i);
      if (x != y) {
        if (x >= 0xD800 && y >= 0xD800) {
          // Move surrogates (D800–DFFF) above E000–FFFF so pairs sort as code points > U+FFFF.
          x = fixup(x);
          y = fixup(y);
        }
        return x - y;
      }
    }
    return a.length() - b.length();
  }

  private static char fixup(char c) {
    return c >= 0xE000 ? (char) (c - 0x800) : (char) (c + 0x2000);
  }

  /** Appends {@code s} as a JSON string literal with SRC-7 escapes (ensure_ascii). */
  public static void appendString(String s, StringBuilder out) {
    out.append('"');
    appendEscaped(s, out);
    out.append('"');
  }

  /** Appends the SRC-7 escaped content of {@code s} without surrounding quotes. */
  static void appendEscaped(String s, StringBuilder out) {
    int n = s.length();
    int start = 0;
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c >= 0x20 && c <= 0x7E && c != '"' && c != '\\') {
        continue;
      }
      if (i > start) {
        out.append(s, start, i);
      }
      start = i + 1;
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        case '\b' -> out.append("\\b");
        case '\f' -> out.append("\\f");
        default ->
            out.append('\\')
                .append('u')
                .append(HEX[(c >> 12) & 0xF])
                .append(HEX[(c >> 8) & 0xF])
                .append(HEX[(c >> 4) & 0xF])
                .append(HEX[c & 0xF]);
      }
    }
    if (start == 0) {
      out.append(s);
    } else if (start < n) {
      out.append(s, start, n);
    }
  }

  /**
   * Fast canonical JSON for CSV rows of one header (SPEC SRC-7 applied to an ELF row, ELF-9): built
   * once per header, it pre-sorts the columns by code point and pre-escapes the keys.
   *
   * <p>Row semantics follow a Python dict built from the header: a duplicated header name takes the
   * value of its <em>last</em> column; missing cells are {@code ""}; cells beyond the header are
   * joined with {@code ,} under key {@code _extra} (overriding a header column of that name),
   * sorted into place. Immutable and thread-safe.
   */
  public static final class RowWriter {
    /** The key of cells beyond the header (ELF-9). */
    public static final String EXTRA_KEY = "_extra";

    private final int headerSize;
    private final String[] slotKeys;
    private final String[] slotPrefix;
    // the same prefix after a separator, and both with the value's opening quote: one append per
    // cell for the key part instead of three
    private final String[] slotPrefixNext;
    private final String[] slotOpen;
    private final String[] slotOpenNext;
    private final int[] slotColumn;
    private final int extraSlot;
    private final int uniqueKeys;

    /**
     * @param header the CSV header names in column order (duplicates allowed)
     * @throws NullPointerException if {@code header} or a name is null
     */
    public RowWriter(List<String> header) {
      this.headerSize = header.size();
      Map<String, Integer> lastColumn = new HashMap<>();
      for (int i = 0; i < headerSize; i++) {
        String h = header.get(i);
        if (h == null) {
          throw new NullPointerException("header name " + i);
        }
        lastColumn.put(h, i);
      }
      this.uniqueKeys = lastColumn.size();
      boolean virtualExtra = !lastColumn.containsKey(EXTRA_KEY);
      String[] keys = lastColumn.keySet().toArray(new String[0]);
      if (virtualExtra) {
        keys = Arrays.copyOf(keys, keys.length + 1);
        keys[keys.length - 1] = EXTRA_KEY;
      }
      Arrays.sort(keys, CODE_POINT_ORDER);
      int n = keys.length;
      slotKeys = keys;
      slotPrefix = new String[n];
      slotPrefixNext = new String[n];
      slotOpen = new String[n];
      slotOpenNext = new String[n];
      slotColumn = new int[n];
      int extra = -1;
      for (int s = 0; s < n; s++) {
        StringBuilder sb = new StringBuilder();
        appendString(keys[s], sb);
        sb.append(": ");
        slotPrefix[s] = sb.toString();
        slotPrefixNext[s] = ", " + slotPrefix[s];
        slotOpen[s] = slotPrefix[s] + '"';
        slotOpenNext[s] = slotPrefixNext[s] + '"';
        Integer col = lastColumn.get(keys[s]);
        slotColumn[s] = col == null ? -1 : col;
        if (keys[s].equals(EXTRA_KEY)) {
          extra = s;
        }
      }
      this.extraSlot = extra;
    }

    /** Number of header columns. */
    public int columnCount() {
      return headerSize;
    }

    /** Renders one row (see class doc); {@code values} may be shorter or longer than the header. */
    public String write(String[] values) {
      StringBuilder sb = new StringBuilder(64 + values.length * 32);
      write(Arrays.asList(values), sb);
      return sb.toString();
    }

    /** Appends the canonical JSON of one row to {@code out}. */
    public void write(String[] values, StringBuilder out) {
      write(Arrays.asList(values), out);
    }

    /**
     * Appends the canonical JSON of one row to {@code out}; a null cell renders as {@code null}.
     */
    public void write(List<String> values, StringBuilder out) {
      write(values, null, out);
    }

    /**
     * As {@link #write(List, StringBuilder)}, leaving out the header columns marked absent (a row
     * whose transforms removed fields, XF-4): the same output as the row map without those keys.
     *
     * @param absent per header column, {@code true} when its key is to be left out; null for none.
     *     Only a name's last column counts (the one its value is read from); cells beyond the
     *     header ({@code _extra}) are never left out.
     */
    public void write(List<String> values, boolean[] absent, StringBuilder out) {
      int n = values.size();
      boolean hasExtra = n > headerSize;
      out.append('{');
      boolean first = true;
      for (int s = 0; s < slotKeys.length; s++) {
        int col = slotColumn[s];
        if (s == extraSlot && hasExtra) {
          sep(first, out);
          first = false;
          out.append(slotPrefix[s]).append('"');
          for (int i = headerSize; i < n; i++) {
            if (i > headerSize) {
              out.append(',');
            }
            String v = values.get(i);
            if (v != null) {
              appendEscaped(v, out);
            }
          }
          out.append('"');
          continue;
        }
        if (col < 0 || (absent != null && absent[col])) {
          continue; // virtual _extra slot without extra cells, or a removed column
        }
        String v = col < n ? values.get(col) : ""; // a missing cell is ""
        if (v == null) {
          out.append(first ? slotPrefix[s] : slotPrefixNext[s]).append("null");
        } else {
          out.append(first ? slotOpen[s] : slotOpenNext[s]);
          appendEscaped(v, out);
          out.append('"');
        }
        first = false;
      }
      out.append('}');
    }

    /**
     * Appends the canonical JSON of a row map (e.g. after transforms) to {@code out}: uses the
     * pre-sorted keys when the map's key set equals this header's (optionally plus {@code _extra}),
     * otherwise falls back to {@link CanonicalJson#write(Object, StringBuilder)}. Output is
     * identical either way.
     */
    public void write(Map<String, ?> row, StringBuilder out) {
      int size = row.size();
      boolean withExtra;
      if (size == uniqueKeys) {
        withExtra = false;
      } else if (size == uniqueKeys + 1 && extraSlot >= 0 && slotColumn[extraSlot] < 0) {
        withExtra = true;
      } else {
        CanonicalJson.write(row, out);
        return;
      }
      int mark = out.length();
      out.append('{');
      boolean first = true;
      for (int s = 0; s < slotKeys.length; s++) {
        if (s == extraSlot && slotColumn[s] < 0 && !withExtra) {
          continue;
        }
        String key = slotKeys[s];
        Object v = row.get(key);
        if (v == null && !row.containsKey(key)) {
          out.setLength(mark);
          CanonicalJson.write(row, out);
          return;
        }
        sep(first, out);
        first = false;
        out.append(slotPrefix[s]);
        if (v instanceof String str) {
          appendString(str, out);
        } else {
          CanonicalJson.write(v, out);
        }
      }
      out.append('}');
    }

    private static void sep(boolean first, StringBuilder out) {
      if (!first) {
        out.append(", ");
      }
    }
  }
}
