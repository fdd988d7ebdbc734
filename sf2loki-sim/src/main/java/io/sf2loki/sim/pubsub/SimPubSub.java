package io.sf2loki.sim.pubsub;

import com.google.protobuf.ByteString;
import com.salesforce.eventbus.protobuf.ConsumerEvent;
import com.salesforce.eventbus.protobuf.FetchRequest;
import com.salesforce.eventbus.protobuf.FetchResponse;
import com.salesforce.eventbus.protobuf.ProducerEvent;
import com.salesforce.eventbus.protobuf.PubSubGrpc;
import com.salesforce.eventbus.protobuf.SchemaInfo;
import com.salesforce.eventbus.protobuf.SchemaRequest;
import com.salesforce.eventbus.protobuf.TopicInfo;
import com.salesforce.eventbus.protobuf.TopicRequest;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Metadata;
import io.grpc.Server;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.ServerInterceptors;
import io.grpc.ServerServiceDefinition;
import io.grpc.Status;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import io.sf2loki.sim.org.SimOrg;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
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

  private static final Metadata.Key<String> ACCESS_TOKEN =
      Metadata.Key.of("accesstoken", Metadata.ASCII_STRING_MARSHALLER);
  private static final Metadata.Key<String> INSTANCE_URL =
      Metadata.Key.of("instanceurl", Metadata.ASCII_STRING_MARSHALLER);
  private static final Metadata.Key<String> TENANT_ID =
      Metadata.Key.of("tenantid", Metadata.ASCII_STRING_MARSHALLER);
  private static final Context.Key<String> TOKEN_CTX = Context.key("sim-pubsub-accesstoken");

  private static final String RESOURCES = "/io/sf2loki/sim/pubsub/";
  private static final String ACCOUNT_SCHEMA_ID = "i8wgJwwM-AVcDbFkbRl5Nw";

  private final InstantSource clock;
  private final Duration keepaliveInterval;
  private final Duration retention;
  private final Status.Code invalidReplayStatus;
  private final Predicate<String> tokenValidator;
  private final String orgId;
  private final String instanceUrl;
  private final EventGenerator generator;
  private final PubSubFaults faults = new PubSubFaults(this::drainAll, this::dropOpen);
  private final Map<String, SimTopic> topics = new LinkedHashMap<>(); // guarded by itself
  private final Map<String, Schema> schemas = new ConcurrentHashMap<>();
  private final Map<String, String> schemaJson = new ConcurrentHashMap<>();
  private final Set<Subscription> subs = ConcurrentHashMap.newKeySet();
  private final List<RecordedCall> calls = new ArrayList<>(); // guarded by itself
  private final Server netty;
  private final Server inProcess;
  private final String inProcessName;
  private final ScheduledExecutorService ticker;
  private final AtomicBoolean closed = new AtomicBoolean();

  private SimPubSub(Builder b) throws IOException {
    this.clock = b.clock;
    this.keepaliveInterval = b.keepaliveInterval;
    this.retention = b.retention;
    this.invalidReplayStatus = b.invalidReplayStatus;
    this.tokenValidator = b.tokenValidator;
    this.orgId = b.orgId;
    this.instanceUrl = b.instanceUrl == null ? null : stripSlash(b.instanceUrl);
    this.generator = new EventGenerator(b.seed);
    if (b.builtinTopics) {
      addTopic(LOGIN_TOPIC, resource("LoginEventStream.reconstructed.avsc"));
      addTopic(API_TOPIC, resource("ApiEventStream.reconstructed.avsc"));
      addTopic(API_ANOMALY_TOPIC, resource("ApiAnomalyEvent.reconstructed.avsc"));
      addTopic(
          ACCOUNT_CDC_TOPIC,
          ACCOUNT_SCHEMA_ID,
          resource("AccountChangeEvent." + ACCOUNT_SCHEMA_ID + ".avsc"));
    }
    b.topics.forEach(this::addTopic);
    ServerServiceDefinition service =
        ServerInterceptors.intercept(new Service(), new AuthInterceptor());
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
    this.netty = net;
    this.inProcess = inproc;
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
    synchronized (topics) {
      return List.copyOf(topics.keySet());
    }
  }

  /**
   * Registers a topic whose events are written with {@code schemaJson} (the schema id is derived
   * from the schema). Returns the schema id.
   *
   * @throws IllegalArgumentException when the topic exists or the schema does not parse
   */
  public String addTopic(String topic, String schemaJson) {
    return addTopic(topic, null, schemaJson);
  }

  /**
   * Registers a writer schema (for {@link #publish(String, byte[], String)} with several schema ids
   * on one topic, or {@link #setTopicSchema(String, String)}). Returns its id; registering the same
   * schema twice returns the same id.
   */
  public String registerSchema(String json) {
    return register(null, json);
  }

  /** Generated events of {@code topic} are written with schema {@code schemaId} from now on. */
  public void setTopicSchema(String topic, String schemaId) {
    Schema s = requireSchema(schemaId);
    requireTopic(topic).setSchema(schemaId, s);
  }

  /** The current schema id of {@code topic} (as {@code GetTopic} reports it). */
  public String schemaIdOf(String topic) {
    return requireTopic(topic).schemaId();
  }

  /** The parsed schema registered under {@code schemaId}. */
  public Schema schema(String schemaId) {
    return requireSchema(schemaId);
  }

  /** The JSON text {@code GetSchema} returns for {@code schemaId}. */
  public String schemaJson(String schemaId) {
    requireSchema(schemaId);
    return schemaJson.get(schemaId);
  }

  /**
   * Publishes {@code count} generated events on {@code topic} with its current schema
   * (deterministic for a given seed, topic, call sequence and clock readings), delivers them to
   * open streams that have credits, and returns them in replay order.
   */
  public List<PublishedEvent> publish(String topic, int count) {
    SimTopic t = requireTopic(topic);
    List<PublishedEvent> out = new ArrayList<>(count);
    synchronized (generator) {
      for (int i = 0; i < count; i++) {
        synchronized (t) {
          Instant now = clock.instant();
          EventGenerator.Generated g = generator.next(topic, t.schema(), now);
          byte[] payload = AvroCodec.encode(t.schema(), g.record());
          Map<String, Object> decoded;
          try {
            decoded = AvroCodec.decode(t.schema(), payload);
          } catch (IOException e) {
            throw new UncheckedIOException("generated payload does not decode", e);
          }
          out.add(store(t, t.schemaId(), payload, decoded, g.eventTime(), now, false));
        }
      }
    }
    deliver(t);
    return out;
  }

  /**
   * Publishes one event with a caller-built payload. {@link PublishedEvent#fields()} is the payload
   * decoded with {@code schemaId}'s schema, or null when it does not decode.
   *
   * @throws IllegalArgumentException for an unknown topic or schema id
   */
  public PublishedEvent publish(String topic, byte[] payload, String schemaId) {
    SimTopic t = requireTopic(topic);
    Schema s = requireSchema(schemaId);
    Map<String, Object> decoded;
    try {
      decoded = AvroCodec.decode(s, payload);
    } catch (IOException e) {
      decoded = null;
    }
    PublishedEvent e;
    synchronized (t) {
      Instant now = clock.instant();
      e = store(t, schemaId, payload.clone(), decoded, eventTime(decoded, now), now, false);
    }
    deliver(t);
    return e;
  }

  /**
   * Publishes a poison event: a generated payload cut short, so that decoding with its schema id
   * fails (PS-6); {@link PublishedEvent#poison()} is true and {@code fields} null.
   */
  public PublishedEvent publishPoison(String topic) {
    SimTopic t = requireTopic(topic);
    PublishedEvent e;
    synchronized (generator) {
      synchronized (t) {
        Instant now = clock.instant();
        Schema s = t.schema();
        byte[] full = AvroCodec.encode(s, generator.next(topic, s, now).record());
        byte[] cut = Arrays.copyOf(full, full.length / 2);
        if (decodes(s, cut)) {
          cut = new byte[] {(byte) 0x80}; // an unterminated varint
        }
        e = store(t, t.schemaId(), cut, null, now, now, true);
      }
    }
    deliver(t);
    return e;
  }

  /** The retained events of {@code topic} in replay order (after evicting expired ones). */
  public List<PublishedEvent> retained(String topic) {
    SimTopic t = requireTopic(topic);
    t.evict(clock.instant(), retention);
    return t.retained();
  }

  /** The newest replay id of {@code topic} (the id of "sequence 0" before any event). */
  public byte[] latestReplayId(String topic) {
    SimTopic t = requireTopic(topic);
    return ReplayIds.encode(t.prefix, t.lastSeq());
  }

  /** Counters of {@code topic}. */
  public TopicStats stats(String topic) {
    return requireTopic(topic).stats();
  }

  /** Every RPC received so far, in arrival order, refused ones included. */
  public List<RecordedCall> calls() {
    synchronized (calls) {
      return List.copyOf(calls);
    }
  }

  /** Open {@code Subscribe} streams that have named their topic. */
  public int openStreams() {
    return subs.size();
  }

  /** Open {@code Subscribe} streams of {@code topic} (those that have sent a first request). */
  public int openStreams(String topic) {
    SimTopic t = requireTopic(topic);
    int n = 0;
    for (Subscription s : subs) {
      if (s.topic == t) {
        n++;
      }
    }
    return n;
  }

  /**
   * Sends due keepalives and delivers owed events on every open stream, ending streams whose token
   * is no longer valid. Called by the background ticker; tests using {@link
   * Builder#manualKeepalives()} call it after advancing the clock.
   */
  public void runKeepalives() {
    Instant now = clock.instant();
    for (Subscription s : subs) {
      s.tick(now);
    }
  }

  /** Ends every open stream whose access token is no longer valid ({@code UNAUTHENTICATED}). */
  public void checkTokens() {
    for (Subscription s : subs) {
      s.checkToken();
    }
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
    subs.clear();
  }

  // ---------------------------------------------------------------- internals

  private String addTopic(String topic, String fixedId, String json) {
    Objects.requireNonNull(topic);
    String id = register(fixedId, json);
    synchronized (topics) {
      if (topics.containsKey(topic)) {
        throw new IllegalArgumentException("topic exists: " + topic);
      }
      topics.put(topic, new SimTopic(topic, topics.size() + 1, id, schemas.get(id)));
    }
    return id;
  }

  private String register(String fixedId, String json) {
    Schema s;
    try {
      s = new Schema.Parser().parse(json);
    } catch (RuntimeException e) {
      throw new IllegalArgumentException("schema does not parse", e);
    }
    String id = fixedId != null ? fixedId : schemaId(s);
    schemas.putIfAbsent(id, s);
    schemaJson.putIfAbsent(id, json);
    return id;
  }

  private static String schemaId(Schema s) {
    try {
      byte[] h =
          MessageDigest.getInstance("SHA-256")
              .digest(s.toString().getBytes(StandardCharsets.UTF_8));
      return Base64.getUrlEncoder().withoutPadding().encodeToString(Arrays.copyOf(h, 16));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private PublishedEvent store(
      SimTopic t,
      String schemaId,
      byte[] payload,
      Map<String, Object> fields,
      Instant eventTime,
      Instant now,
      boolean poison) {
    t.evict(now, retention);
    byte[] replayId = t.nextReplayId();
    String eventId =
        UUID.nameUUIDFromBytes(
                (t.name + "#" + Base64.getEncoder().encodeToString(replayId))
                    .getBytes(StandardCharsets.UTF_8))
            .toString();
    PublishedEvent e =
        new PublishedEvent(
            t.name, replayId, eventId, schemaId, payload, fields, eventTime, now, poison);
    t.append(e);
    return e;
  }

  @SuppressWarnings("unchecked")
  private static Instant eventTime(Map<String, Object> f, Instant fallback) {
    if (f == null) {
      return fallback;
    }
    if (f.get("ChangeEventHeader") instanceof Map<?, ?> h
        && ((Map<String, Object>) h).get("commitTimestamp") instanceof Long l) {
      return Instant.ofEpochMilli(l);
    }
    if (f.get("EventDate") instanceof Long l) {
      return Instant.ofEpochMilli(l);
    }
    if (f.get("CreatedDate") instanceof Long l) {
      return Instant.ofEpochMilli(l);
    }
    return fallback;
  }

  private static boolean decodes(Schema s, byte[] payload) {
    try {
      AvroCodec.decode(s, payload);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private void deliver(SimTopic t) {
    for (Subscription s : subs) {
      if (s.topic == t) {
        s.drain();
      }
    }
  }

  /** {@link PubSubFaults#dropOpenStreams(String, Status.Code)}. */
  private int dropOpen(String topic, Status.Code code) {
    SimTopic t = requireTopic(topic);
    int n = 0;
    for (Subscription s : subs) {
      if (s.topic == t && s.endNow(code)) {
        n++;
      }
    }
    if (n > 0) {
      log.atInfo()
          .addKeyValue("topic", topic)
          .addKeyValue("status", code.name())
          .addKeyValue("streams", n)
          .log("sim pubsub dropped open streams");
    }
    return n;
  }

  private void drainAll() {
    for (Subscription s : subs) {
      s.drain();
    }
  }

  private void tickQuietly() {
    try {
      runKeepalives();
    } catch (RuntimeException e) {
      log.atWarn().addKeyValue("error", e.toString()).log("sim pubsub keepalive tick failed");
    }
  }

  private SimTopic topic(String name) {
    synchronized (topics) {
      return topics.get(name);
    }
  }

  private SimTopic requireTopic(String name) {
    SimTopic t = topic(name);
    if (t == null) {
      throw new IllegalArgumentException("unknown topic: " + name);
    }
    return t;
  }

  private Schema requireSchema(String schemaId) {
    Schema s = schemas.get(Objects.requireNonNull(schemaId));
    if (s == null) {
      throw new IllegalArgumentException("unknown schema id: " + schemaId);
    }
    return s;
  }

  private static String resource(String name) {
    try (InputStream in = SimPubSub.class.getResourceAsStream(RESOURCES + name)) {
      if (in == null) {
        throw new IllegalStateException("missing resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String stripSlash(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }

  private static String rpcId() {
    return UUID.randomUUID().toString();
  }

  // ---------------------------------------------------------------- auth

  /** Records every call, then checks {@code accesstoken}, {@code instanceurl}, {@code tenantid}. */
  private final class AuthInterceptor implements ServerInterceptor {
    @Override
    public <Q, R> ServerCall.Listener<Q> interceptCall(
        ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
      Map<String, String> md = new TreeMap<>();
      for (String k : headers.keys()) {
        if (!k.endsWith(Metadata.BINARY_HEADER_SUFFIX)) {
          String v = headers.get(Metadata.Key.of(k, Metadata.ASCII_STRING_MARSHALLER));
          if (v != null) {
            md.put(k, v);
          }
        }
      }
      synchronized (calls) {
        calls.add(
            new RecordedCall(
                call.getMethodDescriptor().getBareMethodName(), Map.copyOf(md), clock.instant()));
      }
      String token = headers.get(ACCESS_TOKEN);
      String url = headers.get(INSTANCE_URL);
      boolean ok =
          token != null
              && !token.isEmpty()
              && tokenValidator.test(token)
              && (instanceUrl == null || (url != null && instanceUrl.equals(stripSlash(url))))
              && (orgId == null || orgId.equals(headers.get(TENANT_ID)));
      if (!ok) {
        call.close(
            Status.UNAUTHENTICATED.withDescription("authentication failed"), trailer(AUTH_ERROR));
        return new ServerCall.Listener<>() {};
      }
      return Contexts.interceptCall(
          Context.current().withValue(TOKEN_CTX, token), call, headers, next);
    }
  }

  private static Metadata trailer(String errorCode) {
    Metadata m = new Metadata();
    if (errorCode != null) {
      m.put(ERROR_CODE_KEY, errorCode);
    }
    return m;
  }

  // ---------------------------------------------------------------- service

  private final class Service extends PubSubGrpc.PubSubImplBase {
    @Override
    public void getTopic(TopicRequest req, StreamObserver<TopicInfo> out) {
      SimTopic t = topic(req.getTopicName());
      if (t == null) {
        out.onError(
            Status.NOT_FOUND.withDescription("topic not found").asRuntimeException(trailer(null)));
        return;
      }
      out.onNext(
          TopicInfo.newBuilder()
              .setTopicName(t.name)
              .setTenantGuid(orgId == null ? "" : orgId)
              .setCanPublish(false)
              .setCanSubscribe(true)
              .setSchemaId(t.schemaId())
              .setRpcId(rpcId())
              .build());
      out.onCompleted();
    }

    @Override
    public void getSchema(SchemaRequest req, StreamObserver<SchemaInfo> out) {
      Optional<Status.Code> fault = faults.takeSchemaFailure(req.getSchemaId());
      if (fault.isPresent()) {
        out.onError(
            Status.fromCode(fault.get())
                .withDescription("simulated schema failure")
                .asRuntimeException());
        return;
      }
      String json = schemaJson.get(req.getSchemaId());
      if (json == null) {
        out.onError(Status.NOT_FOUND.withDescription("schema not found").asRuntimeException());
        return;
      }
      out.onNext(
          SchemaInfo.newBuilder()
              .setSchemaJson(json)
              .setSchemaId(req.getSchemaId())
              .setRpcId(rpcId())
              .build());
      out.onCompleted();
    }

    @Override
    public StreamObserver<FetchRequest> subscribe(StreamObserver<FetchResponse> out) {
      ServerCallStreamObserver<FetchResponse> o = (ServerCallStreamObserver<FetchResponse>) out;
      Subscription s = new Subscription(o, TOKEN_CTX.get());
      o.setOnCancelHandler(s::cancelled);
      return s;
    }
  }

  /** One {@code Subscribe} call. All stream writes happen under this object's lock. */
  private final class Subscription implements StreamObserver<FetchRequest> {
    private final ServerCallStreamObserver<FetchResponse> out;
    private final String token;
    volatile SimTopic topic;
    private long nextSeq;
    private long credits;
    private int dropRemaining = -1;
    private Status.Code dropCode;
    private Instant lastSent;
    private boolean done;

    Subscription(ServerCallStreamObserver<FetchResponse> out, String token) {
      this.out = out;
      this.token = token;
    }

    @Override
    public synchronized void onNext(FetchRequest req) {
      if (done) {
        return;
      }
      if (!tokenValidator.test(token)) {
        fail(Status.Code.UNAUTHENTICATED, AUTH_ERROR, "access token expired");
        return;
      }
      if (topic == null && !start(req)) {
        return;
      }
      int n = req.getNumRequested();
      topic.countRequest(credits + Math.max(0, n));
      if (n <= 0) {
        fail(Status.Code.INVALID_ARGUMENT, null, "num_requested must be > 0");
        return;
      }
      credits += n;
      drainLocked();
    }

    private boolean start(FetchRequest req) {
      SimTopic t = topic(req.getTopicName());
      if (t == null) {
        fail(Status.Code.NOT_FOUND, null, "topic not found");
        return false;
      }
      t.countSubscribe();
      Optional<PubSubFaults.SubscribeFailure> f = faults.takeFailure(t.name);
      if (f.isPresent()) {
        fail(f.get().code(), f.get().errorCode(), "simulated subscribe failure");
        return false;
      }
      t.evict(clock.instant(), retention);
      switch (req.getReplayPreset()) {
        case EARLIEST -> nextSeq = t.firstSeq();
        case CUSTOM -> {
          Optional<ReplayIds.Parsed> p = ReplayIds.parse(req.getReplayId().toByteArray());
          if (p.isEmpty()) {
            fail(invalidReplayStatus, REPLAY_CORRUPTED, "replay id is corrupted");
            return false;
          }
          if (p.get().prefix() != t.prefix || !t.resumable(p.get().seq())) {
            fail(invalidReplayStatus, REPLAY_VALIDATION_FAILED, "replay id validation failed");
            return false;
          }
          nextSeq = p.get().seq() + 1;
        }
        default -> nextSeq = t.lastSeq() + 1; // LATEST (also unknown values)
      }
      PubSubFaults.StreamEnd end = faults.takeDrop(t.name);
      if (end != null) {
        dropRemaining = end.events();
        dropCode = end.code();
      }
      lastSent = clock.instant();
      topic = t;
      subs.add(this);
      if (dropRemaining == 0) {
        endStream();
        return false;
      }
      return true;
    }

    /** The queued {@link PubSubFaults.StreamEnd}: an error, or a clean completion for OK. */
    private void endStream() {
      if (dropCode != Status.Code.OK) {
        fail(dropCode, null, "stream dropped (simulated)");
        return;
      }
      finish();
      try {
        out.onCompleted();
      } catch (RuntimeException e) {
        log.atDebug().log("sim pubsub stream already closed");
      }
    }

    synchronized void drain() {
      drainLocked();
    }

    /** Ends the call now with {@code code} (OK = clean completion); false if already ended. */
    synchronized boolean endNow(Status.Code code) {
      if (done) {
        return false;
      }
      dropCode = code;
      endStream();
      return true;
    }

    private void drainLocked() {
      SimTopic t = topic;
      if (done || t == null || faults.isSilent(t.name)) {
        return;
      }
      if (!tokenValidator.test(token)) {
        fail(Status.Code.UNAUTHENTICATED, AUTH_ERROR, "access token expired");
        return;
      }
      t.evict(clock.instant(), retention);
      while (credits > 0) {
        int max = (int) Math.min(credits, MAX_EVENTS_PER_RESPONSE);
        if (dropRemaining >= 0) {
          max = Math.min(max, dropRemaining);
        }
        List<PublishedEvent> batch = t.from(nextSeq, max);
        if (batch.isEmpty()) {
          return;
        }
        FetchResponse.Builder r = FetchResponse.newBuilder();
        for (PublishedEvent e : batch) {
          r.addEvents(
              ConsumerEvent.newBuilder()
                  .setEvent(
                      ProducerEvent.newBuilder()
                          .setId(e.eventId())
                          .setSchemaId(e.schemaId())
                          .setPayload(ByteString.copyFrom(e.payload())))
                  .setReplayId(ByteString.copyFrom(e.replayId())));
        }
        byte[] last = batch.get(batch.size() - 1).replayId();
        credits -= batch.size();
        nextSeq = ReplayIds.parse(last).orElseThrow().seq() + 1;
        r.setLatestReplayId(ByteString.copyFrom(last))
            .setRpcId(rpcId())
            .setPendingNumRequested((int) credits);
        if (!send(r.build())) {
          return;
        }
        t.countDelivered(batch.size());
        if (dropRemaining >= 0) {
          dropRemaining -= batch.size();
          if (dropRemaining == 0) {
            endStream();
            return;
          }
        }
      }
    }

    synchronized void tick(Instant now) {
      drainLocked();
      SimTopic t = topic;
      if (done || t == null || faults.isSilent(t.name)) {
        return;
      }
      if (Duration.between(lastSent, now).compareTo(keepaliveInterval) >= 0) {
        FetchResponse k =
            FetchResponse.newBuilder()
                .setLatestReplayId(ByteString.copyFrom(ReplayIds.encode(t.prefix, nextSeq - 1)))
                .setRpcId(rpcId())
                .setPendingNumRequested((int) credits)
                .build();
        if (send(k)) {
          t.countKeepalive();
        }
      }
    }

    synchronized void checkToken() {
      if (!done && !tokenValidator.test(token)) {
        fail(Status.Code.UNAUTHENTICATED, AUTH_ERROR, "access token expired");
      }
    }

    private boolean send(FetchResponse r) {
      try {
        out.onNext(r);
        lastSent = clock.instant();
        return true;
      } catch (RuntimeException e) {
        finish();
        return false;
      }
    }

    private void fail(Status.Code code, String errorCode, String description) {
      finish();
      try {
        out.onError(
            Status.fromCode(code)
                .withDescription(description)
                .asRuntimeException(trailer(errorCode)));
      } catch (RuntimeException e) {
        log.atDebug().addKeyValue("error", e.toString()).log("sim pubsub stream already closed");
      }
    }

    private void finish() {
      done = true;
      subs.remove(this);
    }

    @Override
    public synchronized void onError(Throwable t) {
      finish();
    }

    @Override
    public synchronized void onCompleted() {
      if (!done) {
        finish();
        try {
          out.onCompleted();
        } catch (RuntimeException e) {
          log.atDebug().log("sim pubsub stream already closed");
        }
      }
    }

    synchronized void cancelled() {
      finish();
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
