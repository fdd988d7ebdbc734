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
