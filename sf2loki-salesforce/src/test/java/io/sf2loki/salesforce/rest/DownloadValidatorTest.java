package io.sf2loki.salesforce.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DownloadValidatorTest {
  private static final String CSV =
      "\"EVENT_TYPE\",\"TIMESTAMP\"\n\"Login\",\"20260101000000.000\"\n";
  private static final String MAINTENANCE =
      "<!DOCTYPE html>\n<html lang=\"en\"><head><title>Maintenance</title></head>"
          + "<body><h1>Down for maintenance</h1></body></html>";

  private static Spool spool(String s) {
    return new MemorySpool(s.getBytes(StandardCharsets.UTF_8));
  }

  private static DownloadValidator.Expectation size(long n) {
    return new DownloadValidator.Expectation(n);
  }

  private static InvalidBodyException.Problem problem(
      DownloadValidator.Expectation e, String type, Spool body) {
    try {
      DownloadValidator.check(200, e, type, body);
      return null;
    } catch (InvalidBodyException x) {
      return x.problem();
    }
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "application/octetstream",
        "application/octet-stream",
        "text/csv",
        "text/csv; charset=UTF-8",
        "text/plain",
        "text/plain;charset=UTF-8",
        "TEXT/PLAIN; Charset=utf-8",
        ""
      })
  @DisplayName("SRC-28: the documented and tolerated content types pass (charset ignored)")
  void logContentTypesPass(String type) {
    assertThat(problem(size(CSV.length()), type.isEmpty() ? null : type, spool(CSV))).isNull();
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"text/html", "text/html; charset=UTF-8", "TEXT/HTML", "application/xhtml+xml"})
  @DisplayName("SRC-28: text/html is never a log or CSV, even with a CSV-looking body")
  void htmlContentType(String type) {
    assertThat(problem(size(CSV.length()), type, spool(CSV)))
        .isEqualTo(InvalidBodyException.Problem.HTML_PAGE);
  }

  @ParameterizedTest
  @ValueSource(strings = {"application/json;charset=UTF-8", "text/xml", "application/xml"})
  @DisplayName("SRC-28: JSON and XML content types are never a log or CSV")
  void otherNonLogTypes(String type) {
    assertThat(problem(DownloadValidator.Expectation.unknownSize(), type, spool(CSV)))
        .isEqualTo(InvalidBodyException.Problem.CONTENT_TYPE);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        MAINTENANCE,
        "<html><body>Maintenance</body></html>",
        "  \r\n\t<HTML>",
        "\uFEFF<!doctype HTML>",
        "\uFEFF \n <html>"
      })
  @DisplayName(
      "SRC-28: a body starting with <!DOCTYPE html or <html after BOM/whitespace is an HTML page"
          + " whatever the content type says")
  void htmlSniff(String body) {
    assertThat(problem(DownloadValidator.Expectation.unknownSize(), "text/plain", spool(body)))
        .isEqualTo(InvalidBodyException.Problem.HTML_PAGE);
    assertThat(problem(DownloadValidator.Expectation.unknownSize(), null, spool(body)))
        .isEqualTo(InvalidBodyException.Problem.HTML_PAGE);
  }

  @Test
  @DisplayName("SRC-28: a log that merely contains HTML later on is not an HTML page")
  void htmlInsideALogIsFine() {
    String apex = "60.0 APEX_CODE,FINEST\n12:00:00.0 (1)|USER_DEBUG|[1]|DEBUG|<html>x</html>\n";
    assertThat(problem(size(apex.length()), "text/plain", spool(apex))).isNull();
  }

  @Test
  @DisplayName(
      "SRC-28: size tolerance is max(64 bytes, 1 %) either way; edges pass, one byte beyond fails")
  void sizeToleranceEdges() {
    // small files: 64 bytes of slack
    assertThat(DownloadValidator.withinTolerance(100, 164)).isTrue();
    assertThat(DownloadValidator.withinTolerance(100, 165)).isFalse();
    assertThat(DownloadValidator.withinTolerance(100, 36)).isTrue();
    assertThat(DownloadValidator.withinTolerance(100, 35)).isFalse();
    assertThat(DownloadValidator.withinTolerance(0, 64)).isTrue();
    assertThat(DownloadValidator.withinTolerance(0, 65)).isFalse();
    // large files: 1 %
    assertThat(DownloadValidator.withinTolerance(1_000_000, 1_010_000)).isTrue();
    assertThat(DownloadValidator.withinTolerance(1_000_000, 1_010_001)).isFalse();
    assertThat(DownloadValidator.withinTolerance(1_000_000, 990_000)).isTrue();
    assertThat(DownloadValidator.withinTolerance(1_000_000, 989_999)).isFalse();
    // the case: LogLength 3382, a 26-byte page
    assertThat(DownloadValidator.withinTolerance(3382, 26)).isFalse();
  }

  @Test
  @DisplayName("SRC-28: a size mismatch is its own problem and counts as a log-specific failure")
  void sizeMismatch() {
    assertThatThrownBy(() -> DownloadValidator.check(200, size(3382), "text/plain", spool("short")))
        .isInstanceOfSatisfying(
            InvalidBodyException.class,
            e -> {
              assertThat(e.problem()).isEqualTo(InvalidBodyException.Problem.SIZE);
              assertThat(e.notALog()).isFalse();
              assertThat(e.reason()).isEqualTo("invalid_body");
              assertThat(e.status()).isEqualTo(200);
              assertThat(e.expectedBytes()).isEqualTo(3382);
              assertThat(e.actualBytes()).isEqualTo(5);
              assertThat(e.contentType()).isEqualTo("text/plain");
              assertThat(e.getMessage()).doesNotContain("short");
            });
    assertThatCode(
            () ->
                DownloadValidator.check(
                    200, DownloadValidator.Expectation.unknownSize(), null, spool("short")))
        .doesNotThrowAnyException();
  }

  @Test
  @DisplayName(
      "SRC-28: LogFileLength/LogLength as integer, float (rounded up), numeric string; absent,"
          + " negative or garbage means unknown")
  void lengthFields() {
    assertThat(DownloadValidator.bytesOf(BigInteger.valueOf(3382))).isEqualTo(3382L);
    assertThat(DownloadValidator.bytesOf(5842.0)).isEqualTo(5842L);
    assertThat(DownloadValidator.bytesOf(5842.2)).isEqualTo(5843L);
    assertThat(DownloadValidator.bytesOf("5842.0")).isEqualTo(5842L);
    assertThat(DownloadValidator.bytesOf(null)).isNull();
    assertThat(DownloadValidator.bytesOf(-1)).isNull();
    assertThat(DownloadValidator.bytesOf("n/a")).isNull();
    assertThat(DownloadValidator.bytesOf(Double.NaN)).isNull();
    assertThat(DownloadValidator.Expectation.ofField(5842.0).expectedBytes()).isEqualTo(5842L);
  }
}
