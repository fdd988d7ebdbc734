package io.sf2loki.salesforce.rest;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static io.sf2loki.salesforce.rest.RestTestSupport.fixture;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.salesforce.auth.TokenProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.math.BigInteger;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

class HttpSalesforceRestTest {
  @RegisterExtension
  static WireMockExtension wm =
      WireMockExtension.newInstance()
          .options(wireMockConfig().dynamicPort().gzipDisabled(true))
          .build();

  private static final String TOKEN_PATH = "/services/oauth2/token";
  private static final String QUERY_PATH = "/services/data/v60.0/query";
  private static final String LOG_PATH =
      "/services/data/v60.0/sobjects/EventLogFile/0ATxx0000000001AAA/LogFile";

  @TempDir Path tmp;

  private final FakeTime time = new FakeTime(Instant.parse("2026-01-01T00:00:00Z"));
  private final RestTestSupport.Probe probe = new RestTestSupport.Probe();
  private final HttpClient http = SalesforceHttpClients.create();
  private SpoolDirectory spoolDir;
  private TokenProvider tokens;

  @BeforeEach
  void setUp() {
    spoolDir = new SpoolDirectory(tmp, 4242, pid -> false);
    tokens = RestTestSupport.wireMockTokens(wm, http, probe.metrics, time.timeSource());
  }

  @AfterEach
  void tearDown() {
    spoolDir.close();
    probe.close();
    http.close();
  }

  private HttpSalesforceRest rest() {
    return rest(RestSettings.defaults(), time.timeSource());
  }

  private HttpSalesforceRest rest(RestSettings settings, TimeSource ts) {
    return new HttpSalesforceRest(tokens, "60.0", http, probe.metrics, ts, spoolDir, settings);
  }

