package io.sf2loki.salesforce.pubsub;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.salesforce.eventbus.protobuf.ConsumerEvent;
import com.salesforce.eventbus.protobuf.FetchResponse;
import com.salesforce.eventbus.protobuf.ProducerEvent;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.ServerInterceptors;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.spi.CheckpointStore;
import io.sf2loki.core.spi.StateException;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.salesforce.auth.AccessToken;
import io.sf2loki.salesforce.rest.RestTestSupport;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;

/** Wires a {@link TopicReader} to a {@link FakePubSub} over in-process gRPC with fake time. */
final class ReaderHarness implements AutoCloseable {
  static final String TOPIC = "/event/LoginEventStream";
  static final String SCHEMA_ID = "login-schema-1";
  static final Instant START = Instant.parse("2024-06-05T06:00:00Z");
  static final long WAIT_MS = 5000;

  final FakePubSub service = new FakePubSub();
  final Server server;
  final ManagedChannel channel;
  final FakeTime time = new FakeTime(START);
  final ReplayCommitTimes commitTimes = new ReplayCommitTimes(time.wall());
  final RestTestSupport.Probe probe = new RestTestSupport.Probe();
  final Sf2lokiMetrics metrics = probe.metrics;
  final FakeBridge bridge = new FakeBridge();
  final FakeStore store = new FakeStore();
  final FakeCredentials credentials = new FakeCredentials();
  final DiscardedReplayIds discarded;
  final UndecodableTopics undecodable = new UndecodableTopics();
  final SchemaCache schemas;
  final StopSignal stop = new StopSignal();
  final Attributes topicAttrs = Attributes.of(Sf2lokiMetrics.TOPIC, TOPIC);
  PubSubReaderSettings settings =
      PubSubReaderSettings.defaults(List.of("event_uuid", "replay_id", "schema_id"))
          .withInboxPoll(Duration.ofMillis(2));
  io.sf2loki.core.status.PollReporter reporter = io.sf2loki.core.status.PollReporter.NONE;
  io.sf2loki.salesforce.source.SourceTransforms transforms =
      io.sf2loki.salesforce.source.SourceTransforms.NONE;
  java.util.concurrent.Executor cpu = Runnable::run;
  private Thread thread;
  final List<Throwable> crashes = new CopyOnWriteArrayList<>();

  ReaderHarness() throws IOException {
    this(new DiscardedReplayIds());
  }

  ReaderHarness(DiscardedReplayIds discarded) throws IOException {
    this(discarded, Duration.ofSeconds(5));
  }

  ReaderHarness(DiscardedReplayIds discarded, Duration schemaDeadline) throws IOException {
    this.discarded = discarded;
    String name = InProcessServerBuilder.generateName();
    server =
        InProcessServerBuilder.forName(name)
            .addService(ServerInterceptors.intercept(service, FakePubSub.headerCapture()))
            .build()
            .start();
    channel = InProcessChannelBuilder.forName(name).build();
    schemas = new SchemaCache(new GrpcSchemaFetcher(channel, credentials, schemaDeadline));
    service.schemas.put(SCHEMA_ID, resource("LoginEventStream.reconstructed.avsc"));
  }

  static String resource(String file) throws IOException {
    try (InputStream in = ReaderHarness.class.getResourceAsStream("/fixtures/avro/" + file)) {
      assertThat(in).as(file).isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** The Avro payload of the synthetic Login event (EventDate 1717564999123). */
  static byte[] loginPayload() throws IOException {
    var tree =
        new com.fasterxml.jackson.databind.ObjectMapper()
            .readTree(resource("rtem_synthetic_events.json"));
    return Base64.getDecoder().decode(tree.get("events").get(0).get("avro_base64").asText());
  }

  static ByteString rid(int i) {
    return ByteString.copyFrom(new byte[] {0, 0, 0, 0, 0, 0x17, (byte) 0x90, 0x50, 0, (byte) i});
  }

  static String b64(ByteString id) {
    return Base64.getEncoder().encodeToString(id.toByteArray());
  }

  static ConsumerEvent event(ByteString replayId, byte[] payload) {
    return ConsumerEvent.newBuilder()
        .setReplayId(replayId)
        .setEvent(
            ProducerEvent.newBuilder()
                .setId("evt")
                .setSchemaId(SCHEMA_ID)
                .setPayload(ByteString.copyFrom(payload)))
        .build();
  }

  static FetchResponse events(int pending, ConsumerEvent... events) {
    return FetchResponse.newBuilder()
        .addAllEvents(List.of(events))
        .setLatestReplayId(
            events.length == 0 ? ByteString.EMPTY : events[events.length - 1].getReplayId())
        .setPendingNumRequested(pending)
        .build();
  }

  static FetchResponse keepalive(ByteString latest, int pending) {
    return FetchResponse.newBuilder()
        .setLatestReplayId(latest)
        .setPendingNumRequested(pending)
        .build();
  }

  TopicReader reader() {
    return new TopicReader(
        TOPIC,
        bridge,
        stop,
        settings,
        channel,
        credentials,
        schemas,
        store::load,
        discarded,
        commitTimes,
        undecodable,
        metrics,
        time.timeSource(),
        time.wall(),
        java.util.random.RandomGenerator.of("L64X128MixRandom"),
        transforms,
        cpu);
  }

  /** Starts the reader on its own thread. */
  TopicReader start() {
    TopicReader r = reader().reportTo(reporter);
    thread =
        Thread.ofPlatform()
            .name("reader")
            .start(
                () -> {
                  try {
                    r.run();
                  } catch (Throwable t) {
                    crashes.add(t);
                  }
                });
    return r;
  }

  long counter(String name) {
    return probe.collect().counter(name, topicAttrs);
  }

  /** Waits (bounded) until {@code condition} holds. */
  static void await(String what, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime() < deadline).as("timed out waiting for " + what).isTrue();
      Thread.sleep(1);
    }
  }

