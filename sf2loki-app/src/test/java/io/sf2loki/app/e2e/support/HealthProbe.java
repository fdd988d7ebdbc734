package io.sf2loki.app.e2e.support;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

/**
 * Reads a child daemon's health server (OBS-7, OBS-8, FEAT-15) on a loopback port the test chose
 * before the child started ({@link #freePort()}): the port is asked for its answer on every call,
 * so a caller polls it (Awaitility) until the child has bound it instead of reading it once.
 */
public final class HealthProbe implements AutoCloseable {
  /** The answer while nothing listens on the port (not bound yet, or the child is gone). */
  public static final String DOWN = "down";

  private static final Set<Integer> USED_PORTS = new HashSet<>();

  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

  /**
   * {@code "<status> <body>"} of {@code GET /readyz} on {@code port} (body stripped), or {@link
   * #DOWN}.
   */
  public String readyz(int port) throws InterruptedException {
    return get(port, "/readyz");
  }

  /**
   * {@code "<status> <body>"} of {@code GET <path>} on {@code 127.0.0.1:<port>}, or {@link #DOWN}
   * when the connection fails.
   */
  public String get(int port, String path) throws InterruptedException {
    HttpRequest req =
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
            .timeout(Duration.ofSeconds(2))
            .build();
    try {
      HttpResponse<String> resp = http.send(req, HttpResponse.BodyHandlers.ofString());
      return resp.statusCode() + " " + resp.body().strip();
    } catch (IOException e) {
      return DOWN;
    }
  }

  /**
   * The sum of every sample of {@code sample} (a Prometheus text-format name such as {@code
   * sf2loki_checkpoint_write_errors_total}, any labels) on {@code GET /metrics}; 0 when the metric
   * has no sample yet.
   *
   * @throws AssertionError when {@code /metrics} does not answer 200
   */
  public double metric(int port, String sample) throws InterruptedException {
    String answer = get(port, "/metrics");
    if (!answer.startsWith("200 ")) {
      throw new AssertionError("GET /metrics on port " + port + ": " + answer);
    }
    double sum = 0;
    for (String line : answer.substring(4).split("\n")) {
      if (line.startsWith(sample + " ") || line.startsWith(sample + "{")) {
        sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    return sum;
  }

  /**
   * A loopback port free right now and not handed out before in this JVM, for a child's {@code
   * service.health_addr} (two replicas started together never get the same one).
   */
  public static int freePort() throws IOException {
    while (true) {
      try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
        socket.setReuseAddress(true);
        synchronized (USED_PORTS) {
          if (USED_PORTS.add(socket.getLocalPort())) {
            return socket.getLocalPort();
          }
        }
      }
    }
  }

  @Override
  public void close() {
    http.close();
  }
}
