package io.sf2loki.app.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class HealthServerTest {
  final Readiness readiness = new Readiness();
  final AtomicReference<Optional<String>> wedged = new AtomicReference<>(Optional.empty());
  HealthServer server;
  HttpClient client;

  @BeforeEach
  void start() throws IOException {
    server =
        HealthServer.builder(readiness)
            .address("127.0.0.1:0")
            .liveness(wedged::get)
            .metrics(
                new MetricsEndpoint() {
                  @Override
                  public String contentType() {
                    return "text/plain; version=0.0.4; charset=utf-8";
                  }

                  @Override
                  public void writeTo(OutputStream out) throws IOException {
                    out.write("m 1\n".getBytes(StandardCharsets.UTF_8));
                  }
                })
            .route("/statusz", () -> HealthServer.Response.text(200, "{}"))
            .start();
    client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  }

  @AfterEach
  void stop() {
    client.close();
    server.close();
  }

  HttpResponse<String> call(String method, String target) throws Exception {
    return client.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + target))
            .method(method, HttpRequest.BodyPublishers.noBody())
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }

  /** The raw response bytes of one request written by hand. */
  String raw(String requestHead) throws IOException {
    try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.port())) {
      s.getOutputStream().write(requestHead.getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().flush();
      InputStream in = s.getInputStream();
      return new String(
          in.readAllBytes(), StandardCharsets.UTF_8); // server closes (Connection: close)
    }
  }

  @Test
  @DisplayName("OBS-7: ephemeral :0 port is exposed; wildcard host binds all interfaces")
  void ephemeralPort() throws IOException {
    assertThat(server.port()).isPositive();
    try (HealthServer any = HealthServer.builder(readiness).address(":0").start()) {
      assertThat(any.address().getAddress().isAnyLocalAddress()).isTrue();
      assertThat(any.port()).isPositive();
    }
  }

  @Test
  @DisplayName("OBS-7/OBS-8: /healthz is 200 ok with exact headers and no trailing newline")
  void healthzExactBytes() throws IOException {
    String resp = raw("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    assertThat(resp).startsWith("HTTP/1.1 200 ");
    String lower = resp.toLowerCase(java.util.Locale.ROOT);
    assertThat(lower).contains("\r\ncontent-type: text/plain; charset=utf-8\r\n");
    assertThat(lower).contains("\r\ncontent-length: 2\r\n");
    assertThat(lower).contains("\r\nconnection: close\r\n");
    assertThat(resp).endsWith("\r\n\r\nok");
  }

  @Test
  @DisplayName("OBS-7: any method, exact target; a query string does not match")
  void anyMethodExactPath() throws Exception {
    for (String m : List.of("GET", "POST", "PUT", "DELETE", "OPTIONS")) {
      var r = call(m, "/healthz");
      assertThat(r.statusCode()).as(m).isEqualTo(200);
      assertThat(r.body()).as(m).isEqualTo("ok");
    }
    var head = call("HEAD", "/healthz");
    assertThat(head.statusCode()).isEqualTo(200);
    assertThat(head.headers().firstValue("content-length")).hasValue("2");
    assertThat(head.body()).isEmpty();
    for (String t : List.of("/healthz?x=1", "/healthz/", "/HEALTHZ", "/", "/readyz?a", "/nope")) {
      var r = call("GET", t);
      assertThat(r.statusCode()).as(t).isEqualTo(404);
      assertThat(r.body()).as(t).isEqualTo("not found");
      assertThat(r.headers().firstValue("content-type")).hasValue("text/plain; charset=utf-8");
    }
    // an empty query string (which java.net.http would drop) still does not match
    assertThat(raw("GET /readyz? HTTP/1.1\r\nHost: x\r\n\r\n")).startsWith("HTTP/1.1 404 ");
  }

  @Test
  @DisplayName("OBS-8: /readyz follows state, then degradation predicates in order")
  void readyz() throws Exception {
    List<Boolean> virtual = new CopyOnWriteArrayList<>();
    AtomicReference<Optional<String>> first = new AtomicReference<>(Optional.empty());
    readiness.addDegradation(
        () -> {
          virtual.add(Thread.currentThread().isVirtual());
          return first.get();
        });
    readiness.addDegradation(() -> Optional.of("degraded: second"));

    assertThat(call("GET", "/readyz"))
        .extracting(HttpResponse::statusCode, HttpResponse::body)
        .containsExactly(503, "not ready");
    readiness.set(Readiness.State.STANDBY);
    assertThat(call("GET", "/readyz").body()).isEqualTo("standby");
    readiness.set(Readiness.State.READY);
    var r = call("GET", "/readyz");
    assertThat(r.statusCode()).isEqualTo(503);
    assertThat(r.body()).isEqualTo("degraded: second");
    first.set(Optional.of("degraded: loki pushes failing for 3m"));
    assertThat(call("GET", "/readyz").body()).isEqualTo("degraded: loki pushes failing for 3m");
    assertThat(virtual).isNotEmpty().containsOnly(false); // OBS-7: platform threads only
    assertThat(call("GET", "/healthz").statusCode()).isEqualTo(200); // healthz unaffected
  }

  @Test
  void readyWhenNoPredicateFires() throws Exception {
    readiness.addDegradation(Optional::empty);
    readiness.set(Readiness.State.READY);
    var r = call("POST", "/readyz");
    assertThat(r.statusCode()).isEqualTo(200);
    assertThat(r.body()).isEqualTo("ready");
    readiness.addDegradation(
        () -> {
          throw new IllegalStateException("bug");
        });
    assertThat(call("GET", "/readyz").statusCode()).isEqualTo(503);
  }

  @Test
  @DisplayName("FEAT-15/FEAT-21/FEAT-3: /metrics, liveness and extra routes")
  void metricsLivenessRoutes() throws Exception {
    var m = call("GET", "/metrics");
    assertThat(m.statusCode()).isEqualTo(200);
    assertThat(m.body()).isEqualTo("m 1\n");
    assertThat(m.headers().firstValue("content-type"))
        .hasValue("text/plain; version=0.0.4; charset=utf-8");
    assertThat(call("GET", "/statusz").body()).isEqualTo("{}");
    wedged.set(Optional.of("wedged: lane bulk"));
    var h = call("GET", "/healthz");
    assertThat(h.statusCode()).isEqualTo(503);
    assertThat(h.body()).isEqualTo("wedged: lane bulk");
  }

  @Test
  void noMetricsEndpointMeans404() throws Exception {
    try (HealthServer plain = HealthServer.builder(readiness).address("127.0.0.1:0").start()) {
      var r =
          client.send(
              HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + plain.port() + "/metrics"))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(r.statusCode()).isEqualTo(404);
    }
  }
}