  /** Stops the reader and joins it (bounded). */
  void stopReader() throws InterruptedException {
    stop.stop();
    if (thread != null) {
      thread.join(WAIT_MS);
      assertThat(thread.isAlive()).as("reader returned after stop").isFalse();
    }
  }

  @Override
  public void close() throws Exception {
    stopReader();
    channel.shutdownNow();
    server.shutdownNow();
    probe.close();
    assertThat(crashes).isEmpty();
  }

  /** A bridge recording entries; byte room and blocking are scriptable. */
  static final class FakeBridge implements BridgeWriter {
    final BlockingQueue<LogEntry> entries = new LinkedBlockingQueue<>();
    final List<LogEntry> all = new CopyOnWriteArrayList<>();
    final List<Runnable> listeners = new CopyOnWriteArrayList<>();
    volatile boolean room = true;
    volatile Semaphore gate; // when set, put waits for a permit
    final AtomicInteger waiting = new AtomicInteger();

    @Override
    public boolean put(LogEntry entry, StopSignal stop) throws InterruptedException {
      Semaphore g = gate;
      if (g != null) {
        waiting.incrementAndGet();
        while (!g.tryAcquire(1, TimeUnit.MILLISECONDS)) {
          if (stop.isStopped()) {
            waiting.decrementAndGet();
            return false;
          }
        }
        waiting.decrementAndGet();
      }
      if (stop.isStopped()) {
        return false;
      }
      all.add(entry);
      entries.add(entry);
      return true;
    }

    @Override
    public boolean hasByteRoom() {
      return room;
    }

    @Override
    public Runnable onByteRoom(Runnable listener) {
      listeners.add(listener);
      return () -> listeners.remove(listener);
    }

    void regainRoom() {
      room = true;
      listeners.forEach(Runnable::run);
    }

    LogEntry next() throws InterruptedException {
      LogEntry e = entries.poll(WAIT_MS, TimeUnit.MILLISECONDS);
      assertThat(e).as("an entry on the bridge").isNotNull();
      return e;
    }
  }

  /** An in-memory store; {@code transientFailures} loads fail first. */
  static final class FakeStore implements CheckpointStore {
    final Map<String, String> values = new ConcurrentHashMap<>();
    final AtomicInteger transientFailures = new AtomicInteger();
    volatile String failureMessage = "transient test failure";
    final AtomicInteger loads = new AtomicInteger();

    @Override
    public Optional<String> load(String key) {
      loads.incrementAndGet();
      if (transientFailures.getAndUpdate(v -> Math.max(0, v - 1)) > 0) {
        throw new StateException(failureMessage);
      }
      return Optional.ofNullable(values.get(key));
    }

    @Override
    public void commitMany(Map<String, String> v, Set<String> keysToRemove) {
      values.putAll(v);
      keysToRemove.forEach(values::remove);
    }

    @Override
    public void delete(String key) {
      values.remove(key);
    }

    @Override
    public Map<String, String> snapshot() {
      return Map.copyOf(values);
    }

    @Override
    public void reset() {}

    @Override
    public void close() {}
  }

  /** Tokens tok-1, tok-2, … : invalidating the current one makes the next call mint anew. */
  static final class FakeCredentials implements PubSubCredentials {
    final AtomicInteger generation = new AtomicInteger(1);
    final List<AccessToken> invalidated = new CopyOnWriteArrayList<>();
    final List<String> issued = new ArrayList<>();

    @Override
    public synchronized AccessToken token() {
      String v = "tok-" + generation.get();
      issued.add(v);
      return new AccessToken(v, URI.create("https://example.my.salesforce.com"), START);
    }

    @Override
    public synchronized void invalidate(AccessToken used) {
      invalidated.add(used);
      if (used.value().equals("tok-" + generation.get())) {
        generation.incrementAndGet();
      }
    }

    @Override
    public String orgId() {
      return "00Dxx0000000001EAA";
    }
  }
}
