package io.sf2loki.core.transform;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class GlobTest {

  static List<Arguments> pythonGlob() {
    return PythonCases.glob();
  }

  @ParameterizedTest(name = "[{index}] fnmatchcase({1}, {0}) = {2}")
  @MethodSource("pythonGlob")
  @DisplayName("XF-11: globs answer as 1.x's fnmatch.fnmatchcase (recorded from Python)")
  void xf11_matchesPython(String glob, String text, boolean expected) {
    assertThat(Glob.compile(glob).matches(text)).isEqualTo(expected);
  }

  @Test
  @DisplayName("XF-11: whole string, case-sensitive, * crosses '/', ? is one character")
  void xf11_basics() {
    assertThat(Glob.compile("/event/*").matches("/event/LoginEventStream")).isTrue();
    assertThat(Glob.compile("/event/*").matches("/data/x/event/y")).isFalse();
    assertThat(Glob.compile("*Stream").matches("/event/a/b/LoginStream")).isTrue();
    assertThat(Glob.compile("login").matches("Login")).isFalse();
    assertThat(Glob.compile("a?c").matches("abc")).isTrue();
    assertThat(Glob.compile("a?c").matches("ac")).isFalse();
    assertThat(Glob.compile("[!0-9]*").matches("x1")).isTrue();
    assertThat(Glob.compile("[!0-9]*").matches("1x")).isFalse();
    assertThat(Glob.compile("a.b+c").matches("a.b+c")).isTrue();
    assertThat(Glob.compile("a.b+c").matches("aXbbc")).isFalse();
    assertThat(Glob.compile("x").source()).isEqualTo("x");
  }
}
