package io.sf2loki.salesforce.rest;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.opentelemetry.sdk.metrics.data.DoublePointData;
import io.opentelemetry.sdk.metrics.data.LongPointData;
import io.opentelemetry.sdk.metrics.data.MetricData;
import io.opentelemetry.sdk.testing.exporter.InMemoryMetricReader;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Collection;

/** Fixtures and metric probes shared by the auth and rest tests. */
public final class RestTestSupport {
  private RestTestSupport() {}

  /** A copied fixture from {@code src/test/resources/fixtures/rest}. */
  public static String fixture(String name) {
    try (InputStream in = RestTestSupport.class.getResourceAsStream("/fixtures/rest/" + name)) {
      if (in == null) {
        throw new IllegalArgumentException("no fixture " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The token fixture with {@code instance_url} pointing at {@code instanceUrl}. */
  public static String tokenBody(String instanceUrl, String accessToken) {
    return fixture("reconstructed_oauth_token_client_credentials.json")
        .replace("https://example.my.salesforce.com", instanceUrl)
        .replace("00Dxx0000000001!AQEAQFAKEFAKEFAKEFAKEFAKEFAKEFAKE", accessToken);
  }

  /**
   * A client-credentials token provider against a WireMock server that mints {@code tok-1}, then
   * {@code tok-2} on every later mint (the stubs use the WireMock scenario "mint").
   *
   * @param wm the running WireMock server (its base URL is the login and instance URL)
   */
  public static io.sf2loki.salesforce.auth.TokenProvider wireMockTokens(
      com.github.tomakehurst.wiremock.junit5.WireMockExtension wm,
      java.net.http.HttpClient http,
      Sf2lokiMetrics metrics,
      io.sf2loki.core.time.TimeSource time) {
    String tokenPath = "/services/oauth2/token";
    wm.stubFor(
        com.github.tomakehurst.wiremock.client.WireMock.post(tokenPath)
            .inScenario("mint")
            .whenScenarioStateIs(com.github.tomakehurst.wiremock.stubbing.Scenario.STARTED)
            .willReturn(
                com.github.tomakehurst.wiremock.client.WireMock.okJson(
                    tokenBody(wm.baseUrl(), "tok-1")))
            .willSetStateTo("second"));
    wm.stubFor(
        com.github.tomakehurst.wiremock.client.WireMock.post(tokenPath)
            .inScenario("mint")
            .whenScenarioStateIs("second")
            .willReturn(
                com.github.tomakehurst.wiremock.client.WireMock.okJson(
                    tokenBody(wm.baseUrl(), "tok-2"))));
    return new io.sf2loki.salesforce.auth.TokenProvider(
        new io.sf2loki.salesforce.auth.SalesforceAuthSettings(
            java.net.URI.create(wm.baseUrl()),
            "production",
            io.sf2loki.salesforce.auth.AuthMode.CLIENT_CREDENTIALS,
            "client",
            "secret",
            "",
            null,
            "",
            java.time.Duration.ofHours(1)),
        http,
        metrics,
        time,
        java.util.random.RandomGenerator.of("L64X128MixRandom"),
        java.time.Duration.ofSeconds(30));
  }

  /** Metrics backed by an in-memory reader. */
  public static final class Probe implements AutoCloseable {
    public final InMemoryMetricReader reader = InMemoryMetricReader.create();
    public final SdkMeterProvider provider =
        SdkMeterProvider.builder().registerMetricReader(reader).build();
    public final Sf2lokiMetrics metrics = new Sf2lokiMetrics(provider, "test");

    private Collection<MetricData> collected;

    /** Collects once; subsequent reads see this snapshot until {@link #collect()} again. */
    public Probe collect() {
      collected = reader.collectAllMetrics();
      return this;
    }

    /** Sum of a counter for an attribute set (0 when absent). */
    public long counter(String name, Attributes attrs) {
      if (collected == null) {
        collect();
      }
      return collected.stream()
          .filter(m -> m.getName().equals(name))
          .flatMap(m -> m.getLongSumData().getPoints().stream())
          .filter(p -> p.getAttributes().equals(attrs))
          .mapToLong(LongPointData::getValue)
          .sum();
    }

    /** Value of a gauge for an attribute set (NaN when absent). */
    public double gauge(String name, Attributes attrs) {
      if (collected == null) {
        collect();
      }
      return collected.stream()
          .filter(m -> m.getName().equals(name))
          .flatMap(m -> m.getDoubleGaugeData().getPoints().stream())
          .filter(p -> p.getAttributes().equals(attrs))
          .mapToDouble(DoublePointData::getValue)
          .findFirst()
          .orElse(Double.NaN);
    }

    @Override
    public void close() {
      provider.close();
    }
  }
}
