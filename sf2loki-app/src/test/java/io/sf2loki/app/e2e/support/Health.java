package io.sf2loki.app.e2e.support;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/**
 * The health server of a daemon child JVM on a fixed loopback port (SPEC OBS-7, FEAT-15): {@code
 * /readyz} and {@code /metrics}, plus a free port to give it.
 */
public final class Health {
  private Health() {}

  /** A loopback port free right now (the child binds it moments later). */
  public static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    }
  }

  /** {@code "<status> <body>"} of {@code GET /readyz}, or {@code "down"} while nothing answers. */
  public static String readyz(HttpClient http, int port) throws InterruptedException {
    return get(http, port, "/readyz")
        .map(r -> r.statusCode() + " " + r.body().strip())
        .orElse("down");
  }

  /** The Prometheus text of {@code GET /metrics} (200 only), or empty while nothing answers. */
  public static Optional<String> metrics(HttpClient http, int port) throws InterruptedException {
    return get(http, port, "/metrics").filter(r -> r.statusCode() == 200).map(r -> r.body());
  }

  private static Optional<HttpResponse<String>> get(HttpClient http, int port, String path)
      throws InterruptedException {
    HttpRequest req =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(5))
            .build();
    try {
      return Optional.of(http.send(req, HttpResponse.BodyHandlers.ofString()));
    } catch (IOException e) {
      return Optional.empty();
    }
  }
}
