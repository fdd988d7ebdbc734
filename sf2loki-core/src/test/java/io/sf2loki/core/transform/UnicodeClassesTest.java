package io.sf2loki.core.transform;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Every code point Python 3.11 (Unicode 14) has assigned is in the translated {@code \w}, {@code
 * \d}, {@code \s} exactly when Python's {@code re} puts it there ({@code gen_classes.py}).
 */
class UnicodeClassesTest {

  private static Map<String, BitSet> load() throws IOException {
    Map<String, BitSet> sets = new HashMap<>();
    try (InputStream in = UnicodeClassesTest.class.getResourceAsStream("python-classes.txt")) {
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        if (line.startsWith("#") || line.isBlank()) {
          continue;
        }
        String[] kv = line.split(" ", 2);
        BitSet set = new BitSet();
        for (String r : kv[1].split(",")) {
          String[] ends = r.split("-");
          int lo = Integer.parseInt(ends[0], 16);
          int hi = ends.length == 1 ? lo : Integer.parseInt(ends[1], 16);
          set.set(lo, hi + 1);
        }
        sets.put(kv[0], set);
      }
    }
    return sets;
  }

  @Test
  @DisplayName(
      "XF-5, XF-12: \\w, \\d, \\s, \\W, \\D, \\S match what 1.x matched, code point by code point")
  void xf12_classesMatchPython() throws IOException {
    Map<String, BitSet> py = load();
    BitSet unassigned = py.get("cn");
    for (String c : new String[] {"w", "d", "s"}) {
      Pattern in = PortableRegex.compile("\\" + c).pattern();
      Pattern out = PortableRegex.compile("\\" + c.toUpperCase()).pattern();
      Pattern inClass = PortableRegex.compile("[\\" + c + "]").pattern();
      Pattern negClass = PortableRegex.compile("[^\\" + c.toUpperCase() + "]").pattern();
      int checked = 0;
      for (int cp = 0; cp <= Character.MAX_CODE_POINT; cp++) {
        if ((cp >= 0xD800 && cp <= 0xDFFF) || unassigned.get(cp)) {
          continue;
        }
        String s = Character.toString(cp);
        boolean expected = py.get(c).get(cp);
        assertThat(in.matcher(s).matches()).as("\\%s U+%04X", c, cp).isEqualTo(expected);
        assertThat(out.matcher(s).matches()).as("\\%S U+%04X", c, cp).isEqualTo(!expected);
        if (cp % 7 == 0) {
          assertThat(inClass.matcher(s).matches()).as("[\\%s] U+%04X", c, cp).isEqualTo(expected);
          assertThat(negClass.matcher(s).matches()).as("[^\\%S] U+%04X", c, cp).isEqualTo(expected);
        }
        checked++;
      }
      assertThat(checked).isGreaterThan(280_000);
    }
  }
}
