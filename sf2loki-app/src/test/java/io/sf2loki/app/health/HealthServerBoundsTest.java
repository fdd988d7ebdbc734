package io.sf2loki.app.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** OBS-7 / OBS-33 connection bounds, over real loopback sockets. */
class HealthServerBoundsTest {
  final List<Socket> sockets = new ArrayList<>();
  HealthServer server;

  @AfterEach
  void closeAll() throws IOException {
    for (Socket s : sockets) {
      s.close();
    }
    if (server != null) {
      server.close();
    }
  }

  Socket connect() throws IOException {
    Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port());
    sockets.add(s);
    return s;
  }

  /** The whole answer of one request written by hand (the server closes after answering). */
  String request(String head) throws IOException {
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
      s.setSoTimeout(10_000);
      s.getOutputStream().write(head.getBytes(StandardCharsets.ISO_8859_1));
      s.getOutputStream().flush();
      return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** True once the server closed {@code s} (EOF or reset); a read that times out means open. */
  static boolean closedByServer(Socket s) {
    try {
      s.setSoTimeout(50);
      InputStream in = s.getInputStream();
      return in.read() < 0;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (IOException e) {
      return true; // reset
    }
  }

  @Test
  @DisplayName(
      "OBS-7, OBS-33: the request-head timeout defaults to 5 s and connections to a bound of 128")
  void obs7_defaults() {
    assertThat(HealthServer.DEFAULT_HEAD_TIMEOUT).isEqualTo(Duration.ofSeconds(5));
    assertThat(HealthServer.DEFAULT_MAX_CONNECTIONS).isEqualTo(128);
  }

  @Test
  @DisplayName("OBS-7: idle and slow clients that send no complete head are dropped")
  void obs7_dropsIdleAndSlowHeads() throws Exception {
    server =
        HealthServer.builder(new Readiness())
            .address("127.0.0.1:0")
            .headTimeout(Duration.ofMillis(300))
            .threads(1)
            .start();
    Socket idle = connect();
    Socket slow = connect();
    slow.getOutputStream().write("GET /healthz HTTP/1.1\r\nHost: x\r\n".getBytes());
    slow.getOutputStream().flush();

    await().atMost(Duration.ofSeconds(10)).until(() -> closedByServer(idle));
    await().atMost(Duration.ofSeconds(10)).until(() -> closedByServer(slow));
    assertThat(server.dropped(HealthListener.Drop.HEAD_TIMEOUT)).isEqualTo(2);
    assertThat(request("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")).endsWith("\r\n\r\nok");
  }

  @Test
  @DisplayName(
      "OBS-7, OBS-33: /healthz answers ok while 250 idle and slow clients are open; connections stay"
          + " bounded and the idle ones are dropped after the default 5 s")
  void obs7_probeAnsweredWhileClientsHogConnections() throws Exception {
    server = HealthServer.builder(new Readiness()).address("127.0.0.1:0").threads(1).start();
    int clients = 250;
    for (int i = 0; i < clients; i++) {
      Socket s = connect();
      if (i % 2 == 1) {
        s.getOutputStream().write("GET /healthz HTTP/1.1\r\nHo".getBytes());
        s.getOutputStream().flush();
      }
    }
    // the bound holds: every connection above it evicted the oldest incomplete head
    int over = clients - HealthServer.DEFAULT_MAX_CONNECTIONS;
    await()
        .atMost(Duration.ofSeconds(10))
        .until(() -> server.dropped(HealthListener.Drop.EVICTED) >= over);
    assertThat(sockets.subList(0, over)).allMatch(HealthServerBoundsTest::closedByServer);

    // a probe is answered although every slot is held by an idle or slow client
    assertThat(request("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"))
        .startsWith("HTTP/1.1 200 ")
        .endsWith("\r\n\r\nok");

    // the remaining clients are dropped by the (default, 5 s) head timeout
    await()
        .atMost(Duration.ofSeconds(15))
        .until(() -> sockets.stream().allMatch(HealthServerBoundsTest::closedByServer));
    assertThat(server.dropped(HealthListener.Drop.HEAD_TIMEOUT)).isPositive();
    assertThat(
            server.dropped(HealthListener.Drop.HEAD_TIMEOUT)
                + server.dropped(HealthListener.Drop.EVICTED))
        .isEqualTo(clients); // each client dropped exactly once
    assertThat(server.dropped(HealthListener.Drop.OVER_LIMIT)).isZero();
  }

  @Test
  @DisplayName("OBS-33: a malformed request line or an oversized head gets 400 bad request")
  void obs7_malformedAndOversizedHeads() throws Exception {
    server = HealthServer.builder(new Readiness()).address("127.0.0.1:0").start();
    assertThat(request("nonsense\r\n\r\n")).startsWith("HTTP/1.1 400 ").endsWith("bad request");
    assertThat(request("GET /healthz\r\n\r\n")).startsWith("HTTP/1.1 400 ");
    String huge = "GET /healthz HTTP/1.1\r\nX: " + "a".repeat(HealthServer.MAX_HEAD_BYTES) + "\r\n";
    assertThat(request(huge)).startsWith("HTTP/1.1 400 ").endsWith("bad request");
    // bare LF line ends and a request body are accepted
    assertThat(request("GET /healthz HTTP/1.0\n\n")).endsWith("\r\n\r\nok");
    assertThat(request("POST /healthz HTTP/1.1\r\nContent-Length: 3\r\n\r\nabc"))
        .endsWith("\r\n\r\nok");
  }

  @Test
  @DisplayName(
      "OBS-33: when every slot holds an answer being computed, a new connection is refused at"
          + " once and the answer in flight still completes")
  void obs33_overLimitRefusedWhileAnswersInFlight() throws Exception {
    CountDownLatch computing = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    server =
        HealthServer.builder(new Readiness())
            .address("127.0.0.1:0")
            .maxConnections(1)
            .route(
                "/slow",
                () -> {
                  computing.countDown();
                  try {
                    release.await();
                  } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                  }
                  return HealthServer.Response.text(200, "done");
                })
            .start();
    Socket slow = connect();
    slow.getOutputStream().write("GET /slow HTTP/1.1\r\n\r\n".getBytes());
    slow.getOutputStream().flush();
    computing.await();
    Socket refused = connect();
    await().atMost(Duration.ofSeconds(10)).until(() -> closedByServer(refused));
    assertThat(server.dropped(HealthListener.Drop.OVER_LIMIT)).isEqualTo(1);
    release.countDown();
    slow.setSoTimeout(10_000);
    assertThat(new String(slow.getInputStream().readAllBytes(), StandardCharsets.UTF_8))
        .startsWith("HTTP/1.1 200 ")
        .endsWith("\r\n\r\ndone");
  }

  @Test
  @DisplayName("OBS-33: with a bound of one, a probe evicts the idle client holding the slot")
  void obs7_probeEvictsIdleClientAtBoundOfOne() throws Exception {
    server = HealthServer.builder(new Readiness()).address("127.0.0.1:0").maxConnections(1).start();
    assertThat(request("GET /healthz HTTP/1.1\r\n\r\n")).endsWith("ok");
    Socket idle = connect();
    // the idle connection holds the only slot; the probe evicts it
    assertThat(request("GET /readyz HTTP/1.1\r\n\r\n")).endsWith("not ready");
    await().atMost(Duration.ofSeconds(10)).until(() -> closedByServer(idle));
    assertThat(server.dropped(HealthListener.Drop.EVICTED)).isEqualTo(1);
  }
}
