package io.sf2loki.salesforce.auth;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.equalTo;
import static com.github.tomakehurst.wiremock.client.WireMock.get;
import static com.github.tomakehurst.wiremock.client.WireMock.getRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.okJson;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.wireMockConfig;
import static io.sf2loki.salesforce.rest.RestTestSupport.fixture;
import static io.sf2loki.salesforce.rest.RestTestSupport.tokenBody;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.tomakehurst.wiremock.http.Fault;
import com.github.tomakehurst.wiremock.junit5.WireMockExtension;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import com.github.tomakehurst.wiremock.verification.LoggedRequest;
import com.nimbusds.jose.crypto.RSASSAVerifier;
import com.nimbusds.jwt.SignedJWT;
import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.salesforce.rest.RestTestSupport.Probe;
import java.net.URI;
import java.net.URLDecoder;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.security.KeyPair;
import java.security.interfaces.RSAPublicKey;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class TokenProviderTest {
  @RegisterExtension
  static WireMockExtension wm =
      WireMockExtension.newInstance().options(wireMockConfig().dynamicPort()).build();

  private static final String TOKEN_PATH = "/services/oauth2/token";
  private static KeyPair keys;

  private final FakeTime time = new FakeTime(Instant.parse("2026-01-01T00:00:00Z"));
  private final Probe probe = new Probe();
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

  @BeforeAll
  static void keys() {
    keys = AuthTestSupport.rsaKeyPair();
  }

  @AfterEach
  void close() {
    probe.close();
    http.close();
  }

  private SalesforceAuthSettings jwt(String env, String audience, String pem) {
    return new SalesforceAuthSettings(
        URI.create(wm.baseUrl()),
        env,
        AuthMode.JWT_BEARER,
        "3MVG9client",
        null,
        "integration@example.com",
        pem,
        audience,
        Duration.ofMinutes(10));
  }

  private SalesforceAuthSettings clientCredentials(String secret) {
    return new SalesforceAuthSettings(
        URI.create(wm.baseUrl() + "/"),
        "production",
        AuthMode.CLIENT_CREDENTIALS,
        "3MVG9client",
        secret,
        "",
        null,
        "",
        Duration.ofMinutes(10));
  }

  private TokenProvider provider(SalesforceAuthSettings s) {
    return new TokenProvider(
        s,
        http,
        probe.metrics,
        time.timeSource(),
        RandomGenerator.of("L64X128MixRandom"),
        Duration.ofSeconds(30));
  }

  private void stubToken(String access) {
    wm.stubFor(post(TOKEN_PATH).willReturn(okJson(tokenBody("https://inst.example", access))));
  }

  private static Map<String, String> form(LoggedRequest r) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String pair : r.getBodyAsString().split("&")) {
      int eq = pair.indexOf('=');
      out.put(
          URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
          URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
    }
    return out;
  }

  @Test
  void auth3_jwtAssertionIsRs256WithSpecClaims() throws Exception {
    stubToken("tok-1");
    AccessToken t = provider(jwt("production", "", AuthTestSupport.pkcs8Pem(keys))).token();

    assertThat(t.value()).isEqualTo("tok-1");
    assertThat(t.instanceUrl()).isEqualTo(URI.create("https://inst.example"));
    assertThat(t.expiresAt()).isEqualTo(time.now().plus(Duration.ofMinutes(10)));
    List<LoggedRequest> reqs = wm.findAll(postRequestedFor(urlEqualTo(TOKEN_PATH)));
    assertThat(reqs).hasSize(1);
    assertThat(reqs.get(0).getHeader("Content-Type"))
        .startsWith("application/x-www-form-urlencoded");
    Map<String, String> form = form(reqs.get(0));
    assertThat(form.get("grant_type")).isEqualTo("urn:ietf:params:oauth:grant-type:jwt-bearer");
    SignedJWT jwt = SignedJWT.parse(form.get("assertion"));
    assertThat(jwt.getHeader().getAlgorithm().getName()).isEqualTo("RS256");
    assertThat(jwt.verify(new RSASSAVerifier((RSAPublicKey) keys.getPublic()))).isTrue();
    assertThat(jwt.getJWTClaimsSet().getIssuer()).isEqualTo("3MVG9client");
    assertThat(jwt.getJWTClaimsSet().getSubject()).isEqualTo("integration@example.com");
    assertThat(jwt.getJWTClaimsSet().getAudience()).containsExactly("https://login.salesforce.com");
    assertThat(jwt.getJWTClaimsSet().getExpirationTime().toInstant())
        .isEqualTo(time.now().plusSeconds(180));
    assertThat(probe.counter("sf2loki_auth_refreshes", Attributes.empty())).isEqualTo(1);
  }

  @Test
  void auth3_audienceFollowsEnvironmentOrOverrideNeverLoginUrl() throws Exception {
    String pem = AuthTestSupport.pkcs8Pem(keys);
    assertThat(jwt("sandbox", "", pem).effectiveAudience())
        .isEqualTo("https://test.salesforce.com");
    assertThat(jwt("production", null, pem).effectiveAudience())
        .isEqualTo("https://login.salesforce.com");
    assertThat(jwt("sandbox", "https://community.example/s", pem).effectiveAudience())
        .isEqualTo("https://community.example/s");
    stubToken("tok");
    provider(jwt("sandbox", "", pem)).token();
    SignedJWT jwt =
        SignedJWT.parse(
            form(wm.findAll(postRequestedFor(urlEqualTo(TOKEN_PATH))).get(0)).get("assertion"));
    assertThat(jwt.getJWTClaimsSet().getAudience()).containsExactly("https://test.salesforce.com");
  }

  @Test
  void auth3_acceptsPkcs1PemAndRejectsGarbageWithoutEchoingIt() throws Exception {
    stubToken("tok");
    provider(jwt("production", "", AuthTestSupport.pkcs1Pem(keys))).token();
    SignedJWT jwt =
        SignedJWT.parse(
            form(wm.findAll(postRequestedFor(urlEqualTo(TOKEN_PATH))).get(0)).get("assertion"));
    assertThat(jwt.verify(new RSASSAVerifier((RSAPublicKey) keys.getPublic()))).isTrue();

    String bad = "-----BEGIN PRIVATE KEY-----\nSECRETSECRETSECRET\n-----END PRIVATE KEY-----";
    assertThatThrownBy(() -> provider(jwt("production", "", bad)))
        .isInstanceOf(IllegalArgumentException.class)
        .message()
        .doesNotContain("SECRETSECRET");
  }

  @Test
  void auth4_clientCredentialsFormBody() throws Exception {
    stubToken("tok-cc");
    AccessToken t = provider(clientCredentials("s3cr&t=x")).token();
    assertThat(t.value()).isEqualTo("tok-cc");
    Map<String, String> form = form(wm.findAll(postRequestedFor(urlEqualTo(TOKEN_PATH))).get(0));
    assertThat(form)
        .containsExactly(
            Map.entry("grant_type", "client_credentials"),
            Map.entry("client_id", "3MVG9client"),
            Map.entry("client_secret", "s3cr&t=x"));
  }

  @Test
  void auth1_concurrentCallersShareOneMint() throws Exception {
    wm.stubFor(
        post(TOKEN_PATH)
            .willReturn(okJson(tokenBody("https://inst.example", "tok")).withFixedDelay(100)));
    TokenProvider p = provider(clientCredentials("secret"));
    CountDownLatch start = new CountDownLatch(1);
    try (ExecutorService ex = Executors.newFixedThreadPool(2)) {
      Future<AccessToken> a =
          ex.submit(
              () -> {
                start.await();
                return p.token();
              });
      Future<AccessToken> b =
          ex.submit(
              () -> {
                start.await();
                return p.token();
              });
      start.countDown();
      assertThat(a.get()).isSameAs(b.get());
    }
    wm.verify(1, postRequestedFor(urlEqualTo(TOKEN_PATH)));
  }

  @Test
  void auth1_concurrentCallersShareOneFailedMint() throws Exception {
    wm.stubFor(
        post(TOKEN_PATH)
            .willReturn(
                aResponse()
                    .withStatus(400)
                    .withBody(fixture("reconstructed_oauth_error_invalid_grant.json"))
                    .withFixedDelay(100)));
    TokenProvider p = provider(clientCredentials("secret"));
    CountDownLatch start = new CountDownLatch(1);
    try (ExecutorService ex = Executors.newFixedThreadPool(2)) {
      List<Future<Throwable>> results = new java.util.ArrayList<>();
      for (int i = 0; i < 2; i++) {
        results.add(
            ex.submit(
                () -> {
                  start.await();
                  return org.assertj.core.api.Assertions.catchThrowable(p::token);
                }));
      }
      start.countDown();
      for (Future<Throwable> r : results) {
        assertThat(r.get())
            .isInstanceOfSatisfying(
                AuthException.class, e -> assertThat(e.errorCode()).isEqualTo("invalid_grant"));
      }
    }
    wm.verify(1, postRequestedFor(urlEqualTo(TOKEN_PATH)));
  }

  @Test
  void auth2_tokenUsedUntilSixtySecondsBeforeExpiry() throws Exception {
    stubToken("tok");
    TokenProvider p = provider(clientCredentials("secret")); // ttl 10 min
    AccessToken first = p.token();
    time.advance(Duration.ofMinutes(9).minusMillis(1));
    assertThat(p.token()).isSameAs(first);
    wm.verify(1, postRequestedFor(urlEqualTo(TOKEN_PATH)));
    time.advance(Duration.ofMillis(1)); // now == expires_at - 60 s: no longer usable
    AccessToken second = p.token();
    assertThat(second).isNotSameAs(first);
    wm.verify(2, postRequestedFor(urlEqualTo(TOKEN_PATH)));
  }

  @Test
  @org.junit.jupiter.api.DisplayName(
      "ORG-12: holdsValidToken is false before a mint, true while fresh, false once stale or"
          + " invalidated; it never mints")
  void org12_holdsValidTokenWithoutMinting() throws Exception {
    stubToken("tok");
    TokenProvider p = provider(clientCredentials("secret")); // ttl 10 min
    assertThat(p.holdsValidToken()).isFalse();
    AccessToken t = p.token();
    assertThat(p.holdsValidToken()).isTrue();
    time.advance(Duration.ofMinutes(9));
    assertThat(p.holdsValidToken()).isFalse();
    p.token();
    p.invalidate(p.token());
    assertThat(p.holdsValidToken()).isFalse();
    assertThat(t).isNotNull();
    wm.verify(2, postRequestedFor(urlEqualTo(TOKEN_PATH)));
  }

  @Test
  void auth6_invalidationIsConditional() throws Exception {
    wm.stubFor(
        post(TOKEN_PATH)
            .inScenario("mint")
            .whenScenarioStateIs(Scenario.STARTED)
            .willReturn(okJson(tokenBody("https://inst.example", "tok-1")))
            .willSetStateTo("second"));
    wm.stubFor(
        post(TOKEN_PATH)
            .inScenario("mint")
            .whenScenarioStateIs("second")
            .willReturn(okJson(tokenBody("https://inst.example", "tok-2"))));
    TokenProvider p = provider(clientCredentials("secret"));
    AccessToken t1 = p.token();
    p.invalidate(t1);
    AccessToken t2 = p.token();
    assertThat(t2.value()).isEqualTo("tok-2");
    p.invalidate(t1); // stale caller: the newer token stays
    assertThat(p.token()).isSameAs(t2);
    wm.verify(2, postRequestedFor(urlEqualTo(TOKEN_PATH)));
  }

  @Test
  void auth5_serverErrorsAndTransportFailuresAreRetriedWithBackoff() throws Exception {
    wm.stubFor(
        post(TOKEN_PATH)
            .inScenario("r")
            .whenScenarioStateIs(Scenario.STARTED)
            .willReturn(aResponse().withStatus(503).withBody("busy"))
            .willSetStateTo("b"));
    wm.stubFor(
        post(TOKEN_PATH)
            .inScenario("r")
            .whenScenarioStateIs("b")
            .willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER))
            .willSetStateTo("c"));
    wm.stubFor(
        post(TOKEN_PATH)
            .inScenario("r")
            .whenScenarioStateIs("c")
            .willReturn(okJson(tokenBody("https://inst.example", "tok"))));
    AccessToken t = provider(clientCredentials("secret")).token();
    assertThat(t.value()).isEqualTo("tok");
    wm.verify(3, postRequestedFor(urlEqualTo(TOKEN_PATH)));
    List<Duration> sleeps = time.sleeps();
    assertThat(sleeps).hasSize(2);
    assertThat(sleeps.get(0)).isBetween(Duration.ofMillis(450), Duration.ofMillis(550));
    assertThat(sleeps.get(1)).isBetween(Duration.ofMillis(900), Duration.ofMillis(1100));
    probe.collect();
    assertThat(probe.counter("sf2loki_auth_refreshes", Attributes.empty())).isEqualTo(1);
    assertThat(probe.counter("sf2loki_auth_errors", Attributes.empty())).isZero();
  }

  @Test
  @org.junit.jupiter.api.DisplayName(
      "AUTH-5, AUTH-10: a transport failure names the host and the cause, never a secret")
  void auth5_transportFailureNamesHostAndCause() {
    wm.stubFor(post(TOKEN_PATH).willReturn(aResponse().withFault(Fault.CONNECTION_RESET_BY_PEER)));
    TokenProvider p = provider(clientCredentials("s3cret-value"));
    assertThatThrownBy(p::token)
        .isInstanceOf(AuthException.class)
        .hasMessageStartingWith("token endpoint transport failure (localhost): ")
        .hasMessageContaining("IOException")
        .hasMessageNotContaining("s3cret-value");
    wm.verify(4, postRequestedFor(urlEqualTo(TOKEN_PATH)));
  }

  @Test
  void auth5_givesUpAfterFourAttempts() {
    wm.stubFor(post(TOKEN_PATH).willReturn(aResponse().withStatus(500).withBody("down")));
    TokenProvider p = provider(clientCredentials("secret"));
    assertThatThrownBy(p::token)
        .isInstanceOf(AuthException.class)
        .hasMessage("token endpoint HTTP 500: down");
    wm.verify(4, postRequestedFor(urlEqualTo(TOKEN_PATH)));
    assertThat(time.sleeps()).hasSize(3);
    assertThat(time.sleeps().get(2)).isBetween(Duration.ofMillis(1800), Duration.ofMillis(2200));
    assertThat(probe.counter("sf2loki_auth_errors", Attributes.empty())).isEqualTo(1);
  }

  @Test
  void auth5_clientErrorFailsAtOnceWithErrorCode() {
    wm.stubFor(
        post(TOKEN_PATH)
            .willReturn(
                aResponse()
                    .withStatus(400)
                    .withHeader("Content-Type", "application/json")
                    .withBody(fixture("reconstructed_oauth_error_invalid_grant.json"))));
    TokenProvider p = provider(jwt("production", "", AuthTestSupport.pkcs8Pem(keys)));
    assertThatThrownBy(p::token)
        .isInstanceOfSatisfying(
            AuthException.class,
            e -> {
              assertThat(e.status()).isEqualTo(400);
              assertThat(e.errorCode()).isEqualTo("invalid_grant");
              assertThat(e.getMessage())
                  .startsWith("token endpoint HTTP 400: ")
                  .contains("authentication failure");
            });
    wm.verify(1, postRequestedFor(urlEqualTo(TOKEN_PATH)));
    assertThat(time.sleeps()).isEmpty();
    probe.collect();
    assertThat(probe.counter("sf2loki_auth_errors", Attributes.empty())).isEqualTo(1);
    assertThat(probe.counter("sf2loki_auth_refreshes", Attributes.empty())).isZero();
  }

  @Test
  void auth10_errorMessagesNeverContainAssertionSecretOrToken() throws Exception {
    // The endpoint echoes the request body: the message must still not reveal it.
    wm.stubFor(
        post(TOKEN_PATH)
            .willReturn(
                aResponse()
                    .withStatus(400)
                    .withBody("{\"error\":\"invalid_client\",\"echo\":\"{{request.body}}\"}")
                    .withTransformers("response-template")));
    TokenProvider cc = provider(clientCredentials("TopSecretValue/+="));
    assertThatThrownBy(cc::token)
        .isInstanceOf(AuthException.class)
        .message()
        .contains("***") // the echo arrived and was redacted
        .doesNotContain("TopSecretValue")
        .doesNotContain("TopSecretValue%2F%2B%3D");

    TokenProvider jp = provider(jwt("production", "", AuthTestSupport.pkcs8Pem(keys)));
    Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(jp::token);
    String assertion =
        form(wm.findAll(postRequestedFor(urlEqualTo(TOKEN_PATH))).get(1)).get("assertion");
    assertThat(thrown.getMessage())
        .doesNotContain(assertion)
        .doesNotContain(assertion.substring(0, 40));

    AccessToken t = new AccessToken("00Dsecret!token", URI.create("https://x"), Instant.EPOCH);
    assertThat(t.toString()).doesNotContain("00Dsecret!token");
    assertThat(clientCredentials("TopSecretValue").toString()).doesNotContain("TopSecretValue");
  }

  @Test
  void auth8_orgIdConfiguredNeedsNoNetwork() throws Exception {
    TokenProvider p = provider(clientCredentials("secret"));
    assertThat(new OrgIdResolver("00Dxx0000000001EAA", p, http, time.timeSource()).orgId())
        .isEqualTo("00Dxx0000000001EAA");
    assertThat(wm.getAllServeEvents()).isEmpty();
  }

  @Test
  void auth8_orgIdResolvedFromUserinfoCachedAnd401RetriedOnce() throws Exception {
    wm.stubFor(
        post(TOKEN_PATH)
            .inScenario("mint")
            .whenScenarioStateIs(Scenario.STARTED)
            .willReturn(okJson(tokenBody(wm.baseUrl(), "tok-1")))
            .willSetStateTo("second"));
    wm.stubFor(
        post(TOKEN_PATH)
            .inScenario("mint")
            .whenScenarioStateIs("second")
            .willReturn(okJson(tokenBody(wm.baseUrl(), "tok-2"))));
    wm.stubFor(
        get("/services/oauth2/userinfo")
            .withHeader("Authorization", equalTo("Bearer tok-1"))
            .willReturn(
                aResponse()
                    .withStatus(401)
                    .withBody(fixture("reconstructed_error_invalid_session_id_401.json"))));
    wm.stubFor(
        get("/services/oauth2/userinfo")
            .withHeader("Authorization", equalTo("Bearer tok-2"))
            .willReturn(okJson(fixture("reconstructed_userinfo.json"))));
    TokenProvider p = provider(clientCredentials("secret"));
    OrgIdResolver r = new OrgIdResolver("", p, http, time.timeSource());
    assertThat(r.orgId()).isEqualTo("00Dxx0000000001EAA");
    assertThat(r.orgId()).isEqualTo("00Dxx0000000001EAA");
    wm.verify(2, postRequestedFor(urlEqualTo(TOKEN_PATH)));
    wm.verify(2, getRequestedFor(urlEqualTo("/services/oauth2/userinfo")));
  }

  @Test
  void auth8_secondUserinfo401IsAnError() throws Exception {
    wm.stubFor(post(TOKEN_PATH).willReturn(okJson(tokenBody(wm.baseUrl(), "tok"))));
    wm.stubFor(get("/services/oauth2/userinfo").willReturn(aResponse().withStatus(401)));
    OrgIdResolver r =
        new OrgIdResolver(null, provider(clientCredentials("secret")), http, time.timeSource());
    assertThatThrownBy(r::orgId)
        .isInstanceOfSatisfying(AuthException.class, e -> assertThat(e.status()).isEqualTo(401));
    wm.verify(2, getRequestedFor(urlEqualTo("/services/oauth2/userinfo")));
  }
}
