package io.sf2loki.app.health;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The health / readiness / metrics HTTP server (SPEC OBS-7, OBS-8, FEAT-15) on the JDK {@code
 * com.sun.net.httpserver} server, served by its own small pool of <b>platform</b> threads (never
 * virtual threads, PIPE-26).
 *
 * <p>It answers any method; the request target must match exactly (a query string does not match);
 * every answer carries {@code Content-Type}, {@code Content-Length} and {@code Connection: close}:
 *
 * <ul>
 *   <li>{@code /healthz}: 200 {@code ok}, or 503 with the liveness reason when a liveness check
 *       reports one (FEAT-21, optional).
 *   <li>{@code /readyz}: {@link Readiness#evaluate()}.
 *   <li>{@code /metrics}: the {@link MetricsEndpoint} when one is installed (FEAT-15).
 *   <li>{@code /statusz}: the {@link StatusPage} of the installed {@link Builder#status} snapshot
 *       (FEAT-3).
 *   <li>extra routes added with {@link Builder#route(String, Supplier)}.
 *   <li>anything else: 404 {@code not found}.
 * </ul>
 *
 * <p>Limitation: OBS-7's "drop clients that send no complete request head within 5 s" needs the JDK
 * system property {@code sun.net.httpserver.maxReqTime=5}, which is read once per JVM and applies
 * to every JDK HTTP server in the process; this class does not set it.
 */
public final class HealthServer implements AutoCloseable {
  /** Plain-text content type of OBS-7. */
  public static final String TEXT_PLAIN = "text/plain; charset=utf-8";

  /** Default number of platform threads serving requests. */
  public static final int DEFAULT_THREADS = 2;

  private static final Logger log = LoggerFactory.getLogger(HealthServer.class);

  /**
   * A response.
   *
   * @param status HTTP status
   * @param contentType {@code Content-Type} header value
   * @param body the exact body bytes
   */
  public record Response(int status, String contentType, byte[] body) {
    /** A {@code text/plain; charset=utf-8} response. */
    public static Response text(int status, String body) {
      return new Response(status, TEXT_PLAIN, body.getBytes(StandardCharsets.UTF_8));
    }
  }

  private final HttpServer server;
  private final ExecutorService executor;
  private final Readiness readiness;
  private final MetricsEndpoint metrics;
  private final Supplier<Optional<String>> liveness;
  private final Map<String, Supplier<Response>> routes;
  private final Supplier<StatusSnapshot> status;

  private HealthServer(Builder b) throws IOException {
    this.readiness = b.readiness;
    this.metrics = b.metrics;
    this.liveness = b.liveness;
    this.routes = Map.copyOf(b.routes);
    this.status = b.status;
    this.executor =
        Executors.newFixedThreadPool(
            b.threads, Thread.ofPlatform().name("sf2loki-health-", 0).daemon(true).factory());
    try {
      this.server = HttpServer.create(b.address.bindAddress(), 50);
    } catch (IOException | RuntimeException e) {
      executor.shutdownNow();
      throw e;
    }
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
    log.atInfo().addKeyValue("health_addr", address().toString()).log("health server listening");
  }

  /** Starts building a server answering {@code /readyz} from {@code readiness}. */
  public static Builder builder(Readiness readiness) {
    return new Builder(readiness);
  }

  /** The bound socket address (with the actual port when {@code :0} was requested). */
  public InetSocketAddress address() {
    return server.getAddress();
  }

  /** The bound port (the ephemeral port when {@code :0} was requested). */
  public int port() {
    return server.getAddress().getPort();
  }

  /** Stops listening at once, then stops the worker threads (waits up to 1 s for them). */
  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
    try {
      executor.awaitTermination(1, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void handle(HttpExchange ex) throws IOException {
    try (ex) {
      Response r;
      try {
        r = route(ex.getRequestURI().toString(), ex.getRequestHeaders().getFirst("Accept"));
      } catch (RuntimeException e) {
        log.atWarn().addKeyValue("error", e.toString()).log("health request failed");
        r = Response.text(500, "internal error");
      }
      send(ex, r);
    }
  }

  private Response route(String target, String accept) {
    switch (target) {
      case "/statusz" -> {
        if (status != null) {
          return StatusPage.render(status.get(), accept);
        }
      }
      case "/healthz" -> {
        Optional<String> wedged = liveness.get();
        return wedged != null && wedged.isPresent()
            ? Response.text(503, wedged.get())
            : Response.text(200, "ok");
      }
      case "/readyz" -> {
        Readiness.Answer a = readiness.evaluate();
        return Response.text(a.status(), a.body());
      }
      case "/metrics" -> {
        if (metrics != null) {
          ByteArrayOutputStream buf = new ByteArrayOutputStream(16 * 1024);
          try {
            metrics.writeTo(buf);
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
          return new Response(200, metrics.contentType(), buf.toByteArray());
        }
      }
      default -> {}
    }
    Supplier<Response> extra = routes.get(target);
    return extra != null ? extra.get() : Response.text(404, "not found");
  }

  private static void send(HttpExchange ex, Response r) throws IOException {
    var h = ex.getResponseHeaders();
    h.set("Content-Type", r.contentType());
    h.set("Connection", "close");
    byte[] body = r.body();
    if ("HEAD".equalsIgnoreCase(ex.getRequestMethod())) {
      h.set("Content-Length", Integer.toString(body.length));
      ex.sendResponseHeaders(r.status(), -1);
      return;
    }
    // -1 = no body (the JDK then sends Content-Length: 0); 0 would mean chunked
    ex.sendResponseHeaders(r.status(), body.length == 0 ? -1 : body.length);
    if (body.length > 0) {
      try (OutputStream out = ex.getResponseBody()) {
        out.write(body);
      }
    }
  }

  /** Builder; {@link #start()} binds and starts serving. */
  public static final class Builder {
    private final Readiness readiness;
    private HealthAddress address = HealthAddress.parse(HealthAddress.DEFAULT);
    private MetricsEndpoint metrics;
    private Supplier<Optional<String>> liveness = Optional::empty;
    private final Map<String, Supplier<Response>> routes = new LinkedHashMap<>();
    private int threads = DEFAULT_THREADS;
    private Supplier<StatusSnapshot> status;

    private Builder(Readiness readiness) {
      this.readiness = Objects.requireNonNull(readiness, "readiness");
    }

    /** The {@code service.health_addr} to bind (default {@code :8080}). */
    public Builder address(String healthAddr) {
      return address(HealthAddress.parse(healthAddr));
    }

    /** The address to bind. */
    public Builder address(HealthAddress healthAddr) {
      this.address = Objects.requireNonNull(healthAddr, "healthAddr");
      return this;
    }

    /** Serves {@code /metrics} from {@code endpoint} (FEAT-15); null = no {@code /metrics}. */
    public Builder metrics(MetricsEndpoint endpoint) {
      this.metrics = endpoint;
      return this;
    }

    /**
     * FEAT-21: {@code /healthz} answers 503 with the returned reason (e.g. {@code wedged: lane
     * bulk}) while it is present. Default: always healthy.
     */
    public Builder liveness(Supplier<Optional<String>> check) {
      this.liveness = Objects.requireNonNull(check, "check");
      return this;
    }

    /**
     * Adds an exact-path route (e.g. FEAT-3 {@code /statusz}); {@code /healthz}, {@code /readyz}
     * and an installed {@code /metrics} take precedence.
     */
    public Builder route(String path, Supplier<Response> handler) {
      if (!path.startsWith("/")) {
        throw new IllegalArgumentException("route path must start with /: " + path);
      }
      routes.put(path, Objects.requireNonNull(handler, "handler"));
      return this;
    }

    /** Serves FEAT-3 {@code /statusz} from {@code snapshot} (JSON, or HTML for text/html). */
    public Builder status(Supplier<StatusSnapshot> snapshot) {
      this.status = Objects.requireNonNull(snapshot, "snapshot");
      return this;
    }

    /** Number of platform threads serving requests (default 2). */
    public Builder threads(int count) {
      if (count < 1) {
        throw new IllegalArgumentException("threads must be >= 1");
      }
      this.threads = count;
      return this;
    }

    /**
     * Binds and starts the server.
     *
     * @throws IOException if the address cannot be bound (e.g. {@link java.net.BindException})
     */
    public HealthServer start() throws IOException {
      return new HealthServer(this);
    }
  }
}
