package io.sf2loki.salesforce.pubsub;

import static io.sf2loki.salesforce.pubsub.ReaderHarness.b64;
import static io.sf2loki.salesforce.pubsub.ReaderHarness.event;
import static io.sf2loki.salesforce.pubsub.ReaderHarness.events;
import static io.sf2loki.salesforce.pubsub.ReaderHarness.keepalive;
import static io.sf2loki.salesforce.pubsub.ReaderHarness.loginPayload;
import static io.sf2loki.salesforce.pubsub.ReaderHarness.rid;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.salesforce.eventbus.protobuf.FetchRequest;
import com.salesforce.eventbus.protobuf.ReplayPreset;
import io.grpc.Metadata;
import io.grpc.Status;
import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.LogEntry;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class TopicReaderTest {
  private static final String KEY = "pubsub:" + ReaderHarness.TOPIC;
  private static final String CORRUPTED =
      "sfdc.platform.eventbus.grpc.subscription.fetch.replayid.corrupted";

  private ReaderHarness h;

  private ReaderHarness harness() throws Exception {
    h = new ReaderHarness();
    return h;
  }

  @AfterEach
  void tearDown() throws Exception {
    if (h != null) {
      h.close();
    }
  }

  private static byte[] badPayload() throws Exception {
    return Arrays.copyOf(loginPayload(), 7); // truncated: EOF while decoding
  }

  private static CheckpointToken token(ByteString id) {
    return new CheckpointToken(KEY, b64(id));
  }

  private static void assertNoRequest(FakePubSub.Call call) throws InterruptedException {
    assertThat(call.requests.poll(30, TimeUnit.MILLISECONDS)).isNull();
  }

  @Test
  @DisplayName(
      "PS-2/PS-3/PS-13: first FetchRequest carries topic, CUSTOM + stored id, n; metadata on"
          + " Subscribe and GetSchema")
  void ps2ps3FirstRequestAndMetadata() throws Exception {
    harness().store.values.put(KEY, b64(rid(1)));
    h.start();
    FakePubSub.Call call = h.service.nextCall();
    FetchRequest first = call.nextRequest();
    assertThat(first.getTopicName()).isEqualTo(ReaderHarness.TOPIC);
    assertThat(first.getReplayPreset()).isEqualTo(ReplayPreset.CUSTOM);
    assertThat(first.getReplayId()).isEqualTo(rid(1));
    assertThat(first.getNumRequested()).isEqualTo(100);
    assertMetadata(call.headers);

    call.send(events(99, event(rid(2), loginPayload())));
    LogEntry e = h.bridge.next();
    assertThat(h.service.schemaHeaders).hasSize(1);
    assertMetadata(h.service.schemaHeaders.get(0));
    assertThat(h.service.schemaHeaders.get(0).get(PubSubCallMetadata.TRACE_ID))
        .isNotEqualTo(call.headers.get(PubSubCallMetadata.TRACE_ID));

    // PS-10 / SRC-5 / SRC-9 shaping
    assertThat(e.checkpointOnly()).isFalse();
    assertThat(e.labels())
        .containsExactlyInAnyOrderEntriesOf(
            java.util.Map.of("source", "pubsub", "event_type", "LoginEventStream"));
    assertThat(e.timestamp()).isEqualTo(Instant.ofEpochMilli(1717564999123L));
    assertThat(e.checkpoint()).isEqualTo(token(rid(2)));
    assertThat(e.line()).startsWith("{").contains("\"EventDate\": 1717564999123");
    assertThat(e.structuredMetadata())
        .containsEntry("replay_id", b64(rid(2)))
        .containsEntry("schema_id", ReaderHarness.SCHEMA_ID)
        .containsEntry("event_uuid", "00000000-0000-4000-8000-0000000000a1")
        .containsKey("level");
    assertThat(h.metrics.schemaCacheSize.get(Attributes.empty())).isEqualTo(1.0);
    assertThat(h.metrics.pubsubStreamUp.get(h.topicAttrs)).isEqualTo(1.0);
    assertThat(h.metrics.pubsubPendingCredits.get(h.topicAttrs)).isEqualTo(99.0);
  }

  private static void assertMetadata(Metadata md) {
    assertThat(md.get(PubSubCallMetadata.ACCESS_TOKEN)).isEqualTo("tok-1");
    assertThat(md.get(PubSubCallMetadata.INSTANCE_URL))
        .isEqualTo("https://example.my.salesforce.com");
    assertThat(md.get(PubSubCallMetadata.TENANT_ID)).isEqualTo("00Dxx0000000001EAA");
    assertThat(md.get(PubSubCallMetadata.TRACE_ID)).hasSize(36);
  }

  @Test
  @DisplayName(
      "PS-3: top-up only at pending <= n/2, for n - pending, never more than n outstanding")
  void ps3Credits() throws Exception {
    harness().settings = h.settings.withNumRequested(10);
    h.start();
    FakePubSub.Call call = h.service.nextCall();
    assertThat(call.nextRequest().getNumRequested()).isEqualTo(10);
    byte[] p = loginPayload();

    call.send(events(7, event(rid(1), p), event(rid(2), p), event(rid(3), p)));
    h.bridge.next();
    h.bridge.next();
    h.bridge.next();
    assertNoRequest(call); // pending 7 > 5

    call.send(events(4, event(rid(4), p), event(rid(5), p), event(rid(6), p)));
    for (int i = 0; i < 3; i++) {
      h.bridge.next();
    }
    FetchRequest topUp = call.nextRequest();
    assertThat(topUp.getNumRequested()).isEqualTo(6);
    assertThat(topUp.getTopicName()).isEqualTo(ReaderHarness.TOPIC);
    assertThat(topUp.getReplayId()).isEmpty();
    assertThat(call.granted() - 6).isLessThanOrEqualTo(10); // 16 granted, 6 delivered

    // a stale response (sent before the server saw the top-up) must not trigger another top-up
    call.send(events(1, event(rid(7), p), event(rid(8), p), event(rid(9), p)));
    for (int i = 0; i < 3; i++) {
      h.bridge.next();
    }
    assertNoRequest(call); // 1 pending + 6 in flight = 7 > 5
    assertThat(call.granted() - 9).isLessThanOrEqualTo(10);

    // the server has now seen the top-up: 1 + 6 - 3 = 4 pending
    call.send(events(4, event(rid(10), p), event(rid(11), p), event(rid(12), p)));
    for (int i = 0; i < 3; i++) {
      h.bridge.next();
    }
    FetchRequest second = call.nextRequest();
    assertThat(second.getNumRequested()).isEqualTo(6);
    assertThat(call.granted() - 12).isEqualTo(10);
  }

  @Test
  @DisplayName("PS-3: a top-up without bridge byte room is deferred and written on onByteRoom")
  void ps3DeferredUntilByteRoom() throws Exception {
    harness().settings = h.settings.withNumRequested(10);
    h.start();
    FakePubSub.Call call = h.service.nextCall();
    call.nextRequest();
    h.bridge.room = false;
    call.send(keepalive(rid(1), 2));
    h.bridge.next(); // checkpoint-only entry of the keepalive
    assertNoRequest(call);
    assertThat(h.metrics.pubsubPendingCredits.get(h.topicAttrs)).isEqualTo(2.0);

    h.bridge.regainRoom();
    FetchRequest topUp = call.nextRequest();
    assertThat(topUp.getNumRequested()).isEqualTo(8);
    assertNoRequest(call);
  }

  @Test
  @DisplayName(
      "PS-16, SRC-25: a stop while GetSchema hangs cancels the call; the reader returns without"
          + " waiting for the schema deadline (regression)")
  void ps16StopCancelsAHangingSchemaFetch() throws Exception {
    h = new ReaderHarness(new DiscardedReplayIds(), Duration.ofMinutes(10));
    h.service.schemaHangs = true;
    h.start();
    FakePubSub.Call call = h.service.nextCall();
    call.nextRequest();
    call.send(events(99, event(rid(2), loginPayload())));
    assertThat(h.service.schemaRequests.tryAcquire(5, java.util.concurrent.TimeUnit.SECONDS))
        .isTrue();

    h.stopReader(); // asserts the reader thread returned within the harness wait
    assertThat(h.schemas.cached(ReaderHarness.SCHEMA_ID)).isNull();
  }

  @Test
  @DisplayName(
      "PS-11: a keepalive that reports zero pending credits does not move the position: the"
          + " server may be withholding events behind its latest id (no checkpoint past them)")
  void ps11KeepaliveWithoutCreditsIsNotAPosition() throws Exception {
    harness().store.values.put(KEY, b64(rid(1)));
    h.start();
    FakePubSub.Call call = h.service.nextCall();
    call.nextRequest();

    call.send(keepalive(rid(9), 0)); // no credits left: id may be ahead of undelivered events
    call.send(keepalive(rid(5), 100)); // credits, nothing to send: the id is a position
    LogEntry e = h.bridge.next();
    assertThat(e.checkpoint()).isEqualTo(token(rid(5)));
    assertThat(h.bridge.all).hasSize(1);
  }

  @Test
  @DisplayName(
      "PS-7/PS-11: a changed keepalive id emits a checkpoint-only entry, unchanged nothing")
  void ps7ps11Keepalives() throws Exception {
    harness().store.values.put(KEY, b64(rid(1)));
    h.start();
    FakePubSub.Call call = h.service.nextCall();
    call.nextRequest();

    call.send(keepalive(rid(1), 100)); // unchanged
    call.send(keepalive(rid(5), 100)); // changed
    LogEntry e = h.bridge.next();
    assertThat(e.checkpointOnly()).isTrue();
    assertThat(e.checkpoint()).isEqualTo(token(rid(5)));
    call.send(keepalive(rid(5), 100)); // unchanged again
    call.send(keepalive(rid(6), 100));
    assertThat(h.bridge.next().checkpoint()).isEqualTo(token(rid(6)));
    assertThat(h.bridge.all).hasSize(2);

    // the next call resumes from the keepalive position (PS-11)
    call.fail(Status.UNAVAILABLE, null);
    FetchRequest again = h.service.nextCall().nextRequest();
    assertThat(again.getReplayPreset()).isEqualTo(ReplayPreset.CUSTOM);
    assertThat(again.getReplayId()).isEqualTo(rid(6));
  }

  @Test
  @DisplayName(
      "FEAT-3, OBS-35: a reader reports ok for each response (keepalives included) and, when the"
          + " stream fails, error with the gRPC status code and description under pubsub:<topic>")
  void obs35_reportsStreamResults() throws Exception {
    harness().store.values.put(KEY, b64(rid(1)));
    io.sf2loki.core.status.SourceStatusBoard board =
        new io.sf2loki.core.status.SourceStatusBoard(
            h.time.wall(), io.sf2loki.core.status.Redaction.patternsOnly());
    h.reporter = board;
    h.start();
    FakePubSub.Call call = h.service.nextCall();
    call.nextRequest();
    call.send(keepalive(rid(5), 100));
    h.bridge.next();
    assertThat(board.get(KEY).lastPoll().orElseThrow().kind())
        .isEqualTo(io.sf2loki.core.status.SourceStatusBoard.Kind.OK);

    call.fail(Status.UNAVAILABLE.withDescription("upstream reset\nretry"), null);
    h.service.nextCall().nextRequest(); // reconnected: the failure was reported before
    var st = board.get(KEY);
    assertThat(st.lastPoll().orElseThrow().kind())
        .isEqualTo(io.sf2loki.core.status.SourceStatusBoard.Kind.ERROR);
    assertThat(st.lastPoll().orElseThrow().errorClass()).isEqualTo("UNAVAILABLE");
    assertThat(st.lastError().orElseThrow().message()).isEqualTo("upstream reset retry");
  }

  @Test
  @DisplayName(
      "OBS-34, DOC-3: a failed stream's WARN shows the gRPC description with the reporter's"
          + " configured secret masked")
  void obs34_streamFailureLogMasksSecrets() throws Exception {
    harness().store.values.put(KEY, b64(rid(1)));
    h.reporter =
        new io.sf2loki.core.status.SourceStatusBoard(
            h.time.wall(), new io.sf2loki.core.status.Redaction(List.of("s3cr3t-grpc")));
    try (var logs = io.sf2loki.salesforce.testing.LogRecorder.of(TopicReader.class)) {
      h.start();
      FakePubSub.Call call = h.service.nextCall();
      call.nextRequest();
      call.fail(Status.UNAVAILABLE.withDescription("upstream echo s3cr3t-grpc"), null);
      h.service.nextCall().nextRequest(); // reconnected: the failure was logged before
      assertThat(logs.failures())
          .filteredOn(l -> l.startsWith("pubsub stream failed; reconnecting"))
          .singleElement()
          .satisfies(
              l ->
                  assertThat(l)
                      .contains("description=upstream echo ***")
                      .doesNotContain("s3cr3t-grpc"));
    }
  }

  @Test
  @DisplayName(
      "PS-6/PS-9: an undecodable event reconnects from before it, holds readiness, and is skipped"
          + " on the 5th connection with a checkpoint-only entry")
  void ps6DecodeStallAndSkip() throws Exception {
    harness().store.values.put(KEY, b64(rid(0)));
    h.start();
    byte[] good = loginPayload();
    Attributes decodeAttrs =
        Attributes.of(
            Sf2lokiMetrics.REASON,
            "AvroDecodeException",
            Sf2lokiMetrics.TOPIC,
            ReaderHarness.TOPIC);

    FakePubSub.Call call = h.service.nextCall();
    call.nextRequest();
    call.send(events(98, event(rid(1), good), event(rid(2), badPayload())));
    assertThat(h.bridge.next().checkpoint()).isEqualTo(token(rid(1)));
    call.awaitClientGone();
    assertThat(h.undecodable.degradation())
        .contains("degraded: topic /event/LoginEventStream cannot decode events");

    for (int connection = 2; connection <= 4; connection++) {
      call = h.service.nextCall();
      FetchRequest first = call.nextRequest();
      assertThat(first.getReplayId()).as("connection %d", connection).isEqualTo(rid(1));
      call.send(events(99, event(rid(2), badPayload())));
      call.awaitClientGone();
      assertThat(h.metrics.pubsubStreamUp.get(h.topicAttrs)).isEqualTo(0.0);
    }
    assertThat(h.probe.collect().counter("sf2loki_decode_errors", decodeAttrs)).isEqualTo(4);
    assertThat(h.counter("sf2loki_pubsub_decode_stalls")).isEqualTo(1); // PS-9 at the 3rd
    assertThat(h.undecodable.first()).contains(ReaderHarness.TOPIC);
    assertThat(h.bridge.all).hasSize(1);

    call = h.service.nextCall();
    assertThat(call.nextRequest().getReplayId()).isEqualTo(rid(1));
    call.send(events(98, event(rid(2), badPayload()), event(rid(3), good)));
    LogEntry skipped = h.bridge.next();
    assertThat(skipped.checkpointOnly()).isTrue();
    assertThat(skipped.checkpoint()).isEqualTo(token(rid(2)));
    LogEntry next = h.bridge.next();
    assertThat(next.checkpointOnly()).isFalse();
    assertThat(next.checkpoint()).isEqualTo(token(rid(3)));
    assertThat(h.undecodable.first()).isEmpty();
    assertThat(h.metrics.pubsubStreamUp.get(h.topicAttrs)).isEqualTo(1.0);
    assertThat(h.probe.collect().counter("sf2loki_decode_errors", decodeAttrs)).isEqualTo(5);
    assertThat(h.counter("sf2loki_pubsub_reconnects")).isEqualTo(4);
  }

  @Test
  @DisplayName("PS-6/PS-9: a schema failure reconnects from the last position and is never skipped")
  void ps6SchemaFailureNeverSkipped() throws Exception {
    harness().store.values.put(KEY, b64(rid(0)));
    h.service.schemaFailure = Status.UNAVAILABLE;
    h.start();
    for (int connection = 1; connection <= 6; connection++) {
      FakePubSub.Call call = h.service.nextCall();
      assertThat(call.nextRequest().getReplayId()).isEqualTo(rid(0));
      call.send(events(99, event(rid(1), loginPayload())));
      call.awaitClientGone();
    }
    assertThat(h.bridge.all).isEmpty();
    assertThat(h.counter("sf2loki_pubsub_decode_stalls")).isEqualTo(1);
  }

  @Test
  @DisplayName("PS-8: no response for 300 s counts a stall, cancels the call and reconnects")
  void ps8Watchdog() throws Exception {
    harness().start();
    FakePubSub.Call call = h.service.nextCall();
    call.nextRequest();
    h.time.advance(Duration.ofSeconds(299));
    assertNoRequest(call);
    assertThat(h.counter("sf2loki_pubsub_stream_stalls")).isZero();
    h.time.advance(Duration.ofSeconds(1));
    call.awaitClientGone();
    FakePubSub.Call second = h.service.nextCall();
    second.nextRequest();
    assertThat(h.counter("sf2loki_pubsub_stream_stalls")).isEqualTo(1);
    assertThat(h.counter("sf2loki_pubsub_reconnects")).isEqualTo(1);
  }

  @Test
  @DisplayName("PS-8: the watchdog clock pauses while the reader waits on a full bridge")
  void ps8WatchdogPausesOnBridgeWait() throws Exception {
    harness().bridge.gate = new Semaphore(0);
    h.start();
    FakePubSub.Call call = h.service.nextCall();
    call.nextRequest();
    call.send(events(99, event(rid(1), loginPayload())));
    ReaderHarness.await("reader waits on the bridge", () -> h.bridge.waiting.get() == 1);
    h.time.advance(Duration.ofSeconds(400));
    h.bridge.gate.release(100);
    h.bridge.next();
    call.send(keepalive(rid(2), 99));
    assertThat(h.bridge.next().checkpoint()).isEqualTo(token(rid(2)));
    assertThat(h.counter("sf2loki_pubsub_stream_stalls")).isZero();
    assertThat(h.service.calls).isEmpty();
  }

  @Test
  @DisplayName(
      "PS-14: backoff doubles without deliveries, resets after a delivering call; reconnects and"
          + " stream_up")
  void ps14BackoffAndCounters() throws Exception {
    harness().start();
    for (int i = 0; i < 3; i++) {
      FakePubSub.Call call = h.service.nextCall();
      call.nextRequest();
      assertThat(h.metrics.pubsubStreamUp.get(h.topicAttrs)).isNotEqualTo(1.0);
      call.fail(Status.UNAVAILABLE, "sfdc.platform.eventbus.grpc.service.unavailable");
    }
    FakePubSub.Call call = h.service.nextCall();
    call.nextRequest();
    call.send(keepalive(rid(1), 100));
    h.bridge.next();
    assertThat(h.metrics.pubsubStreamUp.get(h.topicAttrs)).isEqualTo(1.0);
    call.fail(Status.INTERNAL, null);
    call = h.service.nextCall();
    call.nextRequest();
    assertThat(h.metrics.pubsubStreamUp.get(h.topicAttrs)).isEqualTo(0.0);
    call.complete(); // clean end: reset + one base pause
    h.service.nextCall().nextRequest();

    List<Duration> sleeps = h.time.sleeps();
    assertThat(sleeps).hasSize(5);
    long[] bases = {1, 2, 4, 1, 1};
    for (int i = 0; i < bases.length; i++) {
      Duration base = Duration.ofSeconds(bases[i]);
      assertThat(sleeps.get(i)).as("wait %d", i).isBetween(base, base.plus(base.dividedBy(2)));
    }
    assertThat(h.counter("sf2loki_pubsub_reconnects")).isEqualTo(5);
  }

  @Test
  @DisplayName(
      "PS-15: a replay rejection with a non-INVALID_ARGUMENT status falls back exactly once and"
          + " never loops; a later term starts with the fallback preset")
  void ps15FallbackOnce() throws Exception {
    harness().store.values.put(KEY, b64(rid(1)));
    h.start();
    FakePubSub.Call call = h.service.nextCall();
    assertThat(call.nextRequest().getReplayId()).isEqualTo(rid(1));
    call.fail(Status.UNKNOWN, CORRUPTED);

    for (int i = 0; i < 3; i++) {
      call = h.service.nextCall();
      FetchRequest first = call.nextRequest();
      assertThat(first.getReplayPreset()).isEqualTo(ReplayPreset.EARLIEST);
      assertThat(first.getReplayId()).isEmpty();
      call.fail(Status.UNKNOWN, CORRUPTED); // row 2: keep preset, back off
    }
    h.service.nextCall().nextRequest();
    assertThat(h.counter("sf2loki_pubsub_replay_fallbacks")).isEqualTo(1);
    assertThat(h.time.sleeps()).hasSize(3); // the fallback itself resubscribes at once
    assertThat(h.discarded.isDiscarded(ReaderHarness.TOPIC, rid(1))).isTrue();
    h.stopReader();

    // a later term of this process loads the same stored id: starts with the fallback preset
    ReaderHarness next = new ReaderHarness(h.discarded);
    try {
      next.store.values.put(KEY, b64(rid(1)));
      next.start();
      FetchRequest first = next.service.nextCall().nextRequest();
      assertThat(first.getReplayPreset()).isEqualTo(ReplayPreset.EARLIEST);
      assertThat(first.getReplayId()).isEmpty();
    } finally {
      next.close();
    }
  }

  @Test
  @DisplayName("PS-15: INVALID_ARGUMENT without trailer while resuming falls back (LATEST)")
  void ps15InvalidArgumentNoTrailerFallsBack() throws Exception {
    harness().settings = h.settings.withPresets(ReplayPreset.CUSTOM, ReplayPreset.LATEST);
    h.store.values.put(KEY, b64(rid(1)));
    h.start();
    FakePubSub.Call call = h.service.nextCall();
    call.nextRequest();
    call.fail(Status.INVALID_ARGUMENT, null);
    FetchRequest first = h.service.nextCall().nextRequest();
    assertThat(first.getReplayPreset()).isEqualTo(ReplayPreset.LATEST);
    assertThat(h.counter("sf2loki_pubsub_replay_fallbacks")).isEqualTo(1);
  }

  @Test
  @DisplayName("PS-15: INVALID_ARGUMENT with another trailer while resuming keeps the position")
  void ps15InvalidArgumentOtherTrailerKeepsPosition() throws Exception {
    harness().store.values.put(KEY, b64(rid(1)));
    h.start();
    FakePubSub.Call call = h.service.nextCall();
    call.nextRequest();
    call.fail(Status.INVALID_ARGUMENT, "sfdc.platform.eventbus.grpc.something.else");
    FetchRequest first = h.service.nextCall().nextRequest();
    assertThat(first.getReplayPreset()).isEqualTo(ReplayPreset.CUSTOM);
    assertThat(first.getReplayId()).isEqualTo(rid(1));
    assertThat(h.counter("sf2loki_pubsub_replay_fallbacks")).isZero();
    assertThat(h.time.sleeps()).hasSize(1);
  }

  @Test
  @DisplayName(
      "PS-2/PS-15/AUTH-6: UNAUTHENTICATED or an auth.error trailer invalidates the token used and"
          + " resubscribes from the last position with a new token")
  void ps15AuthErrorInvalidatesAndResumes() throws Exception {
    harness().start();
    FakePubSub.Call call = h.service.nextCall();
    assertThat(call.nextRequest().getReplayPreset()).isEqualTo(ReplayPreset.LATEST);
    call.send(events(99, event(rid(4), loginPayload())));
    h.bridge.next();
    call.fail(Status.UNAUTHENTICATED, null);

    call = h.service.nextCall();
    FetchRequest first = call.nextRequest();
    assertThat(first.getReplayPreset()).isEqualTo(ReplayPreset.CUSTOM);
    assertThat(first.getReplayId()).isEqualTo(rid(4));
    assertThat(call.headers.get(PubSubCallMetadata.ACCESS_TOKEN)).isEqualTo("tok-2");
    assertThat(h.credentials.invalidated).extracting(t -> t.value()).containsExactly("tok-1");

    call.fail(Status.PERMISSION_DENIED, "sfdc.platform.eventbus.grpc.service.auth.error");
    call = h.service.nextCall();
    assertThat(call.nextRequest().getReplayId()).isEqualTo(rid(4));
    assertThat(call.headers.get(PubSubCallMetadata.ACCESS_TOKEN)).isEqualTo("tok-3");
    assertThat(h.counter("sf2loki_pubsub_replay_fallbacks")).isZero();
  }

  @Test
  @DisplayName("PS-16/SRC-2: stop ends the call and the reader returns promptly")
  void ps16StopEndsCall() throws Exception {
    harness().start();
    FakePubSub.Call call = h.service.nextCall();
    call.nextRequest();
    h.stopReader();
    call.awaitClientGone();
    assertThat(h.metrics.pubsubStreamUp.get(h.topicAttrs)).isEqualTo(0.0);
  }

  @Test
  @DisplayName("PS-10/SRC-12: an event without time fields uses the topic's last field time")
  void ps10TimestampFallback() throws Exception {
    // exercised through the shaper directly: payload maps without EventDate/CreatedDate
    harness();
    PubSubEntryShaper shaper =
        new PubSubEntryShaper(
            ReaderHarness.TOPIC,
            new io.sf2loki.core.shape.StructuredMetadataExtractor(List.of()),
            1.0,
            h.metrics,
            h.time.wall());
    LogEntry none = shaper.shape(new java.util.HashMap<>(), rid(1), "s");
    assertThat(none.timestamp()).isEqualTo(ReaderHarness.START); // server now
    java.util.Map<String, Object> timed = new java.util.HashMap<>();
    timed.put("EventDate", 1717564999123L);
    shaper.shape(timed, rid(2), "s");
    LogEntry after = shaper.shape(new java.util.HashMap<>(), rid(3), "s");
    assertThat(after.timestamp()).isEqualTo(Instant.ofEpochMilli(1717564999123L));
    assertThat(
            h.probe
                .collect()
                .counter(
                    "sf2loki_timestamp_fallbacks", Attributes.of(Sf2lokiMetrics.SOURCE, "pubsub")))
        .isEqualTo(2);
  }

  @Test
  @DisplayName("PS-11/XF-9: a sampled-out event advances the position as a checkpoint-only entry")
  void ps11SampledOut() throws Exception {
    harness().settings = h.settings.withSampleRates(t -> 0.0);
    h.start();
    FakePubSub.Call call = h.service.nextCall();
    call.nextRequest();
    call.send(events(99, event(rid(1), loginPayload())));
    LogEntry e = h.bridge.next();
    assertThat(e.checkpointOnly()).isTrue();
    assertThat(e.checkpoint()).isEqualTo(token(rid(1)));
    assertThat(
            h.probe
                .collect()
                .counter(
                    "sf2loki_entries_sampled_out",
                    Attributes.of(
                        Sf2lokiMetrics.SOURCE,
                        "pubsub",
                        Sf2lokiMetrics.EVENT_TYPE,
                        "LoginEventStream")))
        .isEqualTo(1);
  }
}