  private static byte[] gzip(byte[] plain) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
      gz.write(plain);
    }
    return out.toByteArray();
  }

  private static byte[] readAll(Spool s) throws IOException {
    try (InputStream in = s.open()) {
      return in.readAllBytes();
    }
  }

  private static String rfc1123(Instant i) {
    return DateTimeFormatter.RFC_1123_DATE_TIME.format(i.atOffset(ZoneOffset.UTC));
  }

  // ---- SRC-17 query ----------------------------------------------------------------------

  @Test
  void src17_followsNextRecordsUrlAndJoinsBatches() throws Exception {
    String soql = "SELECT Id, EventType FROM EventLogFile WHERE EventType = 'Login'";
    wm.stubFor(
        get(urlPathEqualTo(QUERY_PATH))
            .withQueryParam("q", equalTo(soql))
            .withHeader("Authorization", equalTo("Bearer tok-1"))
            .willReturn(okJson(fixture("reconstructed_soql_eventlogfile_page1.json"))));
    wm.stubFor(
        get("/services/data/v60.0/query/0r8xx00000AbCdEAAZ-2000")
            .willReturn(okJson(fixture("reconstructed_soql_eventlogfile_page2.json"))));

    List<Map<String, Object>> records = rest().query(soql);

    assertThat(records)
        .extracting(r -> r.get("Id"))
        .containsExactly("0ATxx0000000001AAA", "0ATxx0000000002AAA", "0ATxx0000000003AAA");
    Map<String, Object> first = records.get(0);
    assertThat(first.keySet())
        .containsExactly(
            "attributes",
            "Id",
            "EventType",
            "LogDate",
            "Interval",
            "Sequence",
            "LogFileLength",
            "CreatedDate",
            "LogFile");
    assertThat(first.get("attributes")).isInstanceOf(Map.class);
    assertThat(first.get("Sequence")).isEqualTo(BigInteger.ONE);
    assertThat(first.get("LogFileLength")).isEqualTo(5135.0);
    wm.verify(1, postRequestedFor(urlEqualTo(TOKEN_PATH)));
  }

  @Test
  @SuppressWarnings("unchecked")
  void src7_numberTypingOfRecordValues() throws Exception {
    wm.stubFor(
        get(urlPathEqualTo(QUERY_PATH))
            .willReturn(
                okJson(
                    "{\"totalSize\":1,\"done\":true,\"records\":[{\"z\":3233.00,\"e\":1E2,"
                        + "\"m\":-0,\"big\":123456789012345678901234567890,\"i\":7,\"s\":\"7\","
                        + "\"n\":null,\"b\":true,\"neg\":-1.5e-7,"
                        + "\"obj\":{\"y\":1,\"a\":[1,2.5]}}]}")));
    Map<String, Object> r = rest().query("SELECT Id FROM X").get(0);
    assertThat(r.keySet()).containsExactly("z", "e", "m", "big", "i", "s", "n", "b", "neg", "obj");
    assertThat(r.get("z")).isEqualTo(3233.0);
    assertThat(r.get("e")).isEqualTo(100.0);
    assertThat(r.get("m")).isEqualTo(BigInteger.ZERO);
    assertThat(r.get("big")).isEqualTo(new BigInteger("123456789012345678901234567890"));
    assertThat(r.get("i")).isEqualTo(BigInteger.valueOf(7));
    assertThat(r.get("s")).isEqualTo("7");
    assertThat(r).containsEntry("n", null);
    assertThat(r.get("b")).isEqualTo(Boolean.TRUE);
    assertThat(r.get("neg")).isEqualTo(-1.5e-7);
    @SuppressWarnings("unchecked")
    Map<String, Object> obj = (Map<String, Object>) r.get("obj");
    assertThat(obj.keySet()).containsExactly("y", "a");
    assertThat((List<Object>) obj.get("a")).containsExactly(BigInteger.ONE, 2.5);
  }

  @Test
  void src17_non2xxJsonShapesAreMalformedResponses() {
    for (String body : List.of("<html>maintenance</html>", "{\"done\":true}", "[1,2]", "")) {
      wm.stubFor(
          get(urlPathEqualTo(QUERY_PATH)).willReturn(aResponse().withStatus(200).withBody(body)));
      assertThatThrownBy(() -> rest().query("SELECT Id FROM X"))
          .as(body)
          .isInstanceOfSatisfying(
              MalformedResponseException.class,
              e -> {
                assertThat(e.status()).isEqualTo(200);
                assertThat(e.getMessage()).startsWith("malformed response");
              });
    }
  }

  @Test
  void src17_invalidFieldAndMalformedQueryAreTyped() {
    wm.stubFor(
        get(urlPathEqualTo(QUERY_PATH))
            .withQueryParam("q", equalTo("bad field"))
            .willReturn(
                aResponse()
                    .withStatus(400)
                    .withBody(fixture("reconstructed_error_invalid_field_400.json"))));
    wm.stubFor(
        get(urlPathEqualTo(QUERY_PATH))
            .withQueryParam("q", equalTo("bad query"))
            .willReturn(
                aResponse()
                    .withStatus(400)
                    .withBody(fixture("reconstructed_error_malformed_query_400.json"))));
    assertThatThrownBy(() -> rest().query("bad field"))
        .isInstanceOfSatisfying(
            InvalidFieldException.class,
            e -> {
              assertThat(e.errorCode()).isEqualTo("INVALID_FIELD");
              assertThat(e.getMessage()).contains("No such column 'Interval'");
            });
    assertThatThrownBy(() -> rest().query("bad query"))
        .isInstanceOf(MalformedQueryException.class)
        .hasMessageContaining("SOQL statements cannot be empty");
  }

  @Test
  void src17_requestLimitExceededIsAThrottle() throws Exception {
    wm.stubFor(
        get(urlPathEqualTo(QUERY_PATH))
            .willReturn(
                aResponse()
                    .withStatus(403)
                    .withBody(fixture("reconstructed_error_request_limit_exceeded_403.json"))));
    assertThatThrownBy(() -> rest().query("SELECT Id FROM X"))
        .isInstanceOfSatisfying(
            SoqlThrottledException.class, e -> assertThat(e.status()).isEqualTo(403));
    assertThat(
            probe.counter(
                "sf2loki_salesforce_api_throttled", Attributes.of(Sf2lokiMetrics.API, "soql")))
        .isEqualTo(1);
  }

  @Test
  void src17_otherStatusesAndTransportFailuresAreSoqlExceptions() {
    wm.stubFor(
        get(urlPathEqualTo(QUERY_PATH))
            .withQueryParam("q", equalTo("a"))
            .willReturn(
                aResponse()
                    .withStatus(500)
                    .withBody("[{\"errorCode\":\"UNKNOWN_EXCEPTION\",\"message\":\"boom\"}]")));
    wm.stubFor(
        get(urlPathEqualTo(QUERY_PATH))
            .withQueryParam("q", equalTo("b"))
            .willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
    assertThatThrownBy(() -> rest().query("a"))
        .isExactlyInstanceOf(SoqlException.class)
        .hasMessageStartingWith("HTTP 500: ")
        .hasMessageContaining("boom")
        .satisfies(e -> assertThat(((SoqlException) e).errorCode()).isEqualTo("UNKNOWN_EXCEPTION"));
    assertThatThrownBy(() -> rest().query("b"))
        .isExactlyInstanceOf(SoqlException.class)
        .satisfies(e -> assertThat(((SoqlException) e).isTransport()).isTrue());
  }

  @Test
  void auth7_invalidSessionMidRunIsReMintedAndRetriedOnce() throws Exception {
    wm.stubFor(
        get(urlPathEqualTo(QUERY_PATH))
            .willReturn(okJson(fixture("reconstructed_soql_eventlogfile_page1.json"))));
    wm.stubFor(
        get("/services/data/v60.0/query/0r8xx00000AbCdEAAZ-2000")
            .withHeader("Authorization", equalTo("Bearer tok-1"))
            .willReturn(
                aResponse()
                    .withStatus(401)
                    .withBody(fixture("reconstructed_error_invalid_session_id_401.json"))));
    wm.stubFor(
        get("/services/data/v60.0/query/0r8xx00000AbCdEAAZ-2000")
            .withHeader("Authorization", equalTo("Bearer tok-2"))
            .willReturn(okJson(fixture("reconstructed_soql_eventlogfile_page2.json"))));

    assertThat(rest().query("SELECT Id FROM EventLogFile")).hasSize(3);
    wm.verify(2, postRequestedFor(urlEqualTo(TOKEN_PATH)));
  }

  @Test
  void auth7_second401IsAnError() {
    wm.stubFor(
        get(urlPathEqualTo(QUERY_PATH))
            .willReturn(
                aResponse()
                    .withStatus(401)
                    .withBody(fixture("reconstructed_error_invalid_session_id_401.json"))));
    assertThatThrownBy(() -> rest().query("SELECT Id FROM X"))
        .isExactlyInstanceOf(SoqlException.class)
        .satisfies(
            e -> {
              assertThat(((SoqlException) e).status()).isEqualTo(401);
              assertThat(((SoqlException) e).errorCode()).isEqualTo("INVALID_SESSION_ID");
              assertThat(e.getMessage()).doesNotContain("tok-1").doesNotContain("tok-2");
            });
    wm.verify(2, getRequestedFor(urlPathEqualTo(QUERY_PATH)));
  }

  @Test
  void limitInfoHeaderSetsDailyApiRequestGauges() throws Exception {
    wm.stubFor(
        get(urlPathEqualTo(QUERY_PATH))
            .willReturn(
                okJson("{\"done\":true,\"records\":[]}")
                    .withHeader("Sforce-Limit-Info", "api-usage=18/5000")));
    assertThat(rest().query("SELECT Id FROM X")).isEmpty();
    Attributes a = Attributes.of(Sf2lokiMetrics.LIMIT_NAME, "DailyApiRequests");
    assertThat(probe.gauge("sf2loki_salesforce_limit_max", a)).isEqualTo(5000.0);
    assertThat(probe.gauge("sf2loki_salesforce_limit_remaining", a)).isEqualTo(4982.0);
  }

  @Test
  void src20_serverNowShiftsOnlyBeyondThirtySeconds() throws Exception {
    HttpSalesforceRest rest = rest();
    assertThat(rest.serverNow()).isEqualTo(time.now());
    wm.stubFor(
        get(urlPathEqualTo(QUERY_PATH))
            .willReturn(
                okJson("{\"done\":true,\"records\":[]}")
                    .withHeader("Date", rfc1123(time.now().plusSeconds(20)))));
    rest.query("q");
    assertThat(rest.clockSkew()).isEqualTo(Duration.ofSeconds(20));
    assertThat(rest.serverNow()).isEqualTo(time.now());

    wm.stubFor(
        get(urlPathEqualTo(QUERY_PATH))
            .willReturn(
                okJson("{\"done\":true,\"records\":[]}")
                    .withHeader("Date", rfc1123(time.now().minusSeconds(120)))));
    rest.query("q");
    assertThat(rest.serverNow()).isEqualTo(time.now().minusSeconds(120));
  }

  @Test
  void getObjectReturnsTypedTopLevelObject() throws Exception {
    wm.stubFor(
        get("/services/data/v60.0/limits")
            .willReturn(okJson("{\"DailyApiRequests\":{\"Max\":15000,\"Remaining\":14998}}")));
    Map<String, Object> limits = rest().getObject("/services/data/v60.0/limits");
    assertThat(limits.get("DailyApiRequests"))
        .isEqualTo(
            Map.of("Max", BigInteger.valueOf(15000), "Remaining", BigInteger.valueOf(14998)));
  }

  @Test
  void tokenFailureSurfacesAsSoqlAndDownloadExceptions() {
    wm.resetScenarios();
    wm.stubFor(
        post(TOKEN_PATH)
            .atPriority(1)
            .willReturn(
                aResponse()
                    .withStatus(400)
                    .withBody(fixture("reconstructed_oauth_error_invalid_grant.json"))));
    assertThatThrownBy(() -> rest().query("SELECT Id FROM X"))
        .isExactlyInstanceOf(SoqlException.class)
        .hasMessageStartingWith("authentication failed: token endpoint HTTP 400")
        .satisfies(e -> assertThat(((SoqlException) e).errorCode()).isEqualTo("invalid_grant"));
    assertThatThrownBy(() -> rest().download(LOG_PATH))
        .isExactlyInstanceOf(DownloadException.class)
        .satisfies(e -> assertThat(((DownloadException) e).reason()).isEqualTo("transport"));
  }

  @Test
  void elf16_corruptGzipIsATransportFailure() {
    wm.stubFor(
        get(LOG_PATH)
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withHeader("Content-Encoding", "gzip")
                    .withBody("not gzip at all")));
    assertThatThrownBy(() -> rest().download(LOG_PATH))
        .isExactlyInstanceOf(DownloadException.class)
        .satisfies(e -> assertThat(((DownloadException) e).reason()).isEqualTo("transport"));
  }

  // ---- downloads (ELF-8, ELF-16, SRC-25) -----------------------------------------------------

  @Test
  void elf16_downloadSendsAcceptGzipAndDecodes() throws Exception {
    byte[] csv =
        "\"EVENT_TYPE\",\"TIMESTAMP\"\n\"Login\",\"20240605071241.000\"\n"
            .getBytes(StandardCharsets.UTF_8);
    wm.stubFor(
        get(LOG_PATH)
            .withHeader("Accept-Encoding", equalTo("gzip"))
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withHeader("Content-Encoding", "gzip")
                    .withHeader("Content-Type", "text/csv")
                    .withBody(gzip(csv))));
    try (Spool s = rest().download(LOG_PATH)) {
      assertThat(s.sizeBytes()).isEqualTo(csv.length);
      assertThat(readAll(s)).isEqualTo(csv);
      assertThat(readAll(s)).isEqualTo(csv); // open() gives a fresh stream each time
    }
  }

  @Test
  void elf8_spoolSpillsToDiskAboveThresholdAndDeletesOnClose() throws Exception {
    byte[] body = new byte[64 * 1024];
    for (int i = 0; i < body.length; i++) {
      body[i] = (byte) ('a' + i % 26);
    }
    wm.stubFor(get(LOG_PATH).willReturn(aResponse().withStatus(200).withBody(body)));
    wm.stubFor(get(LOG_PATH + "2").willReturn(aResponse().withStatus(200).withBody("small")));
    HttpSalesforceRest rest =
        rest(
            new RestSettings(Duration.ofSeconds(120), Duration.ofSeconds(60), 1024),
            time.timeSource());

    Spool big = rest.download(LOG_PATH);
    assertThat(big).isInstanceOf(FileSpool.class);
    Path file = ((FileSpool) big).file();
    assertThat(file.getParent()).isEqualTo(tmp.resolve("sf2loki-spool-4242"));
    assertThat(Files.size(file)).isEqualTo(body.length);
    assertThat(readAll(big)).isEqualTo(body);
    big.close();
    assertThat(file).doesNotExist();
    big.close(); // idempotent

    try (Spool small = rest.download(LOG_PATH + "2")) {
      assertThat(small).isInstanceOf(MemorySpool.class);
      assertThat(new String(readAll(small), StandardCharsets.UTF_8)).isEqualTo("small");
    }
    try (Stream<Path> left = Files.list(tmp.resolve("sf2loki-spool-4242"))) {
      assertThat(left).isEmpty();
    }
    spoolDir.close();
    assertThat(tmp.resolve("sf2loki-spool-4242")).doesNotExist();
  }

  @Test
  void elf8_downloadErrorsAreTypedAndThrottlesCounted() {
    wm.stubFor(
        get(LOG_PATH)
            .willReturn(
                aResponse()
                    .withStatus(403)
                    .withBody(fixture("reconstructed_error_request_limit_exceeded_403.json"))));
    wm.stubFor(get(LOG_PATH + "404").willReturn(aResponse().withStatus(404).withBody("[]")));
    wm.stubFor(
        get(LOG_PATH + "403")
            .willReturn(
                aResponse().withStatus(403).withBody("[{\"errorCode\":\"INSUFFICIENT_ACCESS\"}]")));
    wm.stubFor(
        get(LOG_PATH + "reset").willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
    HttpSalesforceRest rest = rest();

    assertThatThrownBy(() -> rest.download(LOG_PATH))
        .isInstanceOf(DownloadThrottledException.class);
    assertThatThrownBy(
            () ->
                rest.download(
                    LOG_PATH,
                    HttpSalesforceRest.API_APEXLOG_BODY,
                    DownloadValidator.Expectation.unknownSize()))
        .isInstanceOf(DownloadThrottledException.class);
    assertThatThrownBy(() -> rest.download(LOG_PATH + "404"))
        .isExactlyInstanceOf(DownloadException.class)
        .satisfies(e -> assertThat(((DownloadException) e).reason()).isEqualTo("HTTP 404"));
    assertThatThrownBy(() -> rest.download(LOG_PATH + "403"))
        .isExactlyInstanceOf(DownloadException.class)
        .satisfies(e -> assertThat(((DownloadException) e).reason()).isEqualTo("HTTP 403"));
    assertThatThrownBy(() -> rest.download(LOG_PATH + "reset"))
        .isExactlyInstanceOf(DownloadException.class)
        .satisfies(e -> assertThat(((DownloadException) e).reason()).isEqualTo("transport"));

    probe.collect();
    assertThat(
            probe.counter(
                "sf2loki_salesforce_api_throttled",
                Attributes.of(Sf2lokiMetrics.API, "eventlogfile")))
        .isEqualTo(1);
    assertThat(
            probe.counter(
                "sf2loki_salesforce_api_throttled",
                Attributes.of(Sf2lokiMetrics.API, "apexlog_body")))
        .isEqualTo(1);
  }

  @Test
  void elf8_download401IsRetriedOnceAfterReMint() throws Exception {
    wm.stubFor(
        get(LOG_PATH)
            .withHeader("Authorization", equalTo("Bearer tok-1"))
            .willReturn(aResponse().withStatus(401)));
    wm.stubFor(
        get(LOG_PATH)
            .withHeader("Authorization", equalTo("Bearer tok-2"))
            .willReturn(aResponse().withStatus(200).withBody("a,b\n1,2\n")));
    try (Spool s = rest().download(LOG_PATH)) {
      assertThat(new String(readAll(s), StandardCharsets.UTF_8)).isEqualTo("a,b\n1,2\n");
    }
    wm.verify(2, postRequestedFor(urlEqualTo(TOKEN_PATH)));
  }

  @Test
  void src25_bodyIdleWatchdogFailsAStalledBody() throws Exception {
    // 2 chunks ~100 ms apart; the idle timeout is 40 ms (the response-headers timeout is 5 s).
    wm.stubFor(
        get(LOG_PATH)
            .willReturn(
                aResponse()
                    .withStatus(200)
                    .withBody(new byte[4096])
                    .withChunkedDribbleDelay(2, 200)));
    HttpSalesforceRest rest =
        rest(
            new RestSettings(Duration.ofSeconds(5), Duration.ofMillis(60), 1024),
            TimeSource.system());
    long start = System.nanoTime();
    assertThatThrownBy(() -> rest.download(LOG_PATH))
        .isExactlyInstanceOf(DownloadException.class)
        .satisfies(
            e -> {
              assertThat(((DownloadException) e).reason()).isEqualTo("transport");
              assertThat(e.getMessage()).contains("no body byte");
            });
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
  }

  @Test
  void src25_bodyProgressResetsTheIdleWatchdog() throws Exception {
    // 4 chunks ~30 ms apart, idle timeout 150 ms: slow but steady bodies succeed.
    byte[] body = new byte[4096];
    wm.stubFor(
        get(LOG_PATH)
            .willReturn(
                aResponse().withStatus(200).withBody(body).withChunkedDribbleDelay(4, 120)));
    HttpSalesforceRest rest =
        rest(
            new RestSettings(Duration.ofSeconds(5), Duration.ofMillis(150), 1024),
            TimeSource.system());
    try (Spool s = rest.download(LOG_PATH)) {
      assertThat(s.sizeBytes()).isEqualTo(body.length);
    }
  }
}
