package io.sf2loki.core.transform;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * XF-2, XF-15: the exact {@code hash} outputs, recorded from the implementation before the XF-15
 * cost work (and checked against Python's {@code hashlib} for the well-formed texts), so no
 * optimisation of the rule can change what 1.x users compare. Covers the empty salt and text, a
 * salt longer than one SHA-256 block, non-ASCII and lone-surrogate salts and texts (a lone
 * surrogate encodes as {@code ?}), texts at the one/two-block padding boundary, a text longer than
 * any memo keeps, and non-string values (their SRC-8 text form).
 */
class HashGoldenTest {

  static Stream<Arguments> golden() {
    return Stream.of(
        Arguments.of("", "", "e3b0c44298fc1c14"),
        Arguments.of("", "203.0.113.7", "fec52565aa0cf18f"),
        Arguments.of("", "user@example.com", "b4c9a289323b21a0"),
        Arguments.of("", "\u00E9\uD83D\uDE00", "1184d1f608158eea"),
        Arguments.of("", "\uDE00x", "fbd490d1c3030b68"),
        Arguments.of("", "a\uD800", "5289f1df3e143b32"),
        Arguments.of("", "x".repeat(45), "15b526372a5ee9a3"),
        Arguments.of("", "x".repeat(46), "404e0d6b65bc5eac"),
        Arguments.of("", "y".repeat(300), "9637cfead94a85e0"),
        Arguments.of("", 7, "7902699be42c8a8e"),
        Arguments.of("", true, "3cbc87c7681f34db"),
        Arguments.of("", Double.NaN, "9b2d5b4678781e53"),
        Arguments.of("", 12345678901L, "254aa248acb47dd6"),
        Arguments.of("bench-salt", "", "a6a34ea8f5060f28"),
        Arguments.of("bench-salt", "203.0.113.7", "56aff5f2c9d505ef"),
        Arguments.of("bench-salt", "user@example.com", "de1fc3e99ad59d09"),
        Arguments.of("bench-salt", "\u00E9\uD83D\uDE00", "48fa4cd9741a9081"),
        Arguments.of("bench-salt", "\uDE00x", "41b817a8d470ef39"),
        Arguments.of("bench-salt", "a\uD800", "33b52aa2ca230e6d"),
        Arguments.of("bench-salt", "x".repeat(45), "69979187ad302a50"),
        Arguments.of("bench-salt", "x".repeat(46), "06a565a96b150a3a"),
        Arguments.of("bench-salt", "y".repeat(300), "ff2d641c94a2d6d2"),
        Arguments.of("bench-salt", 7, "c0773bdb83173b53"),
        Arguments.of("bench-salt", true, "7c1de9f5c8491317"),
        Arguments.of("bench-salt", Double.NaN, "9e1e4cdb6dd79ae7"),
        Arguments.of("bench-salt", 12345678901L, "252edf7a492e183f"),
        Arguments.of("s\u00E9l", "", "239479c1a302118b"),
        Arguments.of("s\u00E9l", "203.0.113.7", "c05555f01cc62f08"),
        Arguments.of("s\u00E9l", "user@example.com", "2a5d2bce29d7484c"),
        Arguments.of("s\u00E9l", "\u00E9\uD83D\uDE00", "09e42221f5aca4d3"),
        Arguments.of("s\u00E9l", "\uDE00x", "d85f0847a42e96b7"),
        Arguments.of("s\u00E9l", "a\uD800", "ef3b8b1b94c10903"),
        Arguments.of("s\u00E9l", "x".repeat(45), "c15fbd15dd5113bb"),
        Arguments.of("s\u00E9l", "x".repeat(46), "3cfd9821f40cecc7"),
        Arguments.of("s\u00E9l", "y".repeat(300), "b0bff8831f3d65d9"),
        Arguments.of("s\u00E9l", 7, "b40930f9f537ae1d"),
        Arguments.of("s\u00E9l", true, "073c8fd0daca8923"),
        Arguments.of("s\u00E9l", Double.NaN, "b92e78a8bd30edd6"),
        Arguments.of("s\u00E9l", 12345678901L, "f1c22315a9167ddc"),
        Arguments.of("s\uD83D", "", "80b1c11ee622f82a"),
        Arguments.of("s\uD83D", "203.0.113.7", "d9990832d2f875df"),
        Arguments.of("s\uD83D", "user@example.com", "f3216fde66a1bda8"),
        Arguments.of("s\uD83D", "\u00E9\uD83D\uDE00", "239410cb6df2d0a8"),
        Arguments.of("s\uD83D", "\uDE00x", "b6b9a2e37d5033da"),
        Arguments.of("s\uD83D", "a\uD800", "2077b9c8dcd7eb0d"),
        Arguments.of("s\uD83D", "x".repeat(45), "7011a6f9130bd80f"),
        Arguments.of("s\uD83D", "x".repeat(46), "1c2cc3f74a2403e3"),
        Arguments.of("s\uD83D", "y".repeat(300), "d7184e23c21d884a"),
        Arguments.of("s\uD83D", 7, "3b9015574344a798"),
        Arguments.of("s\uD83D", true, "3acc71be8d8f52d0"),
        Arguments.of("s\uD83D", Double.NaN, "18925952717fc526"),
        Arguments.of("s\uD83D", 12345678901L, "8438819321b71377"),
        Arguments.of("\uD83D\uDE00", "", "f0443a342c5ef547"),
        Arguments.of("\uD83D\uDE00", "203.0.113.7", "15d147bb7814fd28"),
        Arguments.of("\uD83D\uDE00", "user@example.com", "f46917f891ee4bb7"),
        Arguments.of("\uD83D\uDE00", "\u00E9\uD83D\uDE00", "7d2683d9065a8659"),
        Arguments.of("\uD83D\uDE00", "\uDE00x", "38232d3abc4e3b39"),
        Arguments.of("\uD83D\uDE00", "a\uD800", "4e8b2daa83fa0f99"),
        Arguments.of("\uD83D\uDE00", "x".repeat(45), "3688f56d91bae969"),
        Arguments.of("\uD83D\uDE00", "x".repeat(46), "1ca3c6c94b89e43e"),
        Arguments.of("\uD83D\uDE00", "y".repeat(300), "3f070ae16bbba743"),
        Arguments.of("\uD83D\uDE00", 7, "91e65fd331fee534"),
        Arguments.of("\uD83D\uDE00", true, "49095688820f03dd"),
        Arguments.of("\uD83D\uDE00", Double.NaN, "f3839ff60ed6e6b2"),
        Arguments.of("\uD83D\uDE00", 12345678901L, "aabce283bfa9ab7e"),
        Arguments.of("S".repeat(70), "", "133e4ac116c265d3"),
        Arguments.of("S".repeat(70), "203.0.113.7", "a81e840d6c60001f"),
        Arguments.of("S".repeat(70), "user@example.com", "e8df0759d83fab5b"),
        Arguments.of("S".repeat(70), "\u00E9\uD83D\uDE00", "02fa46972a6e6103"),
        Arguments.of("S".repeat(70), "\uDE00x", "56a08f767e9e5539"),
        Arguments.of("S".repeat(70), "a\uD800", "ca5fd7a1c95d988e"),
        Arguments.of("S".repeat(70), "x".repeat(45), "b30999e647a66998"),
        Arguments.of("S".repeat(70), "x".repeat(46), "cea161475ed4a32b"),
        Arguments.of("S".repeat(70), "y".repeat(300), "2b9f5619e68639ff"),
        Arguments.of("S".repeat(70), 7, "c2d305c7a5ad4dad"),
        Arguments.of("S".repeat(70), true, "d89070070df5c1d9"),
        Arguments.of("S".repeat(70), Double.NaN, "81fe7eddd43dfa8b"),
        Arguments.of("S".repeat(70), 12345678901L, "f1f0c8b2f859fb96"));
  }

  private static String hash(String salt, Object value) {
    Map<String, Object> r = new HashMap<>();
    r.put("F", value);
    TransformChain.compile(List.of(TransformSpec.of(TransformAction.HASH, "F")), salt).apply(r);
    return (String) r.get("F");
  }

  @ParameterizedTest(name = "[{index}] salt={0} value={1}")
  @MethodSource("golden")
  @DisplayName("XF-2: hash output is byte-identical to the recorded golden value")
  void xf2_goldenHash(String salt, Object value, String expected) {
    assertThat(hash(salt, value)).isEqualTo(expected);
  }

  @Test
  @DisplayName("XF-15: one chain gives the golden values in any order, repeated and after eviction")
  void xf15_goldenAcrossRepeatsAndEviction() {
    TransformChain c =
        TransformChain.compile(List.of(TransformSpec.of(TransformAction.HASH, "F")), "bench-salt");
    List<Object[]> cases = new ArrayList<>();
    golden().map(Arguments::get).filter(a -> a[0].equals("bench-salt")).forEach(cases::add);
    for (int round = 0; round < 3; round++) {
      for (Object[] g : cases) {
        Map<String, Object> r = new HashMap<>();
        r.put("F", g[1]);
        c.apply(r);
        assertThat(r.get("F")).as("round %d value %s", round, g[1]).isEqualTo(g[2]);
      }
      for (int i = 0; i < 1000; i++) { // many other values in between
        Map<String, Object> r = new HashMap<>();
        r.put("F", "10.0." + (i / 256) + "." + (i % 256));
        c.apply(r);
      }
    }
  }
}
