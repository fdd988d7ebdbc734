package io.sf2loki.salesforce.pubsub;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static io.sf2loki.salesforce.rest.RestTestSupport.fixture;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.salesforce.auth.TokenProvider;
import io.sf2loki.salesforce.pubsub.PubSubSource.SObjectLister;
import io.sf2loki.salesforce.rest.HttpSalesforceRest;
import io.sf2loki.salesforce.rest.MalformedResponseException;
import io.sf2loki.salesforce.rest.RestTestSupport;
import io.sf2loki.salesforce.rest.SalesforceHttpClients;
import io.sf2loki.salesforce.rest.SoqlException;
import io.sf2loki.salesforce.rest.SpoolDirectory;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** PS-20 discovery over the real REST client against a loopback HTTP server. */
class PubSubDiscoveryRestTest {
  @RegisterExtension
  static WireMockExtension wm =
      WireMockExtension.newInstance()
          .options(wireMockConfig().dynamicPort().gzipDisabled(true))
          .build();

  private static final String TOKEN_PATH = "/services/oauth2/token";
  private static final String SOBJECTS_PATH = "/services/data/v60.0/sobjects/";

  /** A synthetic describe-global body (shape of GET /sobjects/, values fake). */
  private static final String DESCRIBE_GLOBAL =
      """
      {"encoding":"UTF-8","maxBatchSize":200,"sobjects":[
        {"name":"Account","label":"Account","queryable":true},
        {"name":"LoginEventStream","label":"Login Event Stream"},
        {"name":"ApiEventStream","label":"API Event Stream"},
        {"name":"LoginEvent","label":"Login Event"},
        {"label":"no name"}
      ]}
      """;

  @TempDir Path tmp;

  private final FakeTime time = new FakeTime(Instant.parse("2026-01-01T00:00:00Z"));
  private final RestTestSupport.Probe probe = new RestTestSupport.Probe();
  private final HttpClient http = SalesforceHttpClients.create();
  private SpoolDirectory spoolDir;
  private HttpSalesforceRest rest;

  @BeforeEach
  void setUp() {
    spoolDir = new SpoolDirectory(tmp, 4242, pid -> false);
    TokenProvider tokens =
        RestTestSupport.wireMockTokens(wm, http, probe.metrics, time.timeSource());
    rest = new HttpSalesforceRest(tokens, "60.0", http, probe.metrics, time.timeSource(), spoolDir);
  }

  @AfterEach
  void tearDown() {
    spoolDir.close();
    probe.close();
    http.close();
  }

  @Test
  @DisplayName("PS-20: GET {instance_url}/services/data/v{api}/sobjects/ lists the sObject names")
  void ps20_listsSObjectNames() throws Exception {
    wm.stubFor(get(urlEqualTo(SOBJECTS_PATH)).willReturn(okJson(DESCRIBE_GLOBAL)));
    SObjectLister lister = SObjectLister.over(rest);
    assertThat(lister.sobjectNames())
        .containsExactly("Account", "LoginEventStream", "ApiEventStream", "LoginEvent");
    assertThat(PubSubTopics.discoveredTopics(lister.sobjectNames()))
        .containsExactly("/event/ApiEventStream", "/event/LoginEventStream");
  }

  @Test
  @DisplayName("PS-20/AUTH-6: a 401 invalidates the token and the call is repeated once")
  void ps20_401RetriedOnceAfterInvalidation() throws Exception {
    wm.stubFor(
        get(urlEqualTo(SOBJECTS_PATH))
            .withHeader("Authorization", equalTo("Bearer tok-1"))
            .willReturn(
                aResponse()
                    .withStatus(401)
                    .withBody(fixture("reconstructed_error_invalid_session_id_401.json"))));
    wm.stubFor(
        get(urlEqualTo(SOBJECTS_PATH))
            .withHeader("Authorization", equalTo("Bearer tok-2"))
            .willReturn(okJson(DESCRIBE_GLOBAL)));

    assertThat(SObjectLister.over(rest).sobjectNames()).contains("LoginEventStream");
    wm.verify(2, postRequestedFor(urlEqualTo(TOKEN_PATH)));
    wm.verify(2, getRequestedFor(urlEqualTo(SOBJECTS_PATH)));
  }

  @Test
  @DisplayName("PS-20: a second 401 fails the attempt")
  void ps20_second401Fails() {
    wm.stubFor(
        get(urlEqualTo(SOBJECTS_PATH))
            .willReturn(
                aResponse()
                    .withStatus(401)
                    .withBody(fixture("reconstructed_error_invalid_session_id_401.json"))));
    assertThatThrownBy(() -> SObjectLister.over(rest).sobjectNames())
        .isInstanceOf(SoqlException.class)
        .satisfies(e -> assertThat(((SoqlException) e).status()).isEqualTo(401));
    wm.verify(2, getRequestedFor(urlEqualTo(SOBJECTS_PATH)));
  }

  @Test
  @DisplayName("PS-20: a body without a sobjects array is a failed attempt")
  void ps20_malformedBody() {
    wm.stubFor(get(urlEqualTo(SOBJECTS_PATH)).willReturn(okJson("{\"records\":[]}")));
    assertThatThrownBy(() -> SObjectLister.over(rest).sobjectNames())
        .isInstanceOf(MalformedResponseException.class);
  }
}
