package io.sf2loki.core.transform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class TransformChainTest {

  private static Map<String, Object> row(Object... kv) {
    Map<String, Object> m = new HashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put((String) kv[i], kv[i + 1]);
    }
    return m;
  }

  private static TransformChain chain(String salt, TransformSpec... specs) {
    return TransformChain.compile(List.of(specs), salt);
  }

  static List<Arguments> pythonHash() {
    return PythonCases.hash();
  }

  @ParameterizedTest(name = "[{index}] salt={0} text={1}")
  @MethodSource("pythonHash")
  @DisplayName("XF-2: first 16 hex of SHA-256(UTF-8(salt + text form)), as hashlib computes it")
  void xf2_hashMatchesPython(String salt, String text, String expected) {
    Map<String, Object> r = row("F", text);
    chain(salt, TransformSpec.of(TransformAction.HASH, "F")).apply(r);
    assertThat(r.get("F")).isEqualTo(expected);
  }

  @Test
  @DisplayName("XF-2, SRC-8: non-strings hash their text form; null and absent are left alone")
  void xf2_textFormNullAbsent() {
    TransformChain c = chain("", TransformSpec.of(TransformAction.HASH, "B", "N", "Z", "A"));
    Map<String, Object> r = row("B", true, "N", Double.NaN, "Z", null);
    Map<String, Object> s = row("B", "True", "N", "nan");
    c.apply(r);
    c.apply(s);
    assertThat(r.get("B")).isEqualTo(s.get("B")).isEqualTo("3cbc87c7681f34db");
    assertThat(r.get("N")).isEqualTo(s.get("N"));
    assertThat(r).containsEntry("Z", null).doesNotContainKey("A");
  }

  @Test
  @DisplayName("XF-2: a salt that ends in a lone high surrogate still hashes salt + text")
  void xf2_saltSurrogateBoundary() {
    Map<String, Object> split = row("F", "\uDE00x");
    chain("s\uD83D", TransformSpec.of(TransformAction.HASH, "F")).apply(split);
    Map<String, Object> whole = row("F", "s\uD83D\uDE00x");
    chain("", TransformSpec.of(TransformAction.HASH, "F")).apply(whole);
    assertThat(split.get("F")).isEqualTo(whole.get("F"));
  }

  @ParameterizedTest(name = "[{index}] {0} -> {1}")
  @CsvSource(
      delimiterString = " -> ",
      textBlock =
          """
          jane.doe@example.com -> ***@example.com
          a@b@c -> ***@b@c
          @x -> ***@x
          203.0.113.7 -> 203.0.113.x
          0.0.0.0 -> 0.0.0.x
          255.255.255.255 -> 255.255.255.x
          256.1.1.1 -> ***
          01.2.3.4 -> ***
          1.2.3 -> ***
          1.2.3.4.5 -> ***
          1.2.3.4  -> 1.2.3.x
          1..3.4 -> ***
          1.2.3.0004 -> ***
          1.2.3.a -> ***
          ١.٢.٣.٤ -> ***
          2001:db8::1 -> ***
          secret -> ***
          """)
  @DisplayName(
      "XF-3: e-mail keeps the domain, strict dotted-quad IPv4 keeps three octets, else ***")
  void xf3_mask(String in, String out) {
    Map<String, Object> r = row("F", in);
    chain("", TransformSpec.of(TransformAction.MASK, "F")).apply(r);
    assertThat(r.get("F")).isEqualTo(out);
  }

  @Test
  @DisplayName("XF-3: mask works on the text form and leaves null and absent alone")
  void xf3_maskTypes() {
    Map<String, Object> r = row("I", 42, "E", "", "Z", null);
    chain("", TransformSpec.of(TransformAction.MASK, "I", "E", "Z", "A")).apply(r);
    assertThat(r).containsEntry("I", "***").containsEntry("E", "***").containsEntry("Z", null);
    assertThat(r).doesNotContainKey("A");
  }

  @Test
  @DisplayName("XF-4: drop_field removes the keys; absent keys are fine")
  void xf4_dropField() {
    Map<String, Object> r = row("A", 1, "B", null, "C", "c");
    assertThat(chain("", TransformSpec.of(TransformAction.DROP_FIELD, "A", "B", "X")).apply(r))
        .isEqualTo(TransformChain.Verdict.KEEP);
    assertThat(r).containsOnlyKeys("C");
  }

  @Test
  @DisplayName("XF-5: regex_replace rewrites the text form of each present, non-null field")
  void xf5_regexReplace() {
    TransformChain c =
        chain("", TransformSpec.regexReplace("(?P<d>\\d)\\d*", "<\\g<d>>", "S", "I", "Z", "A"));
    Map<String, Object> r = row("S", "id 123 and 45", "I", new BigDecimal("12.50"), "Z", null);
    c.apply(r);
    assertThat(r)
        .containsEntry("S", "id <1> and <4>")
        .containsEntry("I", "<1>.<5>")
        .containsEntry("Z", null)
        .doesNotContainKey("A");
  }

  @Test
  @DisplayName("XF-13: hash, mask and regex_replace write strings, also when nothing matched")
  void xf13_resultsAreStrings() {
    Map<String, Object> r = row("I", 7, "L", List.of(1, "a"), "M", Map.of("k", true));
    chain("", TransformSpec.regexReplace("x", "y", "I", "L", "M")).apply(r);
    assertThat(r)
        .containsEntry("I", "7")
        .containsEntry("L", "[1, \"a\"]")
        .containsEntry("M", "{\"k\": true}");
  }

  @Test
  @DisplayName("XF-6: drop_row drops iff every glob matches; absent is \"\", null is None")
  void xf6_dropRow() {
    Map<String, String> match = new LinkedHashMap<>();
    match.put("USER_TYPE", "Guest*");
    match.put("URI", "");
    match.put("FLAG", "None");
    TransformChain c = chain("", TransformSpec.dropRow(match).named("guests"));
    assertThat(c.apply(row("USER_TYPE", "GuestUser", "FLAG", null)))
        .isEqualTo(new TransformChain.Verdict(false, "guests"));
    assertThat(c.apply(row("USER_TYPE", "GuestUser", "FLAG", "None")).kept()).isFalse();
    assertThat(c.apply(row("USER_TYPE", "GuestUser", "FLAG", null, "URI", "/x")).kept()).isTrue();
    assertThat(c.apply(row("USER_TYPE", "guestuser", "FLAG", null)).kept()).isTrue();
    assertThat(c.apply(row("USER_TYPE", "GuestUser")).kept()).as("absent FLAG is \"\"").isTrue();
    assertThat(c.apply(row("USER_TYPE", "GuestUser", "URI", null, "FLAG", null)).kept())
        .as("null URI is None, not \"\"")
        .isTrue();
  }

  @Test
  @DisplayName("XF-6: drop_row sees the booleans' and numbers' text form")
  void xf6_textForm() {
    TransformChain c = chain("", TransformSpec.dropRow(Map.of("OK", "True", "N", "1?")));
    assertThat(c.apply(row("OK", true, "N", 12)).kept()).isFalse();
    assertThat(c.apply(row("OK", false, "N", 12)).kept()).isTrue();
  }

  @Test
  @DisplayName("XF-1, XF-7: rules run in list order; a drop names the rule (name or action-index)")
  void xf1_orderAndNames() {
    TransformChain c =
        chain(
            "",
            TransformSpec.of(TransformAction.MASK, "IP"),
            TransformSpec.dropRow(Map.of("IP", "10.0.0.x")),
            TransformSpec.of(TransformAction.DROP_FIELD, "IP"));
    assertThat(c.metricNames()).containsExactly("mask-0", "drop_row-1", "drop_field-2");
    assertThat(c.dropRowRuleNames()).containsExactly("drop_row-1");
    Map<String, Object> internal = row("IP", "10.0.0.9");
    assertThat(c.apply(internal)).isEqualTo(new TransformChain.Verdict(false, "drop_row-1"));
    Map<String, Object> external = row("IP", "203.0.113.9", "X", "x");
    assertThat(c.apply(external)).isSameAs(TransformChain.Verdict.KEEP);
    assertThat(external).containsOnlyKeys("X");
  }

  @Test
  @DisplayName("XF-1: an empty list is the shared no-op chain")
  void xf1_empty() {
    assertThat(TransformChain.compile(List.of(), "s")).isSameAs(TransformChain.EMPTY);
    Map<String, Object> r = row("A", 1);
    assertThat(TransformChain.EMPTY.apply(r).kept()).isTrue();
    assertThat(r).containsEntry("A", 1);
  }

  @Test
  @DisplayName("CFG-24: the chain names its hash rules so the caller can warn about a missing salt")
  void cfg24_hashRules() {
    TransformChain c =
        chain(
            "",
            TransformSpec.of(TransformAction.HASH, "A").named("ip"),
            TransformSpec.of(TransformAction.MASK, "B"),
            TransformSpec.of(TransformAction.HASH, "C"));
    assertThat(c.hashRuleNames()).containsExactly("ip", "hash-2");
  }

  @Test
  @DisplayName("CFG-19: a rule that cannot run is refused with its index")
  void cfg19_invalidRules() {
    assertThatThrownBy(
            () ->
                chain(
                    "",
                    TransformSpec.of(TransformAction.MASK, "A"),
                    TransformSpec.regexReplace("(?=x)", "", "A")))
        .isInstanceOf(InvalidTransformException.class)
        .hasMessage(
            "transforms.1: regex_replace outside XF-5: at code point 0 (0-based): look-around is"
                + " not portable");
    assertThatThrownBy(() -> chain("", TransformSpec.regexReplace("(a)", "\\2", "A")))
        .isInstanceOf(InvalidTransformException.class)
        .hasMessageContaining("invalid group reference 2");
    assertThatThrownBy(() -> chain("", TransformSpec.of(TransformAction.HASH)))
        .hasMessage("transforms.0: hash needs non-empty fields");
    assertThatThrownBy(() -> chain("", TransformSpec.dropRow(Map.of())))
        .hasMessage("transforms.0: drop_row needs a non-empty match");
    assertThatThrownBy(
            () ->
                chain(
                    "",
                    new TransformSpec(
                        TransformAction.REGEX_REPLACE, List.of("A"), Map.of(), null, "", "")))
        .hasMessage("transforms.0: regex_replace needs a pattern");
  }
}
