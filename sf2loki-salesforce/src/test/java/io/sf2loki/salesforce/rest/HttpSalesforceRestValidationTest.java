package io.sf2loki.salesforce.rest;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static io.sf2loki.salesforce.rest.RestTestSupport.fixture;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.salesforce.auth.TokenProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** SRC-27…29 through the real client against WireMock: error bodies, 200s that are not data. */
class HttpSalesforceRestValidationTest {
  @RegisterExtension
  static WireMockExtension wm =
      WireMockExtension.newInstance()
          .options(wireMockConfig().dynamicPort().gzipDisabled(true))
          .build();

  private static final String QUERY_PATH = "/services/data/v60.0/query";
  private static final String LOG_PATH =
      "/services/data/v60.0/sobjects/EventLogFile/0ATxx0000000001AAA/LogFile";
  private static final String BODY_PATH =
      "/services/data/v60.0/tooling/sobjects/ApexLog/07Lxx0000000001AAA/Body";
  private static final String MAINTENANCE =
      "<!DOCTYPE html>\n<html><head><title>Scheduled Maintenance</title></head><body>"
          + "<h1>Down for maintenance</h1></body></html>";

  @TempDir Path tmp;

  private final FakeTime time = new FakeTime(Instant.parse("2026-01-01T00:00:00Z"));
  private final RestTestSupport.Probe probe = new RestTestSupport.Probe();
  private final HttpClient http = SalesforceHttpClients.create();
  private SpoolDirectory spoolDir;
  private HttpSalesforceRest rest;

  @BeforeEach
  void setUp() {
    spoolDir = new SpoolDirectory(tmp, 4243, pid -> false);
    TokenProvider tokens =
        RestTestSupport.wireMockTokens(wm, http, probe.metrics, time.timeSource());
    rest =
        new HttpSalesforceRest(
            tokens,
            "60.0",
            http,
            probe.metrics,
            time.timeSource(),
            spoolDir,
            RestSettings.defaults());
  }

  @AfterEach
  void tearDown() {
    spoolDir.close();
    probe.close();
    http.close();
  }

