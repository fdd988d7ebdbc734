package io.sf2loki.app.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.opentelemetry.sdk.metrics.data.MetricData;
import io.sf2loki.app.config.ConfigLoader;
import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.app.demo.DemoScenario;
import io.sf2loki.app.testing.RetainingMetricReader;
import io.sf2loki.core.model.Batch;
import io.sf2loki.core.spi.PermanentSinkException;
import io.sf2loki.core.spi.PushResult;
import io.sf2loki.core.spi.RetryableSinkException;
import io.sf2loki.core.spi.Sink;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.Ticker;
import io.sf2loki.core.time.TimeSource;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * FEAT-21 through the daemon: a Loki push that hangs (not stop-aware) wedges the bulk lane's
 * consumer; with {@code service.liveness_timeout} set, {@code /healthz} then answers 503 {@code
 * wedged: lane bulk} and {@code sf2loki_wedged} reads 1, and both recover once the push returns.
 */
class DaemonLivenessTest {
  /** Real time; waits up to 60 s (retries, backoffs) last 2 ms, longer ones are real. */
  private static final TimeSource FAST =
      new TimeSource(
          InstantSource.system(),
          Ticker.system(),
          (d, stop) ->
              !stop.await(
                  d.compareTo(Duration.ofSeconds(60)) <= 0
                      ? Duration.ofMillis(Math.min(2, Math.max(0, d.toMillis())))
                      : d));

  private DemoScenario scenario;
  private final RetainingMetricReader reader = new RetainingMetricReader();
  private final HttpClient http = HttpClient.newHttpClient();
  private final CountDownLatch pushing = new CountDownLatch(1);
  private final CountDownLatch release = new CountDownLatch(1);

  @BeforeEach
  void start() throws Exception {
    scenario = DemoScenario.start(5, false, true, Instant.now());
  }

  @AfterEach
  void stop() {
    release.countDown();
    http.close();
    scenario.close();
  }

  /** The first push hangs until released, ignoring the stop signal: a wedged consumer. */
  private Sink hangFirstPush(Sink real) {
    AtomicInteger calls = new AtomicInteger();
    return new Sink() {
      @Override
      public PushResult push(Batch batch, boolean singleAttempt, StopSignal stop)
          throws RetryableSinkException, PermanentSinkException, InterruptedException {
        if (calls.getAndIncrement() == 0) {
          pushing.countDown();
          release.await();
        }
        return real.push(batch, singleAttempt, stop);
      }

      @Override
      public void close() {
        real.close();
      }
    };
  }

  private Daemon daemon(String livenessTimeout) throws Exception {
    Path state = scenario.dir().resolve("state/state.json");
    Sf2lokiConfig cfg =
        new ConfigLoader()
            .load(
                scenario.writeConfig(scenario.receiver().pushUrl(), state),
                Map.of("SF2LOKI_SERVICE__LIVENESS_TIMEOUT", livenessTimeout));
    return new Daemon(
        cfg,
        new DaemonOptions(false, reader, this::hangFirstPush, FAST),
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
  }

  private List<Object> healthz(int port) throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/healthz")).build(),
            HttpResponse.BodyHandlers.ofString());
    return List.of(r.statusCode(), r.body());
  }

  private long wedgedGauge() {
    for (MetricData m : reader.collectAllMetrics()) {
      if (m.getName().equals("sf2loki_wedged")) {
        return m.getLongGaugeData().getPoints().iterator().next().getValue();
      }
    }
    throw new AssertionError("sf2loki_wedged not served");
  }

  @Test
  @DisplayName(
      "FEAT-21, OBS-32, OBS-8: a hung push makes /healthz answer 503 'wedged: lane bulk' and"
          + " sf2loki_wedged 1 after liveness_timeout; both recover when the push returns")
  void feat21_hungPushWedgesHealthz() throws Exception {
    Daemon d = daemon("1s");
    StopSignal stop = new StopSignal();
    AtomicInteger status = new AtomicInteger(-1);
    Thread t = Thread.ofPlatform().start(() -> status.set(d.run(stop)));
    try {
      await().atMost(Duration.ofSeconds(30)).until(() -> d.healthPort() > 0);
      int port = d.healthPort();
      assertThat(healthz(port)).containsExactly(200, "ok");
      assertThat(wedgedGauge()).isZero(); // OBS-20: served at its idle value

      pushing.await();
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> healthz(port).equals(List.of(503, "wedged: lane bulk")));
      assertThat(wedgedGauge()).isEqualTo(1);

      release.countDown();
      await().atMost(Duration.ofSeconds(20)).until(() -> healthz(port).equals(List.of(200, "ok")));
      assertThat(wedgedGauge()).isZero();
    } finally {
      release.countDown();
      stop.stop();
      t.join(30_000);
    }
    assertThat(status.get()).isZero();
  }

  @Test
  @DisplayName("FEAT-21: with the default liveness_timeout (0s) a hung push never fails /healthz")
  void feat21_offByDefault() throws Exception {
    Daemon d = daemon("0s");
    StopSignal stop = new StopSignal();
    Thread t = Thread.ofPlatform().start(() -> d.run(stop));
    try {
      pushing.await();
      int port = d.healthPort();
      // the consumer is stuck (nothing else moves); the check is off, so healthz stays ok
      assertThat(healthz(port)).containsExactly(200, "ok");
      assertThat(d.wedged()).isEmpty();
      assertThat(wedgedGauge()).isZero();
    } finally {
      release.countDown();
      stop.stop();
      t.join(30_000);
    }
  }
}
