package io.sf2loki.app.health;

import io.sf2loki.core.time.Ticker;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The health / readiness / metrics HTTP server (SPEC OBS-7, OBS-8, FEAT-15): a {@link
 * HealthListener} (one selector thread reading heads and writing answers without blocking, with
 * per-server bounds) and its own small pool of <b>platform</b> threads computing the answers (never
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
 * <p>Bounds (OBS-7, OBS-33, per server; the JDK server's {@code sun.net.httpserver.*} limits are
 * JVM-wide and it reads request heads on its worker threads, so it is not used): a client that
 * sends no complete request head within {@link #DEFAULT_HEAD_TIMEOUT} is dropped; at most {@link
 * #DEFAULT_MAX_CONNECTIONS} connections are open, a new one evicting the oldest head still being
 * waited for, so a probe is answered while idle or slow clients hold every slot. Heads longer than
 * {@link #MAX_HEAD_BYTES} and malformed request lines get 400 {@code bad request}.
 */
public final class HealthServer implements AutoCloseable {
  /** Plain-text content type of OBS-7. */
  public static final String TEXT_PLAIN = "text/plain; charset=utf-8";

  /** Default number of platform threads serving requests. */
  public static final int DEFAULT_THREADS = 2;

  /** OBS-7: a client that sends no complete request head within this is dropped. */
  public static final Duration DEFAULT_HEAD_TIMEOUT = Duration.ofSeconds(5);

  /** Most connections open at once (OBS-33); above it the oldest incomplete head is evicted. */
  public static final int DEFAULT_MAX_CONNECTIONS = 128;

  /** Longest accepted request head, in bytes (OBS-33). */
  public static final int MAX_HEAD_BYTES = 8 * 1024;

  /** How long writing one answer may take before the connection is dropped (OBS-33). */
  static final Duration WRITE_TIMEOUT = Duration.ofSeconds(10);

  /** How long the unread rest of a request is drained after the answer. */
  static final Duration LINGER_TIMEOUT = Duration.ofSeconds(1);

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

  private final HealthListener listener;
  private final ExecutorService executor;
  private final EnumMap<HealthListener.Drop, LongAdder> drops =
      new EnumMap<>(HealthListener.Drop.class);
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
    for (HealthListener.Drop d : HealthListener.Drop.values()) {
      drops.put(d, new LongAdder());
    }
    HealthListener.Limits limits =
        new HealthListener.Limits(
            b.headTimeout, WRITE_TIMEOUT, LINGER_TIMEOUT, b.maxConnections, MAX_HEAD_BYTES);
    try {
      this.listener =
          new HealthListener(
              b.address.bindAddress(),
              b.maxConnections, // listen backlog = the connection bound (50 made a burst wait on
              // SYN retries)
              limits,
              executor,
              this::respond,
              d -> drops.get(d).increment(),
              Ticker.system());
    } catch (IOException | RuntimeException e) {
      executor.shutdownNow();
      throw e;
    }
    log.atInfo().addKeyValue("health_addr", address().toString()).log("health server listening");
  }

  /** Starts building a server answering {@code /readyz} from {@code readiness}. */
  public static Builder builder(Readiness readiness) {
    return new Builder(readiness);
  }

  /** The bound socket address (with the actual port when {@code :0} was requested). */
  public InetSocketAddress address() {
    try {
      return listener.address();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The bound port (the ephemeral port when {@code :0} was requested). */
  public int port() {
    return address().getPort();
  }

  /** Connections dropped for {@code reason} so far (OBS-7). */
  long dropped(HealthListener.Drop reason) {
    return drops.get(reason).sum();
  }

  /** Stops listening and closes every connection at once, then stops the worker threads. */
  @Override
  public void close() {
    listener.close();
    executor.shutdownNow();
    try {
      executor.awaitTermination(1, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The complete response bytes for a head (null: malformed or too long). */
  private byte[] respond(RequestHead head) {
    if (head == null) {
      return serialize(Response.text(400, "bad request"), false);
    }
    Response r;
    try {
      r = route(head.target(), head.accept());
    } catch (RuntimeException e) {
      log.atWarn().addKeyValue("error", e.toString()).log("health request failed");
      r = Response.text(500, "internal error");
    }
    return serialize(r, "HEAD".equalsIgnoreCase(head.method()));
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

  /** HTTP/1.1 status line, the OBS-7 headers, and the body unless {@code headOnly}. */
  static byte[] serialize(Response r, boolean headOnly) {
    byte[] body = r.body();
    String head =
        "HTTP/1.1 "
            + r.status()
            + " "
            + reason(r.status())
            + "\r\nContent-Type: "
            + r.contentType()
            + "\r\nContent-Length: "
            + body.length
            + "\r\nConnection: close\r\n\r\n";
    byte[] h = head.getBytes(StandardCharsets.ISO_8859_1);
    if (headOnly) {
      return h;
    }
    byte[] out = new byte[h.length + body.length];
    System.arraycopy(h, 0, out, 0, h.length);
    System.arraycopy(body, 0, out, h.length, body.length);
    return out;
  }

  private static String reason(int status) {
    return switch (status) {
      case 200 -> "OK";
      case 400 -> "Bad Request";
      case 404 -> "Not Found";
      case 406 -> "Not Acceptable";
      case 500 -> "Internal Server Error";
      case 503 -> "Service Unavailable";
      default -> "Status";
    };
  }

  /** Builder; {@link #start()} binds and starts serving. */
  public static final class Builder {
    private final Readiness readiness;
    private HealthAddress address = HealthAddress.parse(HealthAddress.DEFAULT);
    private MetricsEndpoint metrics;
    private Supplier<Optional<String>> liveness = Optional::empty;
    private final Map<String, Supplier<Response>> routes = new LinkedHashMap<>();
    private int threads = DEFAULT_THREADS;
    private Duration headTimeout = DEFAULT_HEAD_TIMEOUT;
    private int maxConnections = DEFAULT_MAX_CONNECTIONS;
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

    /** OBS-7 request-head timeout (default {@link #DEFAULT_HEAD_TIMEOUT}; tests shorten it). */
    public Builder headTimeout(Duration timeout) {
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("headTimeout must be > 0");
      }
      this.headTimeout = timeout;
      return this;
    }

    /** Most connections open at once (default {@link #DEFAULT_MAX_CONNECTIONS}). */
    public Builder maxConnections(int count) {
      if (count < 1) {
        throw new IllegalArgumentException("maxConnections must be >= 1");
      }
      this.maxConnections = count;
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
