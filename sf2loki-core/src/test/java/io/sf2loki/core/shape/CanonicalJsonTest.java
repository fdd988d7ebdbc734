package io.sf2loki.core.shape;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class CanonicalJsonTest {

  @Test
  @DisplayName("SRC-7: NaN, Infinity and -Infinity are written bare")
  void nonFinite() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("n", Double.NaN);
    m.put("p", Double.POSITIVE_INFINITY);
    m.put("m", Double.NEGATIVE_INFINITY);
    m.put("f", Float.NaN);
    assertThat(CanonicalJson.write(m))
        .isEqualTo("{\"f\": NaN, \"m\": -Infinity, \"n\": NaN, \"p\": Infinity}");
  }

  @Test
  @DisplayName(
      "SRC-7/SRC-8: byte arrays, decimals and instants are JSON strings of their text form")
  void otherObjectsViaTextForm() {
    assertThat(CanonicalJson.write(new byte[] {'a', 0})).isEqualTo("\"b'a\\\\x00'\"");
    assertThat(CanonicalJson.write(ByteBuffer.wrap("it's".getBytes())))
        .isEqualTo("\"b\\\"it's\\\"\"");
    assertThat(CanonicalJson.write(new BigDecimal("12.50"))).isEqualTo("\"12.50\"");
    assertThat(CanonicalJson.write(new BigDecimal("1E+2"))).isEqualTo("\"1E+2\"");
    assertThat(CanonicalJson.write(Instant.parse("2024-05-01T10:00:00.123456789Z")))
        .isEqualTo("\"2024-05-01 10:00:00.123456+00:00\"");
  }

  @Test
  @DisplayName("SRC-7: integers of every Java type, floats widened, characters as strings")
  void numbers() {
    assertThat(CanonicalJson.write(List.of(1, 2L, (short) 3, (byte) -4, 3.14f, 'x', -0.0)))
        .isEqualTo("[1, 2, 3, -4, 3.140000104904175, \"x\", -0.0]");
    assertThat(CanonicalJson.write(new int[] {1, 2})).isEqualTo("[1, 2]");
    assertThat(CanonicalJson.write(new Object[] {null, true})).isEqualTo("[null, true]");
  }

  @Test
  @DisplayName("SRC-7: floats use Python repr layout")
  void floatLayout() {
    assertThat(CanonicalJson.write(List.of(1e16, 1.5e16, 1e-5, 1e-4, 123.5, 1e15, 5e-324)))
        .isEqualTo("[1e+16, 1.5e+16, 1e-05, 0.0001, 123.5, 1000000000000000.0, 5e-324]");
    assertThat(CanonicalJson.write(List.of(Double.MAX_VALUE, Double.MIN_NORMAL, 1e100, 2e-7)))
        .isEqualTo("[1.7976931348623157e+308, 2.2250738585072014e-308, 1e+100, 2e-07]");
    assertThat(CanonicalJson.write(List.of(123456789.123, 1.0 / 3, 2.5e-5, -1e300, 12345678.9)))
        .isEqualTo("[123456789.123, 0.3333333333333333, 2.5e-05, -1e+300, 12345678.9]");
  }

  @Test
  @DisplayName("SRC-7: random doubles round-trip with no more digits than Java's shortest")
  void randomDoublesRoundTrip() {
    long seed = System.nanoTime();
    Random rnd = new Random(seed);
    for (int i = 0; i < 20_000; i++) {
      double d = Double.longBitsToDouble(rnd.nextLong());
      if (!Double.isFinite(d)) {
        continue;
      }
      String s = CanonicalJson.write(d);
      assertThat(Double.parseDouble(s)).as("seed %d value %s", seed, s).isEqualTo(d);
      assertThat(significantDigits(s))
          .as("seed %d value %s", seed, s)
          .isLessThanOrEqualTo(significantDigits(Double.toString(d)));
    }
  }

  @Test
  @DisplayName("SRC-7: 5906 doubles render exactly as Python repr (golden float_repr.tsv)")
  void pythonReprGolden() throws java.io.IOException {
    int checked = 0;
    try (var in = getClass().getResourceAsStream("/golden/float_repr.tsv");
        var r =
            new java.io.BufferedReader(
                new java.io.InputStreamReader(in, java.nio.charset.StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        if (line.startsWith("#")) {
          continue;
        }
        String[] f = line.split("\t");
        double d = Double.longBitsToDouble(Long.parseUnsignedLong(f[0], 16));
        assertThat(CanonicalJson.write(d)).as(f[0]).isEqualTo(f[1]);
        assertThat(TextForm.of(d)).isEqualTo(f[1]);
        checked++;
      }
    }
    assertThat(checked).isEqualTo(5906);
  }

  private static int significantDigits(String s) {
    String m = s.toLowerCase().split("e")[0].replace("-", "").replace(".", "");
    m = m.replaceAll("^0+", "").replaceAll("0+$", "");
    return Math.max(1, m.length());
  }

  @Test
  @DisplayName("SRC-7: keys sort by code point, not by UTF-16 unit")
  void codePointOrder() {
    Map<String, Object> m = new HashMap<>();
    m.put("\uD83D\uDE00", 1);
    m.put("\uFFFF", 2);
    m.put("\uE000", 3);
    m.put("a", 4);
    assertThat(CanonicalJson.write(m))
        .isEqualTo("{\"a\": 4, \"\\ue000\": 3, \"\\uffff\": 2, \"\\ud83d\\ude00\": 1}");
    assertThat(CanonicalJson.compareCodePoints("\uD83D\uDE00", "\uFFFF")).isPositive();
    assertThat(CanonicalJson.compareCodePoints("ab", "a")).isPositive();
    assertThat(CanonicalJson.compareCodePoints("a", "a")).isZero();
  }

  @Test
  @DisplayName("SRC-7: string escapes (named, control, DEL, non-ASCII, slash kept)")
  void escapes() {
    assertThat(CanonicalJson.write("a\"\\/\u0000\u007f\u00e9\b\f\n\r\t~ "))
        .isEqualTo("\"a\\\"\\\\/\\u0000\\u007f\\u00e9\\b\\f\\n\\r\\t~ \"");
  }

  @Test
  @DisplayName("SRC-7 / ELF-9: RowWriter equals the generic writer (dict semantics, _extra)")
  void rowWriterMatchesGeneric() {
    List<String> header = List.of("USER_ID", "TIMESTAMP", "a", "\u00e9", "Z", "USER_ID", "_f");
    CanonicalJson.RowWriter w = new CanonicalJson.RowWriter(header);
    assertThat(w.columnCount()).isEqualTo(7);
    String[] exact = {"u1", "2024", "x\"y", "\u65e5", "z", "u2", "f"};
    assertThat(w.write(exact)).isEqualTo(CanonicalJson.write(dict(header, exact)));
    assertThat(w.write(exact))
        .isEqualTo(
            "{\"TIMESTAMP\": \"2024\", \"USER_ID\": \"u2\", \"Z\": \"z\", \"_f\": \"f\","
                + " \"a\": \"x\\\"y\", \"\\u00e9\": \"\\u65e5\"}");
    String[] shortRow = {"u1", "2024"};
    assertThat(w.write(shortRow)).isEqualTo(CanonicalJson.write(dict(header, shortRow)));
    String[] longRow = {"u1", "2024", "a", "b", "c", "d", "e", "x1", "x\n2"};
    String json = w.write(longRow);
    assertThat(json).isEqualTo(CanonicalJson.write(dict(header, longRow)));
    assertThat(json).contains("\"_extra\": \"x1,x\\n2\", \"_f\": \"e\"");
  }

  @Test
  @DisplayName(
      "SRC-7: RowWriter renders a null cell as null, first or later, and a missing cell as \"\"")
  void rowWriterNullAndMissingCells() {
    CanonicalJson.RowWriter w = new CanonicalJson.RowWriter(List.of("b", "a", "c"));
    assertThat(w.write(new String[] {null, null}))
        .isEqualTo("{\"a\": null, \"b\": null, \"c\": \"\"}");
    assertThat(w.write(new String[] {"", "x\"", null}))
        .isEqualTo("{\"a\": \"x\\\"\", \"b\": \"\", \"c\": null}");
  }

  @Test
  @DisplayName("ELF-9: a header column named _extra is overridden by extra cells")
  void rowWriterExtraColumn() {
    List<String> header = List.of("b", "_extra", "a");
    CanonicalJson.RowWriter w = new CanonicalJson.RowWriter(header);
    assertThat(w.write(new String[] {"1", "2", "3"}))
        .isEqualTo("{\"_extra\": \"2\", \"a\": \"3\", \"b\": \"1\"}");
    assertThat(w.write(new String[] {"1", "2", "3", "4", "5"}))
        .isEqualTo("{\"_extra\": \"4,5\", \"a\": \"3\", \"b\": \"1\"}");
  }

  @Test
  @DisplayName("SRC-7: RowWriter map path equals generic, with fallback for other key sets")
  void rowWriterMapPath() {
    List<String> header = List.of("B", "a", "C");
    CanonicalJson.RowWriter w = new CanonicalJson.RowWriter(header);
    Map<String, Object> row = new LinkedHashMap<>(dict(header, new String[] {"1", "2", "3"}));
    assertThat(render(w, row)).isEqualTo(CanonicalJson.write(row));
    row.put("_extra", "x,y");
    assertThat(render(w, row)).isEqualTo(CanonicalJson.write(row));
    row.remove("_extra");
    row.remove("C"); // drop_field
    assertThat(render(w, row)).isEqualTo("{\"B\": \"1\", \"a\": \"2\"}");
    row.put("D", 4); // same size, different keys
    assertThat(render(w, row)).isEqualTo("{\"B\": \"1\", \"D\": 4, \"a\": \"2\"}");
    StringBuilder prefix = new StringBuilder("X");
    w.write(new TreeMap<>(Map.of("B", "1", "a", 2.5, "C", List.of())), prefix);
    assertThat(prefix.toString()).isEqualTo("X{\"B\": \"1\", \"C\": [], \"a\": 2.5}");
  }

  @Test
  @DisplayName("SRC-7: random CSV rows via RowWriter equal the generic writer")
  void rowWriterRandom() {
    long seed = System.nanoTime();
    Random rnd = new Random(seed);
    String alphabet = "aAbB_Z0\u00e9\uE000\uD83D\uDE00\"\\\n";
    for (int iter = 0; iter < 300; iter++) {
      int cols = 1 + rnd.nextInt(8);
      List<String> header = new ArrayList<>();
      for (int c = 0; c < cols; c++) {
        header.add(rnd.nextInt(10) == 0 ? "_extra" : randomString(rnd, alphabet, 3));
      }
      CanonicalJson.RowWriter w = new CanonicalJson.RowWriter(header);
      String[] row = new String[rnd.nextInt(cols + 3)];
      for (int i = 0; i < row.length; i++) {
        row[i] = randomString(rnd, alphabet, 4);
      }
      assertThat(w.write(row))
          .as("seed %d header %s row %s", seed, header, Arrays.toString(row))
          .isEqualTo(CanonicalJson.write(dict(header, row)));
    }
  }

  private static String render(CanonicalJson.RowWriter w, Map<String, ?> row) {
    StringBuilder sb = new StringBuilder();
    w.write(row, sb);
    return sb.toString();
  }

  private static String randomString(Random rnd, String alphabet, int maxLen) {
    StringBuilder sb = new StringBuilder();
    int len = rnd.nextInt(maxLen + 1);
    for (int i = 0; i < len; i++) {
      int p = rnd.nextInt(alphabet.length());
      char c = alphabet.charAt(p);
      if (Character.isHighSurrogate(c)) {
        sb.append(c).append(alphabet.charAt(p + 1));
      } else if (!Character.isLowSurrogate(c)) {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  /** Python csv.DictReader semantics with restkey joined by ",". */
  private static Map<String, Object> dict(List<String> header, String[] row) {
    Map<String, Object> d = new HashMap<>();
    for (int i = 0; i < Math.min(header.size(), row.length); i++) {
      d.put(header.get(i), row[i]);
    }
    for (int i = row.length; i < header.size(); i++) {
      d.put(header.get(i), "");
    }
    if (row.length > header.size()) {
      d.put("_extra", String.join(",", Arrays.asList(row).subList(header.size(), row.length)));
    }
    return d;
  }
}
