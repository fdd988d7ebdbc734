package io.sf2loki.loki;

import static com.github.tomakehurst.wiremock.client.WireMock.aResponse;
import static com.github.tomakehurst.wiremock.client.WireMock.post;
import static com.github.tomakehurst.wiremock.client.WireMock.postRequestedFor;
import static com.github.tomakehurst.wiremock.client.WireMock.urlEqualTo;
import static com.github.tomakehurst.wiremock.core.WireMockConfiguration.options;
import static org.assertj.core.api.Assertions.assertThat;

import com.github.tomakehurst.wiremock.WireMockServer;
import com.github.tomakehurst.wiremock.stubbing.Scenario;
import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.Lane;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.pipeline.CommitListener;
import io.sf2loki.core.pipeline.Pipeline;
import io.sf2loki.core.pipeline.PipelineSettings;
import io.sf2loki.core.testing.InMemoryCheckpointStore;
import io.sf2loki.core.testing.ListSource;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.Sleeper;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The sink inside a real pipeline: every retry wait of a Loki push — request retries (SINK-9) and
 * batch retries (PIPE-7) — is the lane's, on the term's sleeper; the sink's own sleeper serves only
 * the tenant gate (SINK-17).
 */
class OneRetryLayerTest {
  private static final String PATH = "/loki/api/v1/push";
  private static WireMockServer wm;
  private static final Instant START = Instant.parse("2026-01-01T00:00:00Z");
  private final FakeTime time = new FakeTime(START);
  private final SdkMeterProvider provider = SdkMeterProvider.builder().build();
  private final Sf2lokiMetrics metrics = new Sf2lokiMetrics(provider, "1.2.3");
  private final InMemoryCheckpointStore store = new InMemoryCheckpointStore();
  private final List<Duration> sinkSleeps = new CopyOnWriteArrayList<>();
  private LokiHttpSink sink;

  @BeforeAll
  static void startServer() {
    wm = new WireMockServer(options().dynamicPort());
    wm.start();
  }

  @AfterAll
  static void stopServer() {
    wm.stop();
  }

  @AfterEach
  void close() {
    if (sink != null) {
      sink.close();
    }
    provider.close();
  }

  @Test
  @DisplayName(
      "SINK-9, PIPE-7, PIPE-11: 500 ×6 then 204 in a lane — four request retry waits in [0.5 s, 2^(k−1) s]"
          + " and one 1 s batch wait, all on the lane's sleeper; six failed requests, then the same"
          + " batch is delivered and committed; the lane is marked failing before the first wait")
  void sink9_pipe7_oneRetryLayerInTheLane() throws Exception {
    String scenario = "outage";
    for (int i = 0; i < 6; i++) {
      wm.stubFor(
          post(PATH)
              .inScenario(scenario)
              .whenScenarioStateIs(i == 0 ? Scenario.STARTED : "s" + i)
              .willSetStateTo("s" + (i + 1))
              .willReturn(aResponse().withStatus(500)));
    }
    wm.stubFor(
        post(PATH)
            .inScenario(scenario)
            .whenScenarioStateIs("s6")
            .willReturn(aResponse().withStatus(204)));
    Sleeper sinkSleeper =
        (d, stop) -> {
          sinkSleeps.add(d);
          return true;
        };
    sink =
        new LokiHttpSink(
            LokiSinkSettings.of(URI.create(wm.baseUrl() + PATH), "1.2.3"),
            metrics,
            sinkSleeper,
            new Random(3));
    LogEntry e =
        LogEntry.of(
            Instant.parse("2025-12-31T23:00:00Z"),
            Map.of("source", "eventlogfile"),
            "line",
            Map.of(),
            new CheckpointToken("eventlogfile:Login", "c1"));
    AtomicReference<Pipeline> pipeline = new AtomicReference<>();
    List<Optional<Instant>> markAtEachWait = new CopyOnWriteArrayList<>();
    TimeSource lane =
        new TimeSource(
            time.wall(),
            time.ticker(),
            (d, stop) -> {
              markAtEachWait.add(pipeline.get().failingSince());
              return time.sleeper().sleep(d, stop);
            });
    Pipeline p =
        new Pipeline(
            new PipelineSettings(
                10,
                1_048_576,
                Duration.ofSeconds(1),
                100,
                0,
                Duration.ofSeconds(5),
                Duration.ofSeconds(1),
                Duration.ofSeconds(30),
                Map.of("job", "sf2loki"),
                Duration.ZERO),
            List.of(new ListSource("elf", Lane.BULK, List.of(e))),
            sink,
            store,
            metrics,
            lane,
            UnaryOperator.identity(),
            CommitListener.none());
    pipeline.set(p);
    p.run(new StopSignal());

    wm.verify(7, postRequestedFor(urlEqualTo(PATH)));
    assertThat(sinkSleeps).as("the sink waits on no retry of its own").isEmpty();
    List<Duration> sleeps = time.sleeps();
    assertThat(sleeps).hasSize(6);
    for (int k = 1; k <= 4; k++) {
      assertThat(sleeps.get(k - 1))
          .as("request retry %d", k)
          .isBetween(Duration.ofMillis(500), Duration.ofSeconds(1L << (k - 1)));
    }
    assertThat(sleeps.get(4)).as("batch retry (PIPE-7)").isEqualTo(Duration.ofSeconds(1));
    assertThat(sleeps.get(5))
        .as("request retry 1 of the batch's next push")
        .isBetween(Duration.ofMillis(500), Duration.ofSeconds(1));
    assertThat(store.snapshot()).containsEntry("eventlogfile:Login", "c1");
    assertThat(markAtEachWait)
        .as("PIPE-11: the lane is marked failing from the first failed request, before any wait")
        .hasSize(6)
        .allSatisfy(m -> assertThat(m).contains(START));
    assertThat(p.failingSince()).as("the delivery cleared the mark").isEmpty();
  }
}
