package io.sf2loki.core.transform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class PortableRegexTest {

  static List<Arguments> pythonSub() {
    return PythonCases.sub();
  }

  @ParameterizedTest(name = "[{index}] re.sub({0}, {1}, …)")
  @MethodSource("pythonSub")
  @DisplayName("XF-5, XF-12: re.sub answers recorded from Python 3.11 are reproduced exactly")
  void xf5_matchesPython(String pattern, String replacement, String input, String expected) {
    PortableRegex regex = PortableRegex.compile(pattern);
    assertThat(regex.replaceAll(input, Replacement.parse(replacement, regex)))
        .as("translated %s", regex.pattern())
        .isEqualTo(expected);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "",
        "abc",
        "a.b",
        "a|b|",
        "(a)(?:b)(?P<n_1>c)(?P=n_1)",
        "[a-z0-9_]+",
        "[^\\s,]+",
        "[]]",
        "[^]a]",
        "[a-]",
        "[\\-\\]\\\\]",
        "a*b+c?d{2}e{2,}f{2,3}",
        "a*?b+?c??d{2}?e{2,}?f{2,3}?",
        "^\\A\\Z$\\b\\B",
        "(?i)abc",
        "(?m)(?s)(?i)x",
        "(?ims)x",
        "\\d\\w\\s\\D\\W\\S\\t\\n\\r",
        "\\.\\^\\$\\*\\+\\?\\{\\}\\[\\]\\\\\\|\\(\\)",
        "\\-\\/\\#\\&\\~\\'\\\"\\ \\,\\:\\;\\<\\>\\=\\!\\%\\@\\`",
        "}",
        "]",
        "a{65535}",
        "(?:)*",
        "((a)|b)+",
        "é+\u00df",
        "\uD83D\uDE00{2}",
        "[&]",
        "[a&b]",
        "x{0}",
        "(a*)*",
        "(a*)+",
        "(?:a*){0,3}",
        "(?:a*b){2}",
        "(\\b.*)?",
        "((?P<g>a)(?P=g)){2}"
      })
  @DisplayName("XF-5, XF-12: patterns inside the portable grammar load")
  void xf5_accepted(String pattern) {
    assertThat(PortableRegex.compile(pattern).pattern()).isNotNull();
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiterString = " => ",
      quoteCharacter = '"',
      textBlock =
          """
          (?=a) => 0 => look-around
          (?!a) => 0 => look-around
          (?<=a)b => 0 => look-around
          (?<!a)b => 0 => look-around
          a(?i)b => 1 => only as (?i), (?m), (?s) at the start
          (?i:a) => 0 => only as (?i), (?m), (?s) at the start
          (?x)a => 0 => only as (?i), (?m), (?s) at the start
          (?a)a => 0 => only as (?i), (?m), (?s) at the start
          (?<n>a) => 0 => written (?P<name>…)
          (?>a) => 0 => atomic groups
          (?#c)a => 0 => comments
          (a)(?(1)b|c) => 3 => conditional groups
          (a)\\1 => 3 => numbered back-references
          \\0 => 0 => numbered back-references and octal
          a++ => 2 => possessive
          a*+ => 2 => possessive
          a?+ => 2 => possessive
          a{2}+ => 4 => possessive
          a** => 2 => multiple repeat
          a{2}{3} => 4 => multiple repeat
          a??* => 3 => multiple repeat
          *a => 0 => nothing to repeat
          a|* => 2 => nothing to repeat
          (*) => 1 => nothing to repeat
          ^* => 1 => anchor cannot take a quantifier
          \\b+ => 2 => anchor cannot take a quantifier
          a{ => 1 => '{' that does not start a valid quantifier
          a{x} => 1 => '{' that does not start a valid quantifier
          a{,3} => 1 => '{' that does not start a valid quantifier
          a{1,2 => 1 => '{' that does not start a valid quantifier
          {1} => 0 => '{' that does not start a valid quantifier
          a{3,2} => 1 => max below min
          a{65536} => 1 => above 65535
          \\p{L} => 0 => property classes
          \\P{L} => 0 => property classes
          \\x41 => 0 => escape \\x
          \\u0041 => 0 => escape \\u
          \\N{DASH} => 0 => escape \\N
          \\z => 0 => escape \\z
          \\G => 0 => escape \\G
          \\f => 0 => escape \\f
          \\v => 0 => escape \\v
          \\a => 0 => escape \\a
          \\h => 0 => escape \\h
          \\k<n> => 0 => escape \\k
          \\Q.\\E => 0 => escape \\Q
          \\é => 0 => escape \\u00E9
          a\\ => 1 => trailing backslash
          [a => 0 => unterminated character class
          [] => 0 => unterminated character class
          [^] => 0 => unterminated character class
          [a[b] => 2 => nested '['
          [[:alpha:]] => 1 => nested '['
          [a&&b] => 2 => '&&'
          [\\b] => 1 => \\b inside a class
          [\\d-z] => 3 => bad character range
          [a-\\w] => 2 => bad character range
          [z-a] => 2 => end below start
          [\\p{L}] => 1 => property classes
          [\\1] => 1 => numbered back-references
          [\\A] => 1 => escape \\A
          (a => 0 => missing ')'
          a) => 1 => unbalanced ')'
          (?P<a>x)(?P<a>y) => 8 => defined twice
          (?P=a) => 0 => unknown group
          (?P<a>(?P=a)) => 6 => inside that group
          (?P<1a>x) => 4 => ASCII identifiers
          (?P<é>x) => 4 => ASCII identifiers
          (?P<>x) => 4 => missing group name
          (?P<a => 4 => unterminated group name
          (?P => 0 => group syntax
          (\\b.*|x){2} => 0 => group that can match the empty string
          (?:a*){2,} => 0 => group that can match the empty string
          x(a|){3} => 1 => group that can match the empty string
          ((?P<g>a?)(?P=g)){2} => 0 => group that can match the empty string
          """)
  @DisplayName("CFG-19, XF-5, XF-12: anything else is refused with its position and what it is")
  void xf5_rejected(String pattern, int position, String what) {
    assertThatThrownBy(() -> PortableRegex.compile(pattern))
        .isInstanceOf(PortableRegexException.class)
        .hasMessageStartingWith("at code point " + position + " (0-based): ")
        .hasMessageContaining(what)
        .extracting(e -> ((PortableRegexException) e).position())
        .isEqualTo(position);
  }

  @Test
  @DisplayName("XF-5: \\Z is the end of input, $ also matches before a final LF")
  void xf5_endAnchors() {
    assertThat(PortableRegex.compile("x\\Z").pattern().matcher("x\n").find()).isFalse();
    assertThat(PortableRegex.compile("x$").pattern().matcher("x\n").find()).isTrue();
    assertThat(PortableRegex.compile("x$").pattern().matcher("x\r\n").find()).isFalse();
    assertThat(PortableRegex.compile("(?m)x$").pattern().matcher("x\u2028").find()).isFalse();
  }

  @Test
  @DisplayName("XF-5: \\d and (?i) are Unicode-aware; . stops only at LF")
  void xf5_unicode() {
    assertThat(PortableRegex.compile("^\\d+$").pattern().matcher("\u0663\u0661").find()).isTrue();
    assertThat(PortableRegex.compile("(?i)^\u00e9$").pattern().matcher("\u00c9").find()).isTrue();
    assertThat(PortableRegex.compile("^.$").pattern().matcher("\r").find()).isTrue();
    assertThat(PortableRegex.compile("^.$").pattern().matcher("\u0085").find()).isTrue();
  }

  @Test
  @DisplayName("XF-12: group numbering counts named groups; names map to their numbers")
  void xf12_groups() {
    PortableRegex r = PortableRegex.compile("(a)(?:b)(?P<user_name>c)(?P<h>d)");
    assertThat(r.groupCount()).isEqualTo(3);
    assertThat(r.groupNumber("user_name")).hasValue(2);
    assertThat(r.groupNumber("h")).hasValue(3);
    assertThat(r.groupNumber("x")).isEmpty();
  }
}
