package io.sf2loki.core.transform;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * XF-15: a {@code \b} before a group that surely starts with a word character translates to one
 * look-behind instead of the general four look-arounds, with identical matches. The reference is
 * the same pattern with an empty group {@code (?:)} after the {@code \b}, which keeps the general
 * form and matches the same texts.
 */
class WordBoundaryFastPathTest {
  private static final String[] PATTERNS = {
    "\\b(?P<prefix>[a-zA-Z0-9]{3})[a-zA-Z0-9]{12}(?:[a-zA-Z0-9]{3})?\\b",
    "\\b(?:[a-z]+)-",
    "\\b(\\w{2,})",
    "\\b((?:\\d)+)x?",
    "(?i)\\b(?P<k>s[a-z]*)",
    "\\b(?:a|b)c",
    "\\b(?:[a-z]?)z",
    "\\b(?:)abc",
    "x\\b(?:[0-9]+)",
    "\\b(?:[]a]+)",
    "\\b(?:\\(a\\)|b)",
    "\\b([a-z]{0,2})q",
    "\\b(?P<w>[A-Z]+)(?P=w)"
  };
  private static final String ALPHABET = "abcsqzAZ09_-( )xé\u017f\u212a\u0301.";

  @ParameterizedTest
  @ValueSource(
      strings = {
        "\\b(?P<prefix>[a-zA-Z0-9]{3})[a-zA-Z0-9]{12}",
        "\\b(?:[a-z]+)-",
        "\\b(\\w{2,})",
        "\\b((?:\\d)+)"
      })
  @DisplayName("XF-15: \\b before a group starting with a word atom is one look-behind")
  void xf15_singleLookBehind(String pattern) {
    assertThat(PortableRegex.compile(pattern).pattern().pattern()).startsWith("(?<![");
  }

  @ParameterizedTest
  @ValueSource(strings = {"\\b(?:a|b)c", "\\b(?:[a-z]?)z", "\\b(?:)abc", "\\b([a-z]{0,2})q"})
  @DisplayName("XF-15: \\b before a group that may start otherwise keeps the general form")
  void xf15_generalFormKept(String pattern) {
    assertThat(PortableRegex.compile(pattern).pattern().pattern()).startsWith("(?:(?<=");
  }

  @RepeatedTest(30)
  @DisplayName("XF-15: the one-look-behind \\b replaces exactly what the general form replaces")
  void xf15_sameReplacements() {
    long seed = System.nanoTime();
    Random r = new Random(seed);
    for (String p : PATTERNS) {
      PortableRegex fast = PortableRegex.compile(p);
      PortableRegex general = PortableRegex.compile(p.replace("\\b(", "\\b(?:)("));
      Replacement rf = Replacement.parse("<\\g<0>>", fast);
      Replacement rg = Replacement.parse("<\\g<0>>", general);
      for (int i = 0; i < 200; i++) {
        StringBuilder text = new StringBuilder();
        int n = r.nextInt(30);
        for (int k = 0; k < n; k++) {
          text.append(ALPHABET.charAt(r.nextInt(ALPHABET.length())));
        }
        String t = text.toString();
        assertThat(fast.replaceAll(t, rf))
            .as("seed %d pattern %s text %s", seed, p, t)
            .isEqualTo(general.replaceAll(t, rg));
      }
    }
  }
}
