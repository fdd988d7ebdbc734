package io.sf2loki.core.shape;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class TextFormTest {

  @Test
  @DisplayName("SRC-8: strings as-is, null absent, booleans True/False, integers decimal")
  void scalars() {
    assertThat(TextForm.of(null)).isNull();
    assertThat(TextForm.of("a\u00e9")).isEqualTo("a\u00e9");
    assertThat(TextForm.of(new StringBuilder("sb"))).isEqualTo("sb");
    assertThat(TextForm.of(true)).isEqualTo("True");
    assertThat(TextForm.of(false)).isEqualTo("False");
    assertThat(TextForm.of(-42)).isEqualTo("-42");
    assertThat(TextForm.of(Long.MIN_VALUE)).isEqualTo("-9223372036854775808");
    assertThat(TextForm.of(new BigInteger("18446744073709551616")))
        .isEqualTo("18446744073709551616");
  }

  @Test
  @DisplayName("SRC-8: floats as SRC-7, non-finite as nan/inf/-inf")
  void floats() {
    assertThat(TextForm.of(1.0)).isEqualTo("1.0");
    assertThat(TextForm.of(1e16)).isEqualTo("1e+16");
    assertThat(TextForm.of(3.14f)).isEqualTo("3.140000104904175");
    assertThat(TextForm.of(Double.NaN)).isEqualTo("nan");
    assertThat(TextForm.of(Double.POSITIVE_INFINITY)).isEqualTo("inf");
    assertThat(TextForm.of(Double.NEGATIVE_INFINITY)).isEqualTo("-inf");
    assertThat(TextForm.of(-0.0)).isEqualTo("-0.0");
  }

  @Test
  @DisplayName("SRC-8: decimals exactly as BigDecimal.toString")
  void decimals() {
    assertThat(TextForm.of(new BigDecimal("12.50"))).isEqualTo("12.50");
    assertThat(TextForm.of(new BigDecimal("1.23"))).isEqualTo("1.23");
    assertThat(TextForm.of(new BigDecimal("1E-8"))).isEqualTo("1E-8");
    assertThat(TextForm.of(new BigDecimal("1.0E-7"))).isEqualTo("1.0E-7");
    assertThat(TextForm.of(new BigDecimal("1E+2"))).isEqualTo("1E+2");
  }

  @Test
  @DisplayName("SRC-8: instants as YYYY-MM-DD HH:MM:SS[.ffffff]+00:00")
  void instants() {
    assertThat(TextForm.of(Instant.parse("2024-05-01T10:00:00Z")))
        .isEqualTo("2024-05-01 10:00:00+00:00");
    assertThat(TextForm.of(Instant.parse("2024-05-01T10:00:00.5Z")))
        .isEqualTo("2024-05-01 10:00:00.500000+00:00");
    assertThat(TextForm.of(Instant.parse("0999-01-02T03:04:05.000001999Z")))
        .isEqualTo("0999-01-02 03:04:05.000001+00:00");
    assertThat(TextForm.of(LocalDate.of(2024, 5, 1))).isEqualTo("2024-05-01");
  }

  @Test
  @DisplayName("SRC-8: byte arrays as Python bytes literals")
  void bytes() {
    assertThat(TextForm.of(new byte[] {'a', 0})).isEqualTo("b'a\\x00'");
    assertThat(TextForm.of("it's".getBytes())).isEqualTo("b\"it's\"");
    assertThat(TextForm.of("say \"'hi'\"".getBytes())).isEqualTo("b'say \"\\'hi\\'\"'");
    assertThat(TextForm.of(new byte[] {'\t', '\n', '\r', '\\', 0x7f, (byte) 0xff, ' ', '~'}))
        .isEqualTo("b'\\t\\n\\r\\\\\\x7f\\xff ~'");
    assertThat(TextForm.of(new byte[0])).isEqualTo("b''");
    ByteBuffer bb = ByteBuffer.wrap(new byte[] {'x', 'y', 'z'});
    bb.get();
    assertThat(TextForm.of(bb)).isEqualTo("b'yz'");
    assertThat(bb.position()).isEqualTo(1);
  }

  @Test
  @DisplayName("SRC-8: maps and lists render as canonical JSON")
  void containers() {
    assertThat(TextForm.of(Map.of("b", 1, "a", List.of(true, "x"))))
        .isEqualTo("{\"a\": [true, \"x\"], \"b\": 1}");
    assertThat(TextForm.of(List.of())).isEqualTo("[]");
  }
}
