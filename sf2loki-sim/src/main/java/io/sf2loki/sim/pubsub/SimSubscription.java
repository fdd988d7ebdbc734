package io.sf2loki.sim.pubsub;

import com.google.protobuf.ByteString;
import com.salesforce.eventbus.protobuf.ConsumerEvent;
import com.salesforce.eventbus.protobuf.FetchRequest;
import com.salesforce.eventbus.protobuf.FetchResponse;
import com.salesforce.eventbus.protobuf.ProducerEvent;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@code Subscribe} call of a {@link SimPubSub}: start position (replay preset or CUSTOM id,
 * PS-12/15 trailers), exact flow control (PS-3), keepalives (PS-7), token expiry (PS-2) and the
 * queued stream-end faults. All stream writes happen under this object's lock.
 */
final class SimSubscription implements StreamObserver<FetchRequest> {
  private static final Logger log = LoggerFactory.getLogger(SimPubSub.class);

  private final StreamContext ctx;
  private final ServerCallStreamObserver<FetchResponse> out;
  private final String token;
  volatile SimTopic topic;
  private long nextSeq;
  private long credits;
  private int dropRemaining = -1;
  private Status.Code dropCode;
  private Instant lastSent;
  private boolean done;

  SimSubscription(StreamContext ctx, ServerCallStreamObserver<FetchResponse> out, String token) {
    this.ctx = ctx;
    this.out = out;
    this.token = token;
  }

  @Override
  public synchronized void onNext(FetchRequest req) {
    if (done) {
      return;
    }
    if (!ctx.tokenValidator().test(token)) {
      fail(Status.Code.UNAUTHENTICATED, SimPubSub.AUTH_ERROR, "access token expired");
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
    SimTopic t = ctx.registry().topic(req.getTopicName());
    if (t == null) {
      fail(Status.Code.NOT_FOUND, null, "topic not found");
      return false;
    }
    t.countSubscribe();
    Optional<PubSubFaults.SubscribeFailure> f = ctx.faults().takeFailure(t.name);
    if (f.isPresent()) {
      fail(f.get().code(), f.get().errorCode(), "simulated subscribe failure");
      return false;
    }
    t.evict(ctx.clock().instant(), ctx.retention());
    switch (req.getReplayPreset()) {
      case EARLIEST -> nextSeq = t.firstSeq();
      case CUSTOM -> {
        Optional<ReplayIds.Parsed> p = ReplayIds.parse(req.getReplayId().toByteArray());
        if (p.isEmpty()) {
          fail(ctx.invalidReplayStatus(), SimPubSub.REPLAY_CORRUPTED, "replay id is corrupted");
          return false;
        }
        if (p.get().prefix() != t.prefix || !t.resumable(p.get().seq())) {
          fail(
              ctx.invalidReplayStatus(),
              SimPubSub.REPLAY_VALIDATION_FAILED,
              "replay id validation failed");
          return false;
        }
        nextSeq = p.get().seq() + 1;
      }
      default -> nextSeq = t.lastSeq() + 1; // LATEST (also unknown values)
    }
    PubSubFaults.StreamEnd end = ctx.faults().takeDrop(t.name);
    if (end != null) {
      dropRemaining = end.events();
      dropCode = end.code();
    }
    lastSent = ctx.clock().instant();
    topic = t;
    ctx.streams().add(this);
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
    if (done || t == null || ctx.faults().isSilent(t.name)) {
      return;
    }
    if (!ctx.tokenValidator().test(token)) {
      fail(Status.Code.UNAUTHENTICATED, SimPubSub.AUTH_ERROR, "access token expired");
      return;
    }
    t.evict(ctx.clock().instant(), ctx.retention());
    while (credits > 0) {
      int max = (int) Math.min(credits, SimPubSub.MAX_EVENTS_PER_RESPONSE);
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
          .setRpcId(PubSubService.rpcId())
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
    if (done || t == null || ctx.faults().isSilent(t.name)) {
      return;
    }
    if (Duration.between(lastSent, now).compareTo(ctx.keepaliveInterval()) >= 0) {
      FetchResponse k =
          FetchResponse.newBuilder()
              .setLatestReplayId(ByteString.copyFrom(ReplayIds.encode(t.prefix, nextSeq - 1)))
              .setRpcId(PubSubService.rpcId())
              .setPendingNumRequested((int) credits)
              .build();
      if (send(k)) {
        t.countKeepalive();
      }
    }
  }

  synchronized void checkToken() {
    if (!done && !ctx.tokenValidator().test(token)) {
      fail(Status.Code.UNAUTHENTICATED, SimPubSub.AUTH_ERROR, "access token expired");
    }
  }

  private boolean send(FetchResponse r) {
    try {
      out.onNext(r);
      lastSent = ctx.clock().instant();
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
              .asRuntimeException(PubSubAuth.trailer(errorCode)));
    } catch (RuntimeException e) {
      log.atDebug().addKeyValue("error", e.toString()).log("sim pubsub stream already closed");
    }
  }

  private void finish() {
    done = true;
    ctx.streams().remove(this);
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