  private static byte[] gzip(byte[] plain) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(plain);
    }
    return out.toByteArray();
  }

  @Test
  @DisplayName(
      "SRC-27, ELF-5: the 547-byte full-query INVALID_FIELD echo is an InvalidFieldException"
          + " naming Interval (the errorCode lies beyond the 500-character excerpt)")
  void longInvalidFieldBody() {
    wm.stubFor(
        get(urlPathEqualTo(QUERY_PATH))
            .willReturn(
                aResponse()
                    .withStatus(400)
                    .withHeader("Content-Type", "application/json;charset=UTF-8")
                    .withBody(fixture("reconstructed_error_invalid_field_400_full_query.json"))));
    assertThatThrownBy(() -> rest.query("SELECT Id,EventType,Interval FROM EventLogFile"))
        .isInstanceOfSatisfying(
            InvalidFieldException.class,
            e -> {
              assertThat(e.errorCode()).isEqualTo("INVALID_FIELD");
              assertThat(e.fields()).containsExactly("Interval");
              assertThat(e.getMessage()).startsWith("HTTP 400: ").endsWith("…");
            });
  }

  @Test
  @DisplayName(
      "SRC-27: a 403 whose second error is REQUEST_LIMIT_EXCEEDED is a throttle; a 400 with"
          + " MALFORMED_QUERY then INVALID_FIELD is INVALID_FIELD")
  void secondElementDoesNotFlip() {
    wm.stubFor(
        get(urlPathEqualTo(QUERY_PATH))
            .willReturn(
                aResponse()
                    .withStatus(403)
                    .withBody(
                        "[{\"message\":\""
                            + "m".repeat(900)
                            + "\",\"errorCode\":\"X\"},"
                            + fixture("reconstructed_error_request_limit_exceeded_403.json")
                                .strip()
                                .replaceAll("^\\[|\\]$", "")
                            + "]")));
    assertThatThrownBy(() -> rest.query("SELECT Id FROM X"))
        .isInstanceOf(SoqlThrottledException.class);
    assertThat(
            probe.counter(
                "sf2loki_salesforce_api_throttled", Attributes.of(Sf2lokiMetrics.API, "soql")))
        .isEqualTo(1);

    wm.stubFor(
        get(urlPathEqualTo(QUERY_PATH))
            .willReturn(
                aResponse()
                    .withStatus(400)
                    .withBody(
                        "[{\"errorCode\":\"MALFORMED_QUERY\",\"message\":\"x\"},"
                            + fixture("reconstructed_error_invalid_field_400.json")
                                .strip()
                                .replaceAll("^\\[|\\]$", "")
                            + "]")));
    assertThatThrownBy(() -> rest.query("SELECT Id FROM X"))
        .isInstanceOfSatisfying(
            InvalidFieldException.class,
            e -> assertThat(e.errorCodes()).contains("MALFORMED_QUERY", "INVALID_FIELD"));
  }

  @Test
  @DisplayName(
      "SRC-30: a nextRecordsUrl that repeats an earlier page is a MalformedResponseException,"
          + " counted, not an endless query (fuzz find)")
  void nextRecordsUrlCycle() {
    String second = QUERY_PATH + "/01gxx0000000001AAA-2000";
    String third = QUERY_PATH + "/01gxx0000000001AAA-4000";
    wm.stubFor(get(urlPathEqualTo(QUERY_PATH)).willReturn(okJson(page("0AT1", second))));
    wm.stubFor(get(urlPathEqualTo(second)).willReturn(okJson(page("0AT2", third))));
    wm.stubFor(get(urlPathEqualTo(third)).willReturn(okJson(page("0AT3", second))));
    // the hang guard only bounds the pre-fix endless paging; no timing is asserted
    assertTimeoutPreemptively(
        Duration.ofMinutes(1),
        () ->
            assertThatThrownBy(() -> rest.query("SELECT Id FROM EventLogFile"))
                .isInstanceOf(MalformedResponseException.class)
                .hasMessageContaining("repeats an earlier page"));
    assertThat(
            probe.counter(
                "sf2loki_salesforce_malformed_responses",
                Attributes.of(Sf2lokiMetrics.API, "soql")))
        .isEqualTo(1);
  }

  @Test
  @DisplayName(
      "SRC-30: a nextRecordsUrl that is not a URL path is a MalformedResponseException, not an"
          + " IllegalArgumentException (fuzz find)")
  void nextRecordsUrlNotAPath() {
    wm.stubFor(
        get(urlPathEqualTo(QUERY_PATH))
            .willReturn(okJson(page("0AT1", "/services/data/v60.0/query/{locator}-2000"))));
    assertThatThrownBy(() -> rest.query("SELECT Id FROM EventLogFile"))
        .isInstanceOf(MalformedResponseException.class)
        .hasMessageContaining("not a URL path");
  }

  private static String page(String id, String next) {
    return "{\"totalSize\":9,\"done\":false,\"nextRecordsUrl\":\""
        + next
        + "\",\"records\":[{\"Id\":\""
        + id
        + "\"}]}";
  }

  @Test
  @DisplayName(
      "SRC-29: a 200 HTML page on a SOQL query is a MalformedResponseException, counted; so is a"
          + " 200 HTML page without content type")
  void htmlOnSoql() {
    wm.stubFor(
        get(urlPathEqualTo(QUERY_PATH))
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withHeader("Content-Type", "text/html; charset=UTF-8")
                    .withBody(MAINTENANCE)));
    assertThatThrownBy(() -> rest.query("SELECT Id FROM X"))
        .isInstanceOf(MalformedResponseException.class)
        .hasMessageContaining("HTML page");
    wm.stubFor(
        get(urlPathEqualTo("/services/data/v60.0/tooling/query"))
            .willReturn(aResponse().withBody(MAINTENANCE)));
    assertThatThrownBy(() -> rest.toolingQuery("SELECT Id FROM ApexLog"))
        .isInstanceOf(MalformedResponseException.class);
    wm.stubFor(get(urlPathEqualTo(QUERY_PATH)).willReturn(aResponse().withBody("{\"done\":true}")));
    assertThatThrownBy(() -> rest.query("SELECT Id FROM X"))
        .isInstanceOf(MalformedResponseException.class);
    assertThat(
            probe.counter(
                "sf2loki_salesforce_malformed_responses",
                Attributes.of(Sf2lokiMetrics.API, "soql")))
        .isEqualTo(3);
  }

  @Test
  @DisplayName(
      "SRC-28: a 200 text/html maintenance page on an EventLogFile download and on an ApexLog"
          + " body is an InvalidBodyException with reason invalid_body, never a spool")
  void htmlOnDownloads() {
    wm.stubFor(
        get(LOG_PATH)
            .willReturn(aResponse().withHeader("Content-Type", "text/html").withBody(MAINTENANCE)));
    wm.stubFor(
        get(BODY_PATH)
            .willReturn(
                aResponse().withHeader("Content-Type", "text/plain").withBody(MAINTENANCE)));
    assertThatThrownBy(() -> rest.download(LOG_PATH, new DownloadValidator.Expectation(5842L)))
        .isInstanceOfSatisfying(
            InvalidBodyException.class,
            e -> {
              assertThat(e.reason()).isEqualTo("invalid_body");
              assertThat(e.problem()).isEqualTo(InvalidBodyException.Problem.HTML_PAGE);
              assertThat(e.contentType()).isEqualTo("text/html");
              assertThat(e.getMessage()).doesNotContain("maintenance");
            });
    assertThatThrownBy(
            () ->
                rest.download(
                    BODY_PATH,
                    HttpSalesforceRest.API_APEXLOG_BODY,
                    new DownloadValidator.Expectation(3382L)))
        .isInstanceOfSatisfying(
            InvalidBodyException.class,
            e -> assertThat(e.problem()).isEqualTo(InvalidBodyException.Problem.HTML_PAGE));
  }

  @Test
  @DisplayName(
      "SRC-28, ELF-16: the size is compared after gzip decoding; the documented"
          + " application/octetstream type passes")
  void gzipSizeIsDecodedSize() throws Exception {
    byte[] csv =
        ("\"EVENT_TYPE\",\"X\"\n" + "\"Login\",\"1\"\n".repeat(500))
            .getBytes(StandardCharsets.UTF_8);
    wm.stubFor(
        get(LOG_PATH)
            .willReturn(
                aResponse()
                    .withHeader("Content-Type", "application/octetstream")
                    .withHeader("Content-Encoding", "gzip")
                    .withBody(gzip(csv))));
    try (Spool s = rest.download(LOG_PATH, new DownloadValidator.Expectation((long) csv.length))) {
      assertThat(s.sizeBytes()).isEqualTo(csv.length);
    }
    assertThatThrownBy(
            () -> rest.download(LOG_PATH, new DownloadValidator.Expectation(csv.length * 2L)))
        .isInstanceOfSatisfying(
            InvalidBodyException.class,
            e -> {
              assertThat(e.problem()).isEqualTo(InvalidBodyException.Problem.SIZE);
              assertThat(e.actualBytes()).isEqualTo(csv.length);
            });
  }
}
