package io.sf2loki.salesforce.rest;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.urlPathMatching;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.api.BugDetectors;
import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.api.SilentCloseable;
import com.code_intelligence.jazzer.junit.FuzzTest;
import com.github.tomakehurst.wiremock.client.MappingBuilder;
import com.github.tomakehurst.wiremock.client.ResponseDefinitionBuilder;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import io.sf2loki.core.time.FakeTime;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fuzz target: the Salesforce REST response handling of the real client (SRC-27 error bodies,
 * SRC-29 2xx answers that are not data, query result pages and their {@code nextRecordsUrl} chain)
 * against WireMock serving a hostile status, content type and body for every data path. Contract:
 * {@link HttpSalesforceRest#query} returns records (JSON objects) or throws a {@link SoqlException}
 * (its named subclasses for throttles, invalid fields, malformed queries and malformed responses);
 * nothing else escapes and it terminates. Input layout: status and content type choices (consumed
 * from the end), then the body. Committed inputs replay in the default build
 * (SalesforceRestResponseFuzzTestInputs/); {@code -Pfuzz} fuzzes.
 */
class SalesforceRestResponseFuzzTest {
  @RegisterExtension
  static WireMockExtension wm =
      WireMockExtension.newInstance()
          .options(wireMockConfig().dynamicPort().gzipDisabled(true).disableRequestJournal())
          .build();

  private static final int[] STATUSES = {200, 200, 200, 201, 204, 400, 401, 403, 404, 500, 503};
  private static final String[] TYPES = {
    "application/json;charset=UTF-8", "text/html", "", "text/plain", "application/xml"
  };
  private static final UUID STUB = UUID.fromString("5f2a7b1e-0000-4000-8000-00000000f022");

  @TempDir Path tmp;

  private final FakeTime time = new FakeTime(Instant.parse("2026-01-01T00:00:00Z"));
  private final RestTestSupport.Probe probe = new RestTestSupport.Probe();
  private final HttpClient http = SalesforceHttpClients.create();
  private SpoolDirectory spoolDir;
  private HttpSalesforceRest rest;
  private boolean stubbed;

  @BeforeEach
  void setUp() {
    spoolDir = new SpoolDirectory(tmp, 4244, pid -> false);
    rest =
        new HttpSalesforceRest(
            RestTestSupport.wireMockTokens(wm, http, probe.metrics, time.timeSource()),
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

  @DisplayName("SRC-27/SRC-29: a hostile REST answer yields records or a SoqlException")
  @FuzzTest(maxDuration = "30s")
  void src29_fuzzQueryResponse(FuzzedDataProvider data) throws InterruptedException {
    int status = data.pickValue(STATUSES);
    String type = data.pickValue(TYPES);
    byte[] body = data.consumeRemainingAsBytes();
    ResponseDefinitionBuilder response = aResponse().withStatus(status).withBody(body);
    if (!type.isEmpty()) {
      response = response.withHeader("Content-Type", type);
    }
    MappingBuilder mapping =
        get(urlPathMatching("/services/data/.*")).withId(STUB).willReturn(response);
    if (stubbed) {
      wm.editStub(mapping);
    } else {
      wm.stubFor(mapping);
      stubbed = true;
    }
    // Jazzer's SSRF detector: only the WireMock org may be contacted, whatever the body says
    try (SilentCloseable onlyTheOrg =
        BugDetectors.allowNetworkConnections(
            (host, port) -> "localhost".equals(host) && port == wm.getPort())) {
      List<Map<String, Object>> records = rest.query("SELECT Id FROM EventLogFile");
      assertThat(records).doesNotContainNull();
    } catch (SoqlException expected) {
      assertThat(expected.getMessage()).isNotNull();
    }
  }
}
