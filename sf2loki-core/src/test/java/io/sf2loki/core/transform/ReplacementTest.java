package io.sf2loki.core.transform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ReplacementTest {
  private static final PortableRegex TWO = PortableRegex.compile("(?P<user>\\w+)@(\\w+)");

  private static String sub(String replacement, String input) {
    return TWO.replaceAll(input, Replacement.parse(replacement, TWO));
  }

  @Test
  @DisplayName("XF-5: \\1…\\99, \\g<n>, \\g<name>, \\n, \\t, \\\\ and a literal $")
  void xf5_escapes() {
    assertThat(sub("\\2:\\1", "me@host")).isEqualTo("host:me");
    assertThat(sub("\\g<2>\\g<user>\\g<0>", "me@host")).isEqualTo("hostmeme@host");
    assertThat(sub("$1 $0 ${user}", "me@host")).isEqualTo("$1 $0 ${user}");
    assertThat(sub("a\\nb\\tc\\\\d", "x@y")).isEqualTo("a\nb\tc\\d");
    assertThat(sub("\\g<1>0", "x@y")).isEqualTo("x0");
  }

  @Test
  @DisplayName("XF-5: the replacement is literal when it holds no reference")
  void xf5_literal() {
    assertThat(Replacement.parse("[redacted]", TWO).isLiteral()).isTrue();
    assertThat(Replacement.parse("\\1", TWO).isLiteral()).isFalse();
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      textBlock =
          """
          a\\           | 1 | trailing backslash
          \\0           | 0 | octal escape \\0
          \\012         | 0 | octal escape \\0
          \\123         | 0 | three-digit octal
          \\3           | 0 | invalid group reference 3
          \\12          | 0 | invalid group reference 12
          \\10          | 0 | invalid group reference 10
          \\g<3>        | 0 | invalid group reference 3
          \\g<nope>     | 0 | unknown group name 'nope'
          \\g<>         | 0 | unknown group name ''
          \\g1          | 0 | \\g must be written
          \\g<1         | 0 | \\g must be written
          x\\r          | 1 | escape \\r
          \\$           | 0 | escape \\$
          \\.           | 0 | escape \\.
          \\a           | 0 | escape \\a
          \\x41         | 0 | escape \\x
          \\u00e9       | 0 | escape \\u
          """)
  @DisplayName("CFG-19, XF-5: any other escape, and a reference to a missing group, is refused")
  void xf5_rejected(String replacement, int position, String what) {
    assertThatThrownBy(() -> Replacement.parse(replacement, TWO))
        .isInstanceOf(PortableRegexException.class)
        .hasMessageStartingWith("at code point " + position + " (0-based): ")
        .hasMessageContaining(what);
  }

  @Test
  @DisplayName("XF-12: an unmatched group inserts nothing")
  void xf12_unmatchedGroup() {
    PortableRegex r = PortableRegex.compile("(a)|(b)");
    assertThat(r.replaceAll("ab", Replacement.parse("<\\1\\2>", r))).isEqualTo("<a><b>");
  }
}
