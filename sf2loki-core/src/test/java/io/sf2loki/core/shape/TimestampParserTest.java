package io.sf2loki.core.shape;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class TimestampParserTest {

  @ParameterizedTest(name = "SRC-11 parses {0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "2024-05-01T10:00:00.000+0000|2024-05-01T10:00:00Z",
        "2023-11-07T19:41:12.154Z|2023-11-07T19:41:12.154Z",
        "20231107194112.154|2023-11-07T19:41:12.154Z",
        "20231107194112|2023-11-07T19:41:12Z",
        "2024-05-01T10:00:00+02:00|2024-05-01T08:00:00Z",
        "2024-05-01T10:00:00-0130|2024-05-01T11:30:00Z",
        "2024-05-01T10:00:00+05|2024-05-01T05:00:00Z",
        "2024-05-01T10:00:00|2024-05-01T10:00:00Z",
        "2024-05-01 10:00:00.5|2024-05-01T10:00:00.5Z",
        "2024-05-01T10:00|2024-05-01T10:00:00Z",
        "2024-05-01T10Z|2024-05-01T10:00:00Z",
        "2024-05-01|2024-05-01T00:00:00Z",
        "20240501|2024-05-01T00:00:00Z",
        "20240501T100000Z|2024-05-01T10:00:00Z",
        "20240501T1000+0100|2024-05-01T09:00:00Z",
        "20240501T100000.123456789123+00:00|2024-05-01T10:00:00.123456789Z",
        "2024-05-01T10:00:00,25Z|2024-05-01T10:00:00.25Z",
        "2024-05-01T10:00:00.1234567z|2024-05-01T10:00:00.1234567Z",
        "'  2024-02-29T23:59:59Z '|2024-02-29T23:59:59Z",
        "0001-01-01T00:00:00Z|0001-01-01T00:00:00Z",
        "9999-12-31T23:59:59.999999999-23:59|+10000-01-01T23:58:59.999999999Z",
        "20231107194112.1|2023-11-07T19:41:12.1Z"
      })
  void parses(String in, String expected) {
    assertThat(TimestampParser.parse(in)).contains(Instant.parse(expected));
  }

  @ParameterizedTest(name = "SRC-11 rejects \"{0}\"")
  @ValueSource(
      strings = {
        "",
        "   ",
        "not a date",
        "2024-13-01",
        "2023-02-29",
        "2024-04-31T00:00:00Z",
        "2024-05-01T24:00:00Z",
        "2024-05-01T10:60:00Z",
        "2024-05-01T10:00:60Z",
        "2024-05-01T10:00:00.Z",
        "2024-05-01T10:00:00+2400",
        "2024-05-01T10:00:00+01:60",
        "2024-05-01T10:00:00 Z",
        "2024-05-01X10:00:00",
        "2024-05-01T",
        "0000-01-01",
        "2024-5-1",
        "1714557600000",
        "20231107194112.",
        "20231107194112.15a",
        "202311071941121",
        "2024-05-01T10:00:00ZZ",
        "true"
      })
  void rejects(String in) {
    assertThat(TimestampParser.parse(in)).isEmpty();
  }

  @Test
  @DisplayName("SRC-11: numbers are epoch milliseconds; booleans and others never parse")
  void numbers() {
    Instant t = Instant.parse("2024-05-01T10:00:00.123Z");
    long ms = t.toEpochMilli();
    assertThat(TimestampParser.parse(ms)).contains(t);
    assertThat(TimestampParser.parse((int) 1000)).contains(Instant.ofEpochSecond(1));
    assertThat(TimestampParser.parse(BigInteger.valueOf(ms))).contains(t);
    assertThat(TimestampParser.parse((double) ms)).contains(t);
    assertThat(TimestampParser.parse(1.5)).contains(Instant.ofEpochSecond(0, 1_500_000));
    assertThat(TimestampParser.parse(-1.5)).contains(Instant.ofEpochSecond(-1, 998_500_000));
    assertThat(TimestampParser.parse(new BigDecimal("1714557600000.000001")))
        .contains(Instant.ofEpochSecond(1714557600L, 1));
    assertThat(TimestampParser.parse(BigInteger.ONE.shiftLeft(70))).isEmpty();
    assertThat(TimestampParser.parse(Double.NaN)).isEmpty();
    assertThat(TimestampParser.parse(Double.POSITIVE_INFINITY)).isEmpty();
    assertThat(TimestampParser.parse(1e300)).isEmpty();
    assertThat(TimestampParser.parse(true)).isEmpty();
    assertThat(TimestampParser.parse(false)).isEmpty();
    assertThat(TimestampParser.parse(null)).isEmpty();
    assertThat(TimestampParser.parse(List.of("2024-05-01"))).isEmpty();
    assertThat(TimestampParser.parse(t)).contains(t);
  }

  @Test
  @DisplayName("SRC-11: the first field that parses wins")
  void firstParsed() {
    Map<String, Object> p = new HashMap<>();
    p.put("EventDate", "garbage");
    p.put("CreatedDate", "2024-05-01T10:00:00.000+0000");
    p.put("Other", 0L);
    assertThat(TimestampParser.firstParsed(p, List.of("Missing", "EventDate", "CreatedDate")))
        .contains(Instant.parse("2024-05-01T10:00:00Z"));
    assertThat(TimestampParser.firstParsed(p, List.of("EventDate"))).isEqualTo(Optional.empty());
  }

  @Test
  @DisplayName("SRC-11: random date-times agree with java.time in every supported layout")
  void randomAgreesWithJavaTime() {
    long seed = System.nanoTime();
    Random rnd = new Random(seed);
    for (int i = 0; i < 5000; i++) {
      long sec = rnd.nextLong(-62_135_596_800L + 86_400, 253_402_300_799L - 86_400);
      int nano = rnd.nextInt(1_000_000_000);
      int offMin = (rnd.nextInt(35) - 17) * 60 + rnd.nextInt(60);
      ZoneOffset off = ZoneOffset.ofTotalSeconds(offMin * 60);
      Instant expected = Instant.ofEpochSecond(sec, nano);
      LocalDateTime l = LocalDateTime.ofEpochSecond(sec, nano, off);
      String frac = String.format("%09d", nano);
      String offset = off.getId().equals("Z") ? "+00:00" : off.getId();
      String ext =
          String.format(
              "%04d-%02d-%02dT%02d:%02d:%02d.%s%s",
              l.getYear(),
              l.getMonthValue(),
              l.getDayOfMonth(),
              l.getHour(),
              l.getMinute(),
              l.getSecond(),
              frac,
              offset);
      String basic = ext.replace("-", "").replace(":", "");
      if (offset.startsWith("-")) {
        basic = basic.substring(0, basic.length() - 4) + "-" + basic.substring(basic.length() - 4);
      }
      assertThat(TimestampParser.parse(ext)).as("seed %d %s", seed, ext).contains(expected);
      assertThat(TimestampParser.parse(basic)).as("seed %d %s", seed, basic).contains(expected);
      LocalDateTime u = LocalDateTime.ofEpochSecond(sec, nano, ZoneOffset.UTC);
      String compact =
          String.format(
              "%04d%02d%02d%02d%02d%02d.%03d",
              u.getYear(),
              u.getMonthValue(),
              u.getDayOfMonth(),
              u.getHour(),
              u.getMinute(),
              u.getSecond(),
              nano / 1_000_000);
      assertThat(TimestampParser.parse(compact))
          .as("seed %d %s", seed, compact)
          .contains(Instant.ofEpochSecond(sec, nano / 1_000_000 * 1_000_000L));
    }
  }
}
