package io.sf2loki.salesforce.auth;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.Sleeper;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.core.time.TimeSource;
import io.sf2loki.salesforce.rest.RestTestSupport.Probe;
import io.sf2loki.salesforce.rest.SalesforceHttpClients;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * CLI-3, AUTH-9: the startup probe's mint ends through the stop signal — an in-flight token call is
 * cancelled and a backoff wait cut short — without interrupting the minting thread.
 */
class StopAwareMintTest {
  private HttpServer server;
  private final CountDownLatch requestArrived = new CountDownLatch(1);
  private final CountDownLatch releaseServer = new CountDownLatch(1);
  private final AtomicInteger requests = new AtomicInteger();
  private volatile int status = 0; // 0: never answer (hang); else answer with this status
  private final ExecutorService httpExecutor = SalesforceHttpClients.newExecutor();
  private HttpClient http;
  private final Probe probe = new Probe();

  @BeforeEach
  void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
    server.createContext(
        "/services/oauth2/token",
        ex -> {
          requests.incrementAndGet();
          ex.getRequestBody().readAllBytes();
          requestArrived.countDown();
          if (status == 0) {
            try {
              releaseServer.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            }
          }
          byte[] body = "busy".getBytes(StandardCharsets.UTF_8);
          ex.sendResponseHeaders(status == 0 ? 503 : status, body.length);
          ex.getResponseBody().write(body);
          ex.close();
        });
    server.start();
    http = SalesforceHttpClients.create(Duration.ofSeconds(10), httpExecutor);
  }

  @AfterEach
  void stop() {
    releaseServer.countDown();
    server.stop(0);
    http.close();
    httpExecutor.close();
    probe.close();
  }

  private TokenProvider provider(TimeSource time) {
    SalesforceAuthSettings s =
        new SalesforceAuthSettings(
            URI.create("http://127.0.0.1:" + server.getAddress().getPort()),
            "production",
            AuthMode.CLIENT_CREDENTIALS,
            "3MVG9client",
            "secret",
            "",
            null,
            "",
            Duration.ofMinutes(10));
    return new TokenProvider(
        s,
        http,
        probe.metrics,
        time,
        RandomGenerator.of("L64X128MixRandom"),
        Duration.ofSeconds(30));
  }

  /** Runs {@code mint(stop)} on its own thread; records the outcome and its interrupt flag. */
  private record Minting(
      Thread thread, AtomicReference<Throwable> failure, boolean[] interrupted) {}

  private static Minting mintOn(TokenProvider p, StopSignal stop) {
    AtomicReference<Throwable> failure = new AtomicReference<>();
    boolean[] interrupted = {false};
    Thread t =
        Thread.ofPlatform()
            .start(
                () -> {
                  try {
                    p.mint(stop);
                  } catch (Throwable e) {
                    failure.set(e);
                  }
                  interrupted[0] = Thread.currentThread().isInterrupted();
                });
    return new Minting(t, failure, interrupted);
  }

  @Test
  @DisplayName(
      "CLI-3, AUTH-9: a stop while the token call hangs cancels the call at once through the"
          + " stop signal; the minting thread is not interrupted")
  void cli3_stopCancelsInFlightTokenCall() throws Exception {
    FakeTime time = new FakeTime(Instant.parse("2026-12-02T00:00:00Z"));
    StopSignal stop = new StopSignal();
    Minting m = mintOn(provider(time.timeSource()), stop);
    assertThat(requestArrived.await(5, TimeUnit.SECONDS)).isTrue();

    stop.stop();
    m.thread().join(5000);
    assertThat(m.thread().isAlive()).as("mint returned without the server answering").isFalse();
    assertThat(releaseServer.getCount()).as("the server never answered").isOne();
    assertThat(m.failure().get())
        .isInstanceOf(AuthException.class)
        .hasMessage("token endpoint call stopped");
    assertThat(m.interrupted()[0]).as("no interrupt was used").isFalse();
    assertThat(requests.get()).isOne();
    assertThat(time.sleeps()).as("no retry after the stop").isEmpty();
    assertThat(probe.counter("sf2loki_auth_errors", Attributes.empty())).isEqualTo(1);
  }

  @Test
  @DisplayName(
      "CLI-3, AUTH-5: a stop during the backoff after a 503 ends the mint with that failure and"
          + " no further attempt")
  void cli3_stopEndsBackoffWait() throws Exception {
    status = 503;
    StopSignal stop = new StopSignal();
    List<Duration> waits = new CopyOnWriteArrayList<>();
    // the sleeper stands for a real backoff that the stop signal cuts short
    Sleeper stoppedDuringWait =
        (d, s) -> {
          waits.add(d);
          stop.stop();
          return !s.isStopped();
        };
    FakeTime time = new FakeTime(Instant.parse("2026-12-02T00:00:00Z"));
    TokenProvider p = provider(new TimeSource(time.wall(), time.ticker(), stoppedDuringWait));
    Minting m = mintOn(p, stop);
    m.thread().join(5000);
    assertThat(m.thread().isAlive()).isFalse();
    assertThat(m.failure().get())
        .isInstanceOf(AuthException.class)
        .hasMessage("token endpoint HTTP 503: busy");
    assertThat(waits).hasSize(1);
    assertThat(requests.get()).as("no attempt after the stopped wait").isOne();
    assertThat(m.interrupted()[0]).isFalse();
  }

  @Test
  @DisplayName("CLI-3: a stop that fired before the probe makes no token call")
  void cli3_stoppedBeforeMakesNoCall() throws Exception {
    StopSignal stop = new StopSignal();
    stop.stop();
    FakeTime time = new FakeTime(Instant.parse("2026-12-02T00:00:00Z"));
    Minting m = mintOn(provider(time.timeSource()), stop);
    m.thread().join(5000);
    assertThat(m.failure().get())
        .isInstanceOf(AuthException.class)
        .hasMessage("token endpoint call stopped");
    assertThat(requests.get()).isZero();
  }
}
