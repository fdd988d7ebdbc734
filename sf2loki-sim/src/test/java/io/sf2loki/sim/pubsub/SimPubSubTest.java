package io.sf2loki.sim.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.salesforce.eventbus.protobuf.ConsumerEvent;
import com.salesforce.eventbus.protobuf.FetchResponse;
import com.salesforce.eventbus.protobuf.PubSubGrpc;
import com.salesforce.eventbus.protobuf.ReplayPreset;
import com.salesforce.eventbus.protobuf.SchemaInfo;
import com.salesforce.eventbus.protobuf.SchemaRequest;
import com.salesforce.eventbus.protobuf.TopicInfo;
import com.salesforce.eventbus.protobuf.TopicRequest;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.stub.MetadataUtils;
import io.sf2loki.core.time.FakeTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.avro.Schema;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The simulated Pub/Sub API through a real gRPC client over a direct-executor in-process channel
 * (every call completes on the calling thread, so no waiting is needed).
 */
class SimPubSubTest {
  static final String ORG = "00Dxx0000000001EAA";
  static final String URL = "https://example.my.salesforce.com";
  static final String TOKEN = "00Dxx0000000001!good";
  static final String LOGIN = SimPubSub.LOGIN_TOPIC;
  static final Instant NOW = Instant.parse("2024-06-05T10:00:00Z");

  final FakeTime time = new FakeTime(NOW);
  final String name = "sim-pubsub-" + UUID.randomUUID();
  SimPubSub sim;
  ManagedChannel channel;
  PubSubGrpc.PubSubStub stub;
  PubSubGrpc.PubSubBlockingStub blocking;

  void start(Consumer<SimPubSub.Builder> config) throws Exception {
    SimPubSub.Builder b =
        SimPubSub.builder()
            .loopback(false)
            .inProcess(name)
            .directExecutor()
            .manualKeepalives()
            .clock(time.wall())
            .auth(ORG, URL, Set.of(TOKEN)::contains);
    config.accept(b);
    sim = b.start();
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
    withToken(TOKEN, ORG, URL);
  }

