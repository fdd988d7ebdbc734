package io.sf2loki.sim.pubsub;

import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.sf2loki.sim.org.SimOrg;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.InstantSource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Predicate;
import org.apache.avro.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A simulated Salesforce Pub/Sub API ({@code eventbus.v1.PubSub}, FEAT-17/18; the server side of
 * SPEC PS-1…PS-15): a plaintext gRPC server on {@code 127.0.0.1} (and/or an in-process server)
 * serving {@code GetTopic}, {@code GetSchema} and {@code Subscribe}.
 *
 * <p>Behaviour, as the client expects it (see {@code PUBSUB_NOTES.md}):
 *
 * <ul>
 *   <li><b>Auth (PS-2)</b>: every RPC needs metadata {@code accesstoken} (valid per the token
 *       validator, e.g. {@link SimOrg#isTokenValid(String)}), {@code instanceurl} and {@code
 *       tenantid} (org id) when configured; otherwise {@code UNAUTHENTICATED} with trailer {@code
 *       error-code: }{@value #AUTH_ERROR}. An open stream whose token becomes invalid (revoked via
 *       the org, or TTL elapsed, detected on the next request, delivery, keepalive tick or {@link
 *       #checkTokens()}) ends with the same error.
 *   <li><b>Flow control (PS-3)</b>: a stream never receives more events than it requested and has
 *       not yet received; each response carries at most {@value #MAX_EVENTS_PER_RESPONSE} events
 *       and {@code pending_num_requested} = credits still owed after it; {@code num_requested ≤ 0}
 *       fails with {@code INVALID_ARGUMENT}.
 *   <li><b>Replay</b>: events of a topic are delivered in replay order. {@code LATEST} starts after
 *       the newest event, {@code EARLIEST} at the oldest retained one, {@code CUSTOM} after the
 *       given id. Replay ids are opaque 10-byte values. A malformed CUSTOM id fails with the
 *       configured status (default {@code INVALID_ARGUMENT}) and trailer {@value
 *       #REPLAY_CORRUPTED}; an id of another topic, one never issued, or one of an evicted event
 *       (older than the retention window; the newest id of the topic always stays valid) fails with
 *       trailer {@value #REPLAY_VALIDATION_FAILED}.
 *   <li><b>Keepalive (PS-7)</b>: a stream that sent nothing for {@code keepaliveInterval} gets an
 *       empty response with {@code latest_replay_id} = the stream's position (the newest replay id
 *       of the topic once the stream has caught up) and {@code pending_num_requested}. Keepalives
 *       are evaluated on each {@link #runKeepalives()} call: a background ticker calls it in real
 *       time unless {@link Builder#manualKeepalives()} is set (tests advance the injected clock and
 *       call it themselves).
 *   <li><b>Faults</b>: see {@link PubSubFaults} and {@link #publishPoison(String)}.
 * </ul>
 *
 * <p>Built-in topics (writer schemas copied from the project's fixtures): {@value #LOGIN_TOPIC},
 * {@value #API_TOPIC}, {@value #API_ANOMALY_TOPIC}, {@value #ACCOUNT_CDC_TOPIC} (schema id {@code
 * i8wgJwwM-AVcDbFkbRl5Nw}); more via {@link Builder#topic(String, String)} or {@link
 * #addTopic(String, String)}. Other schema ids are the first 16 bytes of SHA-256 of the schema's
 * canonical JSON, base64url without padding (22 characters).
 *
 * <p>Parts: {@link TopicRegistry} (topics, schemas), {@link EventPublisher} (event generation and
 * storage), {@link PubSubAuth} (call records, PS-2), {@link PubSubService} and one {@link
 * SimSubscription} per {@code Subscribe} call (flow control, replay, keepalives), {@link
 * OpenStreams} (fan-out) and {@link PubSubFaults}.
 *
 * <p>Thread-safe. {@link #close()} stops the servers (open calls are cancelled) and the ticker.
 */
public final class SimPubSub implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SimPubSub.class);

  /** Trailer value for refused or expired tokens. */
  public static final String AUTH_ERROR = "sfdc.platform.eventbus.grpc.service.auth.error";

  /** Trailer value for a CUSTOM replay id that is unknown, of another topic, or evicted. */
  public static final String REPLAY_VALIDATION_FAILED =
      "sfdc.platform.eventbus.grpc.subscription.fetch.replayid.validation.failed";

  /** Trailer value for a CUSTOM replay id that is not a well-formed id. */
  public static final String REPLAY_CORRUPTED =
      "sfdc.platform.eventbus.grpc.subscription.fetch.replayid.corrupted";

  /** Maximum events in one {@code FetchResponse}. */
  public static final int MAX_EVENTS_PER_RESPONSE = 100;

  /** Built-in topic with the LoginEventStream schema. */
  public static final String LOGIN_TOPIC = "/event/LoginEventStream";

  /** Built-in topic with the ApiEventStream schema. */
  public static final String API_TOPIC = "/event/ApiEventStream";

  /** Built-in topic with the ApiAnomalyEvent schema. */
  public static final String API_ANOMALY_TOPIC = "/event/ApiAnomalyEvent";

  /** Built-in change data capture topic with the captured AccountChangeEvent schema. */
  public static final String ACCOUNT_CDC_TOPIC = "/data/AccountChangeEvent";

  /** Trailer key carrying Salesforce's error code. */
  public static final Metadata.Key<String> ERROR_CODE_KEY =
      Metadata.Key.of("error-code", Metadata.ASCII_STRING_MARSHALLER);

  private final TopicRegistry registry = new TopicRegistry();
  private final OpenStreams streams = new OpenStreams();
  private final PubSubFaults faults = new PubSubFaults(streams::drainAll, this::dropOpen);
  private final InstantSource clock;
  private final Duration retention;
  private final PubSubAuth auth;
  private final EventPublisher publisher;
  private final Server netty;
  private final Server inProcess;
  private final String inProcessName;
  private final ScheduledExecutorService ticker;
  private final AtomicBoolean closed = new AtomicBoolean();

  private SimPubSub(Builder b) throws IOException {
    this.clock = b.clock;
    this.retention = b.retention;
    this.auth = new PubSubAuth(b.clock, b.tokenValidator, b.orgId, b.instanceUrl);
    this.publisher =
        new EventPublisher(
            registry, new EventGenerator(b.seed), b.clock, b.retention, streams::deliver);
    if (b.builtinTopics) {
      registry.addBuiltins();
    }
    b.topics.forEach(this::addTopic);
    StreamContext ctx =
        new StreamContext(
            b.clock,
            b.keepaliveInterval,
            b.retention,
            b.invalidReplayStatus,
            b.tokenValidator,
            faults,
            registry,
            streams);
    ServerServiceDefinition service =
        ServerInterceptors.intercept(new PubSubService(ctx, b.orgId), auth);
    Server[] servers = startServers(b, service);
    this.netty = servers[0];
    this.inProcess = servers[1];
    this.inProcessName = b.inProcessName;
    if (b.keepaliveTick != null) {
      this.ticker =
          Executors.newSingleThreadScheduledExecutor(
              Thread.ofPlatform().daemon().name("sim-pubsub-keepalive").factory());
      long ms = b.keepaliveTick.toMillis();
      ticker.scheduleAtFixedRate(this::tickQuietly, ms, ms, TimeUnit.MILLISECONDS);
    } else {
      this.ticker = null;
    }
    if (b.org != null) {
      b.org.onTokensRevoked(this::checkTokens);
    }
    var started = log.atInfo().addKeyValue("port", netty == null ? -1 : netty.getPort());
    if (inProcessName != null) {
      started = started.addKeyValue("in_process", inProcessName);
    }
    started.log("sim pubsub started");
  }

  /** The loopback and in-process servers the builder asked for (each null when not asked). */
  private static Server[] startServers(Builder b, ServerServiceDefinition service)
      throws IOException {
    Server net = null;
    Server inproc = null;
    try {
      if (b.loopback) {
        net =
            NettyServerBuilder.forAddress(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), b.port))
                .addService(service)
                .permitKeepAliveTime(1, TimeUnit.SECONDS)
                .permitKeepAliveWithoutCalls(true)
                .build()
                .start();
      }
      if (b.inProcessName != null) {
        InProcessServerBuilder ib = InProcessServerBuilder.forName(b.inProcessName);
        if (b.directExecutor) {
          ib.directExecutor();
        }
        inproc = ib.addService(service).build().start();
      }
    } catch (IOException | RuntimeException e) {
      if (net != null) {
        net.shutdownNow();
      }
      throw e;
    }
    return new Server[] {net, inproc};
  }

  /**
   * A builder: loopback on an ephemeral port, system clock, keepalive 270 s (ticker every 1 s),
   * retention 72 h, invalid replay status {@code INVALID_ARGUMENT}, built-in topics, seed 1, and
   * any non-empty access token accepted (use {@link Builder#org(SimOrg)} to check tokens).
   */
  public static Builder builder() {
    return new Builder();
  }

  // ---------------------------------------------------------------- public API

  /**
   * The bound loopback port.
   *
   * @throws IllegalStateException when started with {@code loopback(false)}
   */
  public int port() {
    if (netty == null) {
      throw new IllegalStateException("no loopback server");
    }
    return netty.getPort();
  }

  /** {@code 127.0.0.1:<port>}, the {@code pubsub.endpoint} of a plaintext client. */
  public String target() {
    return "127.0.0.1:" + port();
  }

  /** Name of the in-process server, or null when none was requested. */
  public String inProcessName() {
    return inProcessName;
  }

  /** The fault schedule; mutate at any time. */
  public PubSubFaults faults() {
    return faults;
  }

  /** Topic names in registration order. */
  public List<String> topics() {
    return registry.names();
  }

  /**
   * Registers a topic whose events are written with {@code schemaJson} (the schema id is derived
   * from the schema). Returns the schema id.
   *
   * @throws IllegalArgumentException when the topic exists or the schema does not parse
   */
  public String addTopic(String topic, String schemaJson) {
    return registry.addTopic(topic, null, schemaJson);
  }

  /**
   * Registers a writer schema (for {@link #publish(String, byte[], String)} with several schema ids
   * on one topic, or {@link #setTopicSchema(String, String)}). Returns its id; registering the same
   * schema twice returns the same id.
   */
  public String registerSchema(String json) {
    return registry.register(null, json);
  }

  /** Generated events of {@code topic} are written with schema {@code schemaId} from now on. */
  public void setTopicSchema(String topic, String schemaId) {
    Schema s = registry.requireSchema(schemaId);
    registry.requireTopic(topic).setSchema(schemaId, s);
  }

  /** The current schema id of {@code topic} (as {@code GetTopic} reports it). */
  public String schemaIdOf(String topic) {
    return registry.requireTopic(topic).schemaId();
  }

  /** The parsed schema registered under {@code schemaId}. */
  public Schema schema(String schemaId) {
    return registry.requireSchema(schemaId);
  }

  /** The JSON text {@code GetSchema} returns for {@code schemaId}. */
  public String schemaJson(String schemaId) {
    registry.requireSchema(schemaId);
    return registry.schemaJson(schemaId);
  }

  /**
   * Publishes {@code count} generated events on {@code topic} with its current schema
   * (deterministic for a given seed, topic, call sequence and clock readings), delivers them to
   * open streams that have credits, and returns them in replay order.
   */
  public List<PublishedEvent> publish(String topic, int count) {
    return publisher.publish(topic, count);
  }

  /**
   * Publishes one event with a caller-built payload. {@link PublishedEvent#fields()} is the payload
   * decoded with {@code schemaId}'s schema, or null when it does not decode.
   *
   * @throws IllegalArgumentException for an unknown topic or schema id
   */
  public PublishedEvent publish(String topic, byte[] payload, String schemaId) {
    return publisher.publish(topic, payload, schemaId);
  }

  /**
   * Publishes a poison event: a generated payload cut short, so that decoding with its schema id
   * fails (PS-6); {@link PublishedEvent#poison()} is true and {@code fields} null.
   */
  public PublishedEvent publishPoison(String topic) {
    return publisher.publishPoison(topic);
  }

  /** The retained events of {@code topic} in replay order (after evicting expired ones). */
  public List<PublishedEvent> retained(String topic) {
    SimTopic t = registry.requireTopic(topic);
    t.evict(clock.instant(), retention);
    return t.retained();
  }

  /** The newest replay id of {@code topic} (the id of "sequence 0" before any event). */
  public byte[] latestReplayId(String topic) {
    SimTopic t = registry.requireTopic(topic);
    return ReplayIds.encode(t.prefix, t.lastSeq());
  }

  /** Counters of {@code topic}. */
  public TopicStats stats(String topic) {
    return registry.requireTopic(topic).stats();
  }

  /** Every RPC received so far, in arrival order, refused ones included. */
  public List<RecordedCall> calls() {
    return auth.calls();
  }

  /** Open {@code Subscribe} streams that have named their topic. */
  public int openStreams() {
    return streams.count();
  }

  /** Open {@code Subscribe} streams of {@code topic} (those that have sent a first request). */
  public int openStreams(String topic) {
    return streams.count(registry.requireTopic(topic));
  }

  /**
   * Sends due keepalives and delivers owed events on every open stream, ending streams whose token
   * is no longer valid. Called by the background ticker; tests using {@link
   * Builder#manualKeepalives()} call it after advancing the clock.
   */
  public void runKeepalives() {
    streams.tick(clock.instant());
  }

  /** Ends every open stream whose access token is no longer valid ({@code UNAUTHENTICATED}). */
  public void checkTokens() {
    streams.checkTokens();
  }

  /** Stops the ticker and the servers (open calls are cancelled). Idempotent. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    if (ticker != null) {
      ticker.shutdownNow();
    }
    for (Server s : new Server[] {netty, inProcess}) {
      if (s != null) {
        s.shutdownNow();
        try {
          s.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      }
    }
    streams.clear();
  }

  // ---------------------------------------------------------------- internals

  /** {@link PubSubFaults#dropOpenStreams(String, Status.Code)}. */
  private int dropOpen(String topic, Status.Code code) {
    return streams.dropOpen(registry.requireTopic(topic), code);
  }

  private void tickQuietly() {
    try {
      runKeepalives();
    } catch (RuntimeException e) {
      log.atWarn().addKeyValue("error", e.toString()).log("sim pubsub keepalive tick failed");
    }
  }

  // ---------------------------------------------------------------- builder

  /** Configures a {@link SimPubSub}; {@link #start()} binds. */
  public static final class Builder {
    private int port;
    private boolean loopback = true;
    private String inProcessName;
    private InstantSource clock = InstantSource.system();
    private Duration keepaliveInterval = Duration.ofSeconds(270);
    private Duration keepaliveTick = Duration.ofSeconds(1);
    private Duration retention = Duration.ofHours(72);
    private Status.Code invalidReplayStatus = Status.Code.INVALID_ARGUMENT;
    private Predicate<String> tokenValidator = t -> true;
    private String orgId;
    private String instanceUrl;
    private SimOrg org;
    private long seed = 1;
    private boolean builtinTopics = true;
    private boolean directExecutor;
    private final Map<String, String> topics = new LinkedHashMap<>();

    private Builder() {}

    /** Loopback port (default 0 = ephemeral). */
    public Builder port(int port) {
      this.port = port;
      return this;
    }

    /** false: no loopback server (use with {@link #inProcess(String)}). Default true. */
    public Builder loopback(boolean loopback) {
      this.loopback = loopback;
      return this;
    }

    /** Also serve on an in-process server with this name ({@code InProcessChannelBuilder}). */
    public Builder inProcess(String name) {
      this.inProcessName = Objects.requireNonNull(name);
      return this;
    }

    /**
     * Run the in-process server's handlers on the calling thread (tests: with a direct-executor
     * in-process channel every call is synchronous, so no waiting is needed). Default false.
     */
    public Builder directExecutor() {
      this.directExecutor = true;
      return this;
    }

    /** Clock for keepalive due times, retention and call records (default system clock). */
    public Builder clock(InstantSource clock) {
      this.clock = Objects.requireNonNull(clock);
      return this;
    }

    /** A stream idle this long gets a keepalive (default 270 s, Salesforce's bound). */
    public Builder keepaliveInterval(Duration interval) {
      if (interval.isNegative() || interval.isZero()) {
        throw new IllegalArgumentException("keepalive interval must be > 0");
      }
      this.keepaliveInterval = interval;
      return this;
    }

    /** Real-time period of the background {@link #runKeepalives()} ticker (default 1 s). */
    public Builder keepaliveTick(Duration tick) {
      if (tick.toMillis() < 1) {
        throw new IllegalArgumentException("tick must be >= 1 ms");
      }
      this.keepaliveTick = tick;
      return this;
    }

    /** No background ticker: keepalives happen only when {@link #runKeepalives()} is called. */
    public Builder manualKeepalives() {
      this.keepaliveTick = null;
      return this;
    }

    /** Events stored longer ago than this are evicted (default 72 h). */
    public Builder retention(Duration retention) {
      this.retention = Objects.requireNonNull(retention);
      return this;
    }

    /**
     * Status of a rejected CUSTOM replay id (default {@code INVALID_ARGUMENT}; e.g. {@code
     * FAILED_PRECONDITION} or {@code UNKNOWN} to test trailer-first classification, PS-15).
     */
    public Builder invalidReplayStatus(Status.Code code) {
      this.invalidReplayStatus = Objects.requireNonNull(code);
      return this;
    }

    /**
     * Authenticate against {@code org}: tokens must satisfy {@link SimOrg#isTokenValid(String)},
     * {@code instanceurl} must be its instance URL and {@code tenantid} its org id; revocations by
     * the org end open streams at once.
     */
    public Builder org(SimOrg org) {
      this.org = Objects.requireNonNull(org);
      this.tokenValidator = org::isTokenValid;
      this.orgId = org.orgId();
      this.instanceUrl = org.instanceUrl();
      return this;
    }

    /**
     * Authenticate without a {@link SimOrg}: {@code tokenValidator} decides the token; a null
     * {@code orgId} / {@code instanceUrl} is not checked.
     */
    public Builder auth(String orgId, String instanceUrl, Predicate<String> tokenValidator) {
      this.orgId = orgId;
      this.instanceUrl = instanceUrl;
      this.tokenValidator = Objects.requireNonNull(tokenValidator);
      return this;
    }

    /** Seed of the event generator (default 1). */
    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    /** false: do not register the built-in topics. Default true. */
    public Builder builtinTopics(boolean builtin) {
      this.builtinTopics = builtin;
      return this;
    }

    /** An extra topic with writer schema {@code schemaJson}. */
    public Builder topic(String name, String schemaJson) {
      topics.put(Objects.requireNonNull(name), Objects.requireNonNull(schemaJson));
      return this;
    }

    /**
     * Starts the server(s).
     *
     * @throws IOException when the port cannot be bound
     */
    public SimPubSub start() throws IOException {
      return new SimPubSub(this);
    }
  }
}
