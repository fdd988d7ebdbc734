package io.sf2loki.state.testing;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A loopback HTTP front that forwards every request to a real back end (s3proxy, the GCS fake) and
 * injects queued faults on the wire, so a store meets real status codes and bodies: a fault either
 * answers without forwarding (the request had no effect) or forwards first and then answers the
 * error (the request took effect, but the client cannot know: STATE-10's unknown outcome).
 */
public final class FaultingHttpFront implements AutoCloseable {
  private static final Set<String> HOP_HEADERS =
      Set.of("host", "content-length", "connection", "expect", "upgrade", "transfer-encoding");

  /**
   * One injected answer.
   *
   * @param method the request method it applies to (e.g. {@code PUT})
   * @param forwardFirst forward the request before answering (it takes effect)
   * @param status the status answered
   * @param contentType the content type of {@code body}
   * @param body the error body answered
   */
  public record Fault(
      String method, boolean forwardFirst, int status, String contentType, String body) {
    /** Status of a fault that never answers until {@link FaultingHttpFront#close()}. */
    public static final int HANG = -1;

    /** A request that gets no answer (the client's timeout must end it). */
    public static Fault hang(String method) {
      return new Fault(method, false, HANG, "text/plain", "");
    }

    /** An S3 error answered without forwarding. */
    public static Fault s3(String method, int status, String code) {
      return new Fault(method, false, status, "application/xml", s3Body(code));
    }

    /** An S3 error answered after the request took effect. */
    public static Fault s3AfterApplying(String method, int status, String code) {
      return new Fault(method, true, status, "application/xml", s3Body(code));
    }

    /** A GCS JSON API error answered without forwarding. */
    public static Fault gcs(String method, int status, String reason) {
      return new Fault(
          method,
          false,
          status,
          "application/json",
          FakeGcsServer.error(status, reason, "injected"));
    }

    /** A GCS JSON API error answered after the request took effect. */
    public static Fault gcsAfterApplying(String method, int status, String reason) {
      return new Fault(
          method,
          true,
          status,
          "application/json",
          FakeGcsServer.error(status, reason, "injected"));
    }

    private static String s3Body(String code) {
      return "<?xml version='1.0' encoding='UTF-8'?><Error><Code>"
          + code
          + "</Code><Message>injected</Message><RequestId>F00</RequestId></Error>";
    }
  }

  private final HttpServer server;
  private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
  private final HttpClient client =
      HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
  private final URI target;
  private final ConcurrentLinkedQueue<Fault> faults = new ConcurrentLinkedQueue<>();
  private final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();
  private final CountDownLatch closed = new CountDownLatch(1);

  private FaultingHttpFront(URI target) throws IOException {
    this.target = target;
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
  }

  /** Starts a front forwarding to {@code target} (e.g. {@code http://127.0.0.1:9000}). */
  public static FaultingHttpFront start(URI target) throws IOException {
    return new FaultingHttpFront(target);
  }

  /** {@code http://127.0.0.1:<port>} of the front. */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** Queues faults; each answers the next request of its method once. */
  public void inject(Fault... more) {
    faults.addAll(List.of(more));
  }

  /** Requests seen so far with {@code method}, faulted or not. */
  public int requests(String method) {
    AtomicInteger n = requests.get(method);
    return n == null ? 0 : n.get();
  }

  private Fault take(String method) {
    for (Fault f : faults) {
      if (f.method().equals(method) && faults.remove(f)) {
        return f;
      }
    }
    return null;
  }

  private void handle(HttpExchange ex) throws IOException {
    try (ex) {
      handleOne(ex);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void handleOne(HttpExchange ex) throws IOException, InterruptedException {
    {
      String method = ex.getRequestMethod();
      requests.computeIfAbsent(method, m -> new AtomicInteger()).incrementAndGet();
      byte[] body = ex.getRequestBody().readAllBytes();
      Fault fault = take(method);
      if (fault == null || fault.forwardFirst()) {
        HttpResponse<byte[]> upstream = forward(ex, method, body);
        if (fault == null) {
          upstream
              .headers()
              .map()
              .forEach(
                  (k, v) -> {
                    if (!HOP_HEADERS.contains(k.toLowerCase(Locale.ROOT)) && !k.startsWith(":")) {
                      ex.getResponseHeaders().put(k, v);
                    }
                  });
          send(ex, upstream.statusCode(), upstream.body());
          return;
        }
      }
      if (fault.status() == Fault.HANG) {
        closed.await();
        return;
      }
      ex.getResponseHeaders().set("Content-Type", fault.contentType());
      send(ex, fault.status(), fault.body().getBytes(StandardCharsets.UTF_8));
    }
  }

  private HttpResponse<byte[]> forward(HttpExchange ex, String method, byte[] body)
      throws IOException {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(target.resolve(ex.getRequestURI().toString()))
            .method(method, HttpRequest.BodyPublishers.ofByteArray(body));
    ex.getRequestHeaders()
        .forEach(
            (k, v) -> {
              if (!HOP_HEADERS.contains(k.toLowerCase(Locale.ROOT))) {
                v.forEach(value -> b.header(k, value));
              }
            });
    try {
      return client.send(b.build(), HttpResponse.BodyHandlers.ofByteArray());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted", e);
    }
  }

  private static void send(HttpExchange ex, int status, byte[] body) throws IOException {
    boolean empty = body.length == 0 || "HEAD".equals(ex.getRequestMethod());
    ex.sendResponseHeaders(status, empty ? -1 : body.length);
    if (!empty) {
      try (OutputStream out = ex.getResponseBody()) {
        out.write(body);
      }
    }
  }

  @Override
  public void close() {
    closed.countDown();
    server.stop(0);
    executor.shutdownNow();
    client.close();
  }
}
