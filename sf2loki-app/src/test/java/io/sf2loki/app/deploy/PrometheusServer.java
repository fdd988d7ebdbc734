package io.sf2loki.app.deploy;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real Prometheus server (the Debian {@code prometheus} binary) on a free loopback port with a
 * temporary storage directory, owned by the test that starts it: {@link #close()} stops the process
 * (SIGTERM, then SIGKILL after 10 s) and waits for it to exit.
 */
final class PrometheusServer implements AutoCloseable {
  private final Process process;
  private final Path log;
  private final int port;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private PrometheusServer(Process process, Path log, int port) {
    this.process = process;
    this.log = log;
    this.port = port;
  }

  /**
   * Starts Prometheus with {@code configFile} (relative rule paths resolve against its directory)
   * and waits until {@code /-/ready} answers 200.
   *
   * @param binary the prometheus executable
   * @param workDir a temporary directory for the TSDB and the process log
   */
  static PrometheusServer start(ExternalTool binary, Path configFile, Path workDir)
      throws IOException {
    int port = freeLoopbackPort();
    Path log = workDir.resolve("prometheus.log");
    Process p =
        new ProcessBuilder(
                List.of(
                    binary.path().toString(),
                    "--config.file=" + configFile,
                    "--storage.tsdb.path=" + workDir.resolve("tsdb"),
                    "--web.listen-address=127.0.0.1:" + port,
                    "--log.level=warn"))
            .directory(workDir.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    PrometheusServer s = new PrometheusServer(p, log, port);
    try {
      await()
          .atMost(Duration.ofSeconds(20))
          .pollInterval(Duration.ofMillis(100))
          .until(() -> s.status("/-/ready") == 200);
    } catch (RuntimeException e) {
      s.close();
      throw new AssertionError("prometheus did not become ready: " + s.log(), e);
    }
    return s;
  }

  private static int freeLoopbackPort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private int status(String path) {
    try {
      return http.send(request(path), HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  private HttpRequest request(String pathAndQuery) {
    return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + pathAndQuery))
        .timeout(Duration.ofSeconds(5))
        .build();
  }

  /** GET an API path and parse its JSON body ({@code status}, {@code data}). */
  JsonNode api(String pathAndQuery) throws IOException, InterruptedException {
    HttpResponse<String> r = http.send(request(pathAndQuery), HttpResponse.BodyHandlers.ofString());
    return MonitoringPack.JSON.readTree(r.body());
  }

  /** The result vector of an instant query. */
  JsonNode query(String promql) throws IOException, InterruptedException {
    return api("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8))
        .path("data")
        .path("result");
  }

  /** What the process printed so far. */
  String log() {
    try {
      return Files.exists(log) ? Files.readString(log) : "";
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor();
      }
    } catch (InterruptedException e) {
      process.destroyForcibly();
      Thread.currentThread().interrupt();
    }
  }
}