  void withToken(String token, String org, String url) {
    Metadata md = new Metadata();
    put(md, "accesstoken", token);
    put(md, "tenantid", org);
    put(md, "instanceurl", url);
    put(md, "x-client-trace-id", "trace-1");
    stub =
        PubSubGrpc.newStub(channel).withInterceptors(MetadataUtils.newAttachHeadersInterceptor(md));
    blocking =
        PubSubGrpc.newBlockingStub(channel)
            .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(md));
  }

  private static void put(Metadata md, String key, String value) {
    if (value != null) {
      md.put(Metadata.Key.of(key, Metadata.ASCII_STRING_MARSHALLER), value);
    }
  }

  TestStream subscribe(String topic) {
    return new TestStream(stub, topic);
  }

  @AfterEach
  void stop() throws InterruptedException {
    if (channel != null) {
      channel.shutdownNow().awaitTermination(2, TimeUnit.SECONDS);
    }
    if (sim != null) {
      sim.close();
    }
  }

  // ---------------------------------------------------------------- flow control (PS-3)

  @Test
  @DisplayName("PS-3: request 3 gives exactly 3 events and pending 0, top-ups deliver the rest")
  void flowControlIsExact() throws Exception {
    start(b -> {});
    List<PublishedEvent> published = sim.publish(LOGIN, 5);
    TestStream s = subscribe(LOGIN).first(ReplayPreset.EARLIEST, null, 3);

    List<FetchResponse> rs = s.nextEvents(3);
    assertThat(TestStream.events(rs)).hasSize(3);
    assertThat(rs.get(rs.size() - 1).getPendingNumRequested()).isZero();
    assertThat(s.responses).isEmpty();
    assertThat(sim.stats(LOGIN).delivered()).isEqualTo(3);
    assertThat(sim.stats(LOGIN).maxOutstanding()).isEqualTo(3);

    s.request(4); // 2 available, 2 owed afterwards
    FetchResponse r = s.next();
    assertThat(r.getEventsList())
        .extracting(e -> e.getReplayId().toByteArray())
        .containsExactly(published.get(3).replayId(), published.get(4).replayId());
    assertThat(r.getPendingNumRequested()).isEqualTo(2);
    assertThat(r.getLatestReplayId().toByteArray()).isEqualTo(published.get(4).replayId());

    sim.publish(LOGIN, 3); // only 2 are owed
    List<ConsumerEvent> more = TestStream.events(s.nextEvents(2));
    assertThat(more).hasSize(2);
    assertThat(s.responses).isEmpty();
    TopicStats st = sim.stats(LOGIN);
    assertThat(st.delivered()).isEqualTo(7);
    assertThat(st.fetchRequests()).isEqualTo(2);
    assertThat(st.maxOutstanding()).isEqualTo(4);
    assertThat(st.subscribes()).isEqualTo(1);
  }

  @Test
  @DisplayName("PS-3: at most 100 events per response, in replay order")
  void batchesOfAtMost100() throws Exception {
    start(b -> {});
    List<PublishedEvent> published = sim.publish(LOGIN, 250);
    TestStream s = subscribe(LOGIN).first(ReplayPreset.EARLIEST, null, 250);
    List<FetchResponse> rs = s.nextEvents(250);
    assertThat(rs).extracting(FetchResponse::getEventsCount).containsExactly(100, 100, 50);
    assertThat(rs).extracting(FetchResponse::getPendingNumRequested).containsExactly(150, 50, 0);
    assertThat(TestStream.events(rs))
        .extracting(e -> e.getEvent().getId())
        .containsExactlyElementsOf(published.stream().map(PublishedEvent::eventId).toList());
  }

  @Test
  @DisplayName("PS-3: num_requested <= 0 is refused")
  void zeroRequestRefused() throws Exception {
    start(b -> {});
    TestStream s = subscribe(LOGIN).first(ReplayPreset.LATEST, null, 0);
    assertThat(s.awaitEnd().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
  }

  // ---------------------------------------------------------------- presets (PS-13)

  @Test
  @DisplayName("PS-13: LATEST sees only new events, EARLIEST all, CUSTOM resumes after the id")
  void presets() throws Exception {
    start(b -> {});
    List<PublishedEvent> old = sim.publish(LOGIN, 3);
    TestStream latest = subscribe(LOGIN).first(ReplayPreset.LATEST, null, 10);
    TestStream earliest = subscribe(LOGIN).first(ReplayPreset.EARLIEST, null, 10);
    TestStream custom = subscribe(LOGIN).first(ReplayPreset.CUSTOM, old.get(0).replayId(), 10);
    TestStream.await(() -> sim.openStreams() == 3);
    assertThat(latest.responses).isEmpty();
    assertThat(TestStream.events(earliest.nextEvents(3))).hasSize(3);
    assertThat(TestStream.events(custom.nextEvents(2)))
        .extracting(e -> e.getReplayId().toByteArray())
        .containsExactly(old.get(1).replayId(), old.get(2).replayId());

    PublishedEvent fresh = sim.publish(LOGIN, 1).get(0);
    for (TestStream s : List.of(latest, earliest, custom)) {
      List<ConsumerEvent> evs = s.next().getEventsList();
      assertThat(evs).hasSize(1);
      assertThat(evs.get(0).getReplayId().toByteArray()).isEqualTo(fresh.replayId());
    }
    assertThat(fresh.replayId()).hasSize(10);
  }

  @Test
  @DisplayName("PS-13: CUSTOM with the newest id resumes with nothing missed")
  void customAtNewest() throws Exception {
    start(b -> {});
    sim.publish(LOGIN, 2);
    TestStream s = subscribe(LOGIN).first(ReplayPreset.CUSTOM, sim.latestReplayId(LOGIN), 5);
    TestStream.await(() -> sim.openStreams() == 1);
    assertThat(s.responses).isEmpty();
    assertThat(s.end).isNotDone();
    PublishedEvent e = sim.publish(LOGIN, 1).get(0);
    assertThat(s.next().getEvents(0).getEvent().getId()).isEqualTo(e.eventId());
  }

  // ---------------------------------------------------------------- retention, invalid ids (PS-15)

  @Test
  @DisplayName("PS-15: an evicted, foreign or never-issued id fails with validation.failed")
  void evictedIdRejected() throws Exception {
    start(b -> b.retention(Duration.ofHours(1)));
    List<PublishedEvent> old = sim.publish(LOGIN, 3);
    time.advance(Duration.ofHours(2));
    List<PublishedEvent> fresh = sim.publish(LOGIN, 2);
    assertThat(sim.retained(LOGIN)).containsExactlyElementsOf(fresh);

    TestStream evicted = subscribe(LOGIN).first(ReplayPreset.CUSTOM, old.get(2).replayId(), 5);
    assertThat(evicted.awaitEnd().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(evicted.errorCode()).isEqualTo(SimPubSub.REPLAY_VALIDATION_FAILED);

    byte[] foreign = sim.publish(SimPubSub.API_TOPIC, 1).get(0).replayId();
    TestStream other = subscribe(LOGIN).first(ReplayPreset.CUSTOM, foreign, 5);
    assertThat(other.awaitEnd().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(other.errorCode()).isEqualTo(SimPubSub.REPLAY_VALIDATION_FAILED);

    byte[] future = fresh.get(1).replayId().clone();
    future[7]++;
    TestStream never = subscribe(LOGIN).first(ReplayPreset.CUSTOM, future, 5);
    assertThat(never.awaitEnd().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(never.errorCode()).isEqualTo(SimPubSub.REPLAY_VALIDATION_FAILED);

    TestStream ok = subscribe(LOGIN).first(ReplayPreset.CUSTOM, fresh.get(0).replayId(), 5);
    assertThat(ok.next().getEvents(0).getEvent().getId()).isEqualTo(fresh.get(1).eventId());

    TestStream earliest = subscribe(LOGIN).first(ReplayPreset.EARLIEST, null, 5);
    assertThat(earliest.next().getEvents(0).getEvent().getId()).isEqualTo(fresh.get(0).eventId());
  }

  @Test
  @DisplayName("PS-15: malformed replay id bytes fail with replayid.corrupted")
  void malformedIdRejected() throws Exception {
    start(b -> {});
    sim.publish(LOGIN, 1);
    for (byte[] bad : new byte[][] {{1, 2, 3}, new byte[0], new byte[11]}) {
      TestStream s = subscribe(LOGIN).first(ReplayPreset.CUSTOM, bad, 5);
      assertThat(s.awaitEnd().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
      assertThat(s.errorCode()).isEqualTo(SimPubSub.REPLAY_CORRUPTED);
    }
  }

  @Test
  @DisplayName("PS-15: the status of a rejected replay id is configurable, the trailer stays")
  void invalidReplayStatusConfigurable() throws Exception {
    start(b -> b.invalidReplayStatus(Status.Code.FAILED_PRECONDITION));
    TestStream s = subscribe(LOGIN).first(ReplayPreset.CUSTOM, new byte[] {9}, 5);
    assertThat(s.awaitEnd().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
    assertThat(s.errorCode()).isEqualTo(SimPubSub.REPLAY_CORRUPTED);
  }

  // ---------------------------------------------------------------- keepalive (PS-7)

  @Test
  @DisplayName("PS-7: an idle stream gets an empty response with the newest replay id")
  void keepalive() throws Exception {
    start(b -> b.keepaliveInterval(Duration.ofSeconds(270)));
    List<PublishedEvent> p = sim.publish(LOGIN, 2);
    TestStream s = subscribe(LOGIN).first(ReplayPreset.EARLIEST, null, 5);
    assertThat(TestStream.events(s.nextEvents(2))).hasSize(2);

    time.advance(Duration.ofSeconds(269));
    sim.runKeepalives();
    assertThat(s.responses).isEmpty();

    time.advance(Duration.ofSeconds(1));
    sim.runKeepalives();
    FetchResponse k = s.next();
    assertThat(k.getEventsCount()).isZero();
    assertThat(k.getLatestReplayId().toByteArray()).isEqualTo(p.get(1).replayId());
    assertThat(k.getPendingNumRequested()).isEqualTo(3);
    assertThat(sim.stats(LOGIN).keepalives()).isEqualTo(1);

    sim.runKeepalives(); // not due again yet
    assertThat(s.responses).isEmpty();
    assertThat(sim.latestReplayId(LOGIN)).isEqualTo(p.get(1).replayId());
  }

  @Test
  @DisplayName("PS-7: a keepalive before any event carries the topic's origin id")
  void keepaliveOnEmptyTopic() throws Exception {
    start(b -> b.keepaliveInterval(Duration.ofSeconds(10)));
    TestStream s = subscribe(LOGIN).first(ReplayPreset.LATEST, null, 5);
    TestStream.await(() -> sim.openStreams() == 1);
    time.advance(Duration.ofSeconds(10));
    sim.runKeepalives();
    FetchResponse k = s.next();
    assertThat(k.getLatestReplayId().toByteArray()).isEqualTo(sim.latestReplayId(LOGIN));
    // resuming after that id is valid
    TestStream again = subscribe(LOGIN).first(ReplayPreset.CUSTOM, sim.latestReplayId(LOGIN), 1);
    TestStream.await(() -> sim.openStreams() == 2);
    assertThat(again.end).isNotDone();
  }

  // ---------------------------------------------------------------- faults

  @Test
  @DisplayName("PS-14: dropStreamAfter ends the stream with UNAVAILABLE after N events")
  void dropAfter() throws Exception {
    start(b -> {});
    sim.publish(LOGIN, 5);
    sim.faults().dropStreamAfter(LOGIN, 2);
    TestStream s = subscribe(LOGIN).first(ReplayPreset.EARLIEST, null, 5);
    assertThat(TestStream.events(s.nextEvents(2))).hasSize(2);
    assertThat(s.awaitEnd().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(sim.stats(LOGIN).delivered()).isEqualTo(2);

    TestStream next = subscribe(LOGIN).first(ReplayPreset.EARLIEST, null, 5);
    assertThat(TestStream.events(next.nextEvents(5))).hasSize(5);
  }

  @Test
  @DisplayName("PS-14: endStreamAfter with OK completes the stream cleanly after N events")
  void cleanEnd() throws Exception {
    start(b -> {});
    sim.publish(LOGIN, 3);
    sim.faults().endStreamAfter(LOGIN, 1, Status.Code.OK);
    TestStream s = subscribe(LOGIN).first(ReplayPreset.EARLIEST, null, 5);
    assertThat(s.next().getEventsCount()).isEqualTo(1);
    assertThat(s.awaitEnd().getCode()).isEqualTo(Status.Code.OK);
    assertThat(sim.openStreams()).isZero();
  }

  @Test
  @DisplayName(
      "PS-14, FEAT-18: dropOpenStreams ends the open calls of a topic now; other topics and"
          + " later calls are untouched")
  void dropOpenStreamsEndsLiveCalls() throws Exception {
    start(b -> {});
    TestStream a = subscribe(LOGIN).first(ReplayPreset.LATEST, null, 5);
    TestStream b = subscribe(LOGIN).first(ReplayPreset.LATEST, null, 5);
    TestStream other = subscribe(SimPubSub.API_TOPIC).first(ReplayPreset.LATEST, null, 5);
    assertThat(sim.openStreams(LOGIN)).isEqualTo(2);

    assertThat(sim.faults().dropOpenStreams(LOGIN, Status.Code.UNAVAILABLE)).isEqualTo(2);
    assertThat(a.awaitEnd().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(b.awaitEnd().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(a.errorCode()).isNull();
    assertThat(other.end).isNotDone();
    assertThat(sim.openStreams(LOGIN)).isZero();
    assertThat(sim.faults().dropOpenStreams(LOGIN, Status.Code.UNAVAILABLE)).isZero();

    sim.publish(LOGIN, 1);
    TestStream later = subscribe(LOGIN).first(ReplayPreset.EARLIEST, null, 5);
    assertThat(later.next().getEventsCount()).isEqualTo(1);
    assertThat(sim.faults().dropOpenStreams(SimPubSub.API_TOPIC, Status.Code.OK)).isEqualTo(1);
    assertThat(other.awaitEnd().getCode()).isEqualTo(Status.Code.OK);
  }

  @Test
  @DisplayName(
      "PS-15, FEAT-18: a queued replayid.corrupted refusal plus a live drop makes the resubscribe"
          + " with the stored id fail with the trailer")
  void dropThenCorruptedResubscribe() throws Exception {
    start(b -> {});
    List<PublishedEvent> published = sim.publish(LOGIN, 2);
    TestStream s = subscribe(LOGIN).first(ReplayPreset.EARLIEST, null, 5);
    assertThat(TestStream.events(s.nextEvents(2))).hasSize(2);
    sim.faults()
        .failNextSubscribe(LOGIN, Status.Code.INVALID_ARGUMENT, SimPubSub.REPLAY_CORRUPTED)
        .dropOpenStreams(LOGIN, Status.Code.UNAVAILABLE);
    assertThat(s.awaitEnd().getCode()).isEqualTo(Status.Code.UNAVAILABLE);

    TestStream resumed =
        subscribe(LOGIN).first(ReplayPreset.CUSTOM, published.get(1).replayId(), 5);
    assertThat(resumed.awaitEnd().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(resumed.errorCode()).isEqualTo(SimPubSub.REPLAY_CORRUPTED);
  }

  @Test
  @DisplayName("FEAT-18: with a short retention the stored events stay bounded by rate x retention")
  void retentionBoundsMemory() throws Exception {
    start(b -> b.retention(Duration.ofMinutes(1)));
    for (int second = 0; second < 300; second++) { // 5 minutes at 5 events/s
      sim.publish(LOGIN, 5);
      time.advance(Duration.ofSeconds(1));
      assertThat(sim.retained(LOGIN).size()).isLessThanOrEqualTo(60 * 5);
    }
    assertThat(sim.retained(LOGIN)).hasSize(60 * 5); // published in the last 60 s only
    assertThat(sim.stats(LOGIN).delivered()).isZero();
  }

  @Test
  @DisplayName("PS-9: failNextGetSchema fails one GetSchema of that id")
  void schemaFailure() throws Exception {
    start(b -> {});
    String id = sim.schemaIdOf(LOGIN);
    sim.faults().failNextGetSchema(id, Status.Code.INTERNAL);
    assertThatThrownBy(() -> schemaJson(id))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INTERNAL));
    assertThat(schemaJson(id)).contains("LoginEventStream");
  }

  @Test
  @DisplayName("PS-15: failNextSubscribe refuses one call with the given status and trailer")
  void failNextSubscribe() throws Exception {
    start(b -> {});
    sim.publish(LOGIN, 1);
    sim.faults()
        .failNextSubscribe(LOGIN, Status.Code.UNAVAILABLE)
        .failNextSubscribe(LOGIN, Status.Code.UNAUTHENTICATED);
    TestStream a = subscribe(LOGIN).first(ReplayPreset.EARLIEST, null, 5);
    assertThat(a.awaitEnd().getCode()).isEqualTo(Status.Code.UNAVAILABLE);
    assertThat(a.errorCode()).isNull();
    TestStream b = subscribe(LOGIN).first(ReplayPreset.EARLIEST, null, 5);
    assertThat(b.awaitEnd().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
    assertThat(b.errorCode()).isEqualTo(SimPubSub.AUTH_ERROR);
    TestStream c = subscribe(LOGIN).first(ReplayPreset.EARLIEST, null, 5);
    assertThat(c.next().getEventsCount()).isEqualTo(1);
  }

  @Test
  @DisplayName("PS-8: a silenced topic sends neither events nor keepalives but stays open")
  void silence() throws Exception {
    start(b -> b.keepaliveInterval(Duration.ofSeconds(10)));
    TestStream s = subscribe(LOGIN).first(ReplayPreset.LATEST, null, 5);
    TestStream.await(() -> sim.openStreams() == 1);
    sim.faults().silence(LOGIN);
    sim.publish(LOGIN, 2);
    s.request(1);
    TestStream.await(() -> sim.stats(LOGIN).fetchRequests() == 2);
    time.advance(Duration.ofMinutes(10));
    sim.runKeepalives();
    assertThat(s.responses).isEmpty();
    assertThat(s.end).isNotDone();
    assertThat(sim.stats(LOGIN).fetchRequests()).isEqualTo(2);
    assertThat(sim.stats(LOGIN).keepalives()).isZero();

    sim.faults().unsilence(LOGIN);
    assertThat(s.next().getEventsCount()).isEqualTo(2);
  }

  @Test
  @DisplayName("PS-6: a poison event is delivered but does not decode with its schema")
  void poison() throws Exception {
    start(b -> {});
    PublishedEvent p = sim.publishPoison(LOGIN);
    assertThat(p.poison()).isTrue();
    assertThat(p.fields()).isNull();
    TestStream s = subscribe(LOGIN).first(ReplayPreset.EARLIEST, null, 5);
    ConsumerEvent e = s.next().getEvents(0);
    Schema schema = new Schema.Parser().parse(schemaJson(e.getEvent().getSchemaId()));
    assertThatThrownBy(() -> AvroDecoding.decode(schema, e.getEvent().getPayload().toByteArray()))
        .isInstanceOf(Exception.class);
  }

  // ---------------------------------------------------------------- GetTopic / GetSchema (PS-1,
  // PS-4)

  @Test
  @DisplayName("PS-1: GetTopic reports the schema id and can_subscribe; unknown topic NOT_FOUND")
  void getTopic() throws Exception {
    start(b -> {});
    TopicInfo t = blocking.getTopic(TopicRequest.newBuilder().setTopicName(LOGIN).build());
    assertThat(t.getTopicName()).isEqualTo(LOGIN);
    assertThat(t.getCanSubscribe()).isTrue();
    assertThat(t.getSchemaId()).isEqualTo(sim.schemaIdOf(LOGIN)).hasSize(22);
    TopicInfo cdc =
        blocking.getTopic(
            TopicRequest.newBuilder().setTopicName(SimPubSub.ACCOUNT_CDC_TOPIC).build());
    assertThat(cdc.getSchemaId()).isEqualTo("i8wgJwwM-AVcDbFkbRl5Nw");
    assertThatThrownBy(
            () -> blocking.getTopic(TopicRequest.newBuilder().setTopicName("/event/Nope").build()))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND));
  }

  @Test
  @DisplayName("PS-4: GetSchema returns the writer schema; unknown id NOT_FOUND")
  void getSchema() throws Exception {
    start(b -> {});
    String id = sim.schemaIdOf(LOGIN);
    SchemaInfo info = blocking.getSchema(SchemaRequest.newBuilder().setSchemaId(id).build());
    assertThat(info.getSchemaId()).isEqualTo(id);
    assertThat(new Schema.Parser().parse(info.getSchemaJson())).isEqualTo(sim.schema(id));
    assertThatThrownBy(
            () -> blocking.getSchema(SchemaRequest.newBuilder().setSchemaId("nope").build()))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND));
  }

  @Test
  @DisplayName("PS-4: one topic can carry events of several schema ids")
  void severalSchemaIds() throws Exception {
    start(b -> {});
    String v2 =
        sim.registerSchema(
            "{\"type\":\"record\",\"name\":\"LoginEventStream\",\"namespace\":\"com.sforce.eventbus\","
                + "\"fields\":[{\"name\":\"CreatedDate\",\"type\":\"long\"}]}");
    PublishedEvent first = sim.publish(LOGIN, 1).get(0);
    sim.setTopicSchema(LOGIN, v2);
    PublishedEvent second = sim.publish(LOGIN, 1).get(0);
    PublishedEvent raw = sim.publish(LOGIN, new byte[] {(byte) 0x80, 0x01}, v2);
    assertThat(second.schemaId()).isEqualTo(v2).isNotEqualTo(first.schemaId());
    assertThat(second.fields()).containsOnlyKeys("CreatedDate");
    assertThat(raw.fields()).containsEntry("CreatedDate", 64L);
    TestStream s = subscribe(LOGIN).first(ReplayPreset.EARLIEST, null, 5);
    assertThat(TestStream.events(s.nextEvents(3)))
        .extracting(e -> e.getEvent().getSchemaId())
        .containsExactly(first.schemaId(), v2, v2);
  }

  // ---------------------------------------------------------------- metadata

  @Test
  @DisplayName("PS-2: the metadata of every call is recorded")
  void metadataRecorded() throws Exception {
    start(b -> {});
    blocking.getTopic(TopicRequest.newBuilder().setTopicName(LOGIN).build());
    subscribe(LOGIN).first(ReplayPreset.LATEST, null, 1);
    TestStream.await(() -> sim.calls().size() == 2);
    List<RecordedCall> calls = sim.calls();
    assertThat(calls).extracting(RecordedCall::method).containsExactly("GetTopic", "Subscribe");
    assertThat(calls.get(1).metadata())
        .containsEntry("accesstoken", TOKEN)
        .containsEntry("tenantid", ORG)
        .containsEntry("instanceurl", URL)
        .containsEntry("x-client-trace-id", "trace-1");
    assertThat(calls.get(1).at()).isEqualTo(NOW);
  }

  String schemaJson(String id) {
    return blocking.getSchema(SchemaRequest.newBuilder().setSchemaId(id).build()).getSchemaJson();
  }
}
