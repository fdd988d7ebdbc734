package io.sf2loki.salesforce.pubsub;

import com.google.protobuf.ByteString;
import com.salesforce.eventbus.protobuf.FetchRequest;
import com.salesforce.eventbus.protobuf.FetchResponse;
import com.salesforce.eventbus.protobuf.PubSubGrpc;
import com.salesforce.eventbus.protobuf.ReplayPreset;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.stub.ClientCallStreamObserver;
import io.grpc.stub.ClientResponseObserver;
import io.grpc.stub.MetadataUtils;
import io.sf2loki.core.liveness.ProgressWatch;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.status.PollReporter;
import io.sf2loki.salesforce.auth.AuthException;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One Subscribe call of a topic reader (SPEC PS-2, PS-3, PS-7, PS-8, PS-11, PS-18): fresh PS-2
 * metadata, the first {@code FetchRequest}, then one response at a time from the inbox the gRPC
 * callbacks append to (manual inbound flow control: the next response is requested only after this
 * one's entries are in the bridge), {@link Credits} top-ups, the PS-8 watchdog (paused while the
 * bridge is full) and the PS-11 keepalive position. Events go through the reader's {@link
 * TopicDecoding}. Built per call; runs on the reader thread and returns how the call ended.
 */
final class SubscribeCall {
  private static final Logger log = LoggerFactory.getLogger(TopicReader.class);

  /** How a call ended. */
  enum Kind {
    STOPPED,
    COMPLETED,
    CLOSED,
    STALLED,
    DECODE_FAILED,
    SCHEMA_FAILED,
    NO_CREDENTIALS,
    TRANSPORT
  }

  /**
   * A call's end.
   *
   * @param kind how it ended
   * @param delivered whether any response arrived (the backoff starts over, PS-14)
   * @param status the gRPC status of a {@link Kind#CLOSED} call, else null
   * @param trailers its trailers, else null
   * @param call the call's metadata (token, trace id), or null without credentials
   */
  record End(
      Kind kind, boolean delivered, Status status, Metadata trailers, PubSubCallMetadata call) {}

  private sealed interface Signal {
    record Response(FetchResponse response) implements Signal {}

    record Closed(Status status, Metadata trailers) implements Signal {}

    enum Completed implements Signal {
      INSTANCE
    }

    enum ByteRoom implements Signal {
      INSTANCE
    }

    enum Stop implements Signal {
      INSTANCE
    }
  }

  /** Adapts the async stub to the inbox; never blocks the transport thread. */
  private static final class Observer
      implements ClientResponseObserver<FetchRequest, FetchResponse> {
    private final BlockingQueue<Signal> inbox;
    private volatile ClientCallStreamObserver<FetchRequest> requests;

    Observer(BlockingQueue<Signal> inbox) {
      this.inbox = inbox;
    }

    @Override
    public void beforeStart(ClientCallStreamObserver<FetchRequest> requestStream) {
      this.requests = requestStream;
      requestStream.disableAutoRequestWithInitial(1);
    }

    @Override
    public void onNext(FetchResponse value) {
      inbox.add(new Signal.Response(value));
    }

    @Override
    public void onError(Throwable t) {
      Status s = Status.fromThrowable(t);
      Metadata trailers = Status.trailersFromThrowable(t);
      inbox.add(new Signal.Closed(s, trailers));
    }

    @Override
    public void onCompleted() {
      inbox.add(Signal.Completed.INSTANCE);
    }
  }

  /** Thrown inside a call when the stop signal fired during a bridge wait. */
  private static final class StoppedInside extends Exception {
    private static final long serialVersionUID = 1L;

    StoppedInside() {
      super(null, null, false, false);
    }
  }

  /** The reader's stop hook: wakes the current call's inbox wait. */
  static final class StopHook {
    private final AtomicReference<BlockingQueue<Signal>> current = new AtomicReference<>();

    /** Called on stop. */
    void fire() {
      BlockingQueue<Signal> q = current.get();
      if (q != null) {
        q.add(Signal.Stop.INSTANCE);
      }
    }

    void clear() {
      current.set(null);
    }
  }

  private final ReaderContext ctx;
  private final DiscardedReplayIds discarded;
  private final TopicDecoding decoding;
  private final TopicPosition position;
  private final PollReporter reporter;
  private final StopHook hook;
  private final BlockingQueue<Signal> inbox = new LinkedBlockingQueue<>();
  private final Credits credits;
  private PubSubCallMetadata call;
  private Observer observer;
  private boolean ended;
  private boolean delivered;
  private long idleSince;

  SubscribeCall(
      ReaderContext ctx,
      DiscardedReplayIds discarded,
      TopicDecoding decoding,
      TopicPosition position,
      PollReporter reporter,
      StopHook hook) {
    this.ctx = ctx;
    this.discarded = discarded;
    this.decoding = decoding;
    this.position = position;
    this.reporter = reporter;
    this.hook = hook;
    this.credits = new Credits(ctx.settings().numRequested());
  }

  /** Runs the call to its end. */
  End run() throws InterruptedException {
    try {
      call = PubSubCallMetadata.fresh(ctx.credentials());
    } catch (AuthException e) {
      log.atWarn()
          .addKeyValue("topic", ctx.topic())
          .addKeyValue("status", e.status())
          .addKeyValue("error_code", e.errorCode())
          .log("pubsub cannot authenticate; retrying");
      return end(Kind.NO_CREDENTIALS);
    }
    hook.current.set(inbox);
    if (ctx.stop().isStopped()) {
      return end(Kind.STOPPED);
    }
    Runnable unregister = ctx.bridge().onByteRoom(() -> inbox.add(Signal.ByteRoom.INSTANCE));
    decoding.newCall();
    try {
      return subscribe();
    } catch (StoppedInside e) {
      return end(Kind.STOPPED);
    } finally {
      unregister.run();
      if (!ended && observer != null && observer.requests != null) {
        observer.requests.cancel("sf2loki reader ended the call", null);
      }
      ctx.metrics().pubsubStreamUp.set(0, ctx.topicAttrs());
      ctx.metrics().pubsubPendingCredits.set(0, ctx.topicAttrs());
    }
  }

  private End subscribe() throws InterruptedException, StoppedInside {
    if (!start()) {
      return quietEnd();
    }
    long pollNanos = ctx.settings().inboxPoll().toNanos();
    while (true) {
      Signal s;
      try (ProgressWatch.Waiting w = ProgressWatch.waiting()) { // FEAT-21: the server's turn
        s = inbox.poll(pollNanos, TimeUnit.NANOSECONDS);
      }
      if (ctx.stop().isStopped()) {
        return end(Kind.STOPPED);
      }
      if (s == null || s instanceof Signal.ByteRoom) {
        if (credits.deferred() && ctx.bridge().hasByteRoom()) {
          credits.defer(false);
          if (!topUp()) {
            return quietEnd();
          }
        }
        long idle = ctx.time().ticker().nanoTime() - idleSince;
        if (s == null && idle >= ctx.settings().watchdog().toNanos()) {
          return stalled();
        }
        continue;
      }
      switch (s) {
        case Signal.Stop x -> {
          return end(Kind.STOPPED);
        }
        case Signal.Completed x -> {
          ended = true;
          return end(Kind.COMPLETED);
        }
        case Signal.Closed c -> {
          ended = true;
          return new End(Kind.CLOSED, delivered, c.status(), c.trailers(), call);
        }
        case Signal.Response r -> {
          End failed = onResponse(r.response());
          if (failed != null) {
            return failed;
          }
          observer.requests.request(1);
        }
        default -> throw new IllegalStateException("unexpected signal " + s);
      }
    }
  }

  /** Opens the call and writes the first request (PS-3, PS-12, PS-15); false when refused. */
  private boolean start() {
    ReplayPosition start = position.get();
    if (start.resuming() && discarded.isDiscarded(ctx.topic(), start.replayId())) {
      start = ReplayPosition.of(ctx.settings().onInvalidReplay());
      position.set(start);
    }
    observer = new Observer(inbox);
    PubSubGrpc.newStub(ctx.channel())
        .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(call.headers()))
        .subscribe(observer);
    FetchRequest.Builder first =
        FetchRequest.newBuilder()
            .setTopicName(ctx.topic())
            .setReplayPreset(start.preset())
            .setNumRequested(credits.initial());
    if (start.preset() == ReplayPreset.CUSTOM) {
      first.setReplayId(start.replayId());
    }
    log.atDebug()
        .addKeyValue("topic", ctx.topic())
        .addKeyValue("start", start.toString())
        .addKeyValue("x_client_trace_id", call.traceId())
        .log("pubsub subscribing");
    idleSince = ctx.time().ticker().nanoTime();
    return write(first.build());
  }

  /** Processes one response; a non-null result ends the call. */
  private End onResponse(FetchResponse r) throws InterruptedException, StoppedInside {
    idleSince = ctx.time().ticker().nanoTime();
    delivered = true;
    ctx.metrics().pubsubStreamUp.set(decoding.held() ? 0 : 1, ctx.topicAttrs());
    reporter.ok(PubSubTopics.checkpointKey(ctx.topic()));
    ctx.metrics().pubsubPendingCredits.set(r.getPendingNumRequested(), ctx.topicAttrs());
    ctx.metrics()
        .sourceLastSuccessTimestampSeconds
        .set(ctx.time().now().toEpochMilli() / 1000.0, ctx.progressAttrs());
    credits.onResponse(r.getPendingNumRequested(), r.getEventsCount());
    for (TopicDecoding.Step step : decoding.onEvents(r.getEventsList(), reporter)) {
      End failed = onStep(step);
      if (failed != null) {
        return failed;
      }
    }
    if (r.getEventsCount() == 0 && r.getPendingNumRequested() > 0) {
      // PS-11, guarded: only a keepalive sent while the server still held credits proves there
      // was nothing to deliver; with zero credits outstanding the server may be withholding
      // events, and a "latest" id then could lie ahead of them
      keepalive(r.getLatestReplayId());
    }
    if (credits.due()) {
      if (ctx.bridge().hasByteRoom()) {
        credits.defer(false);
        if (!topUp()) {
          return quietEnd();
        }
      } else {
        credits.defer(true);
      }
    }
    return null;
  }

  /** One event's step (in event order); a non-null result ends the call. */
  private End onStep(TopicDecoding.Step step) throws InterruptedException, StoppedInside {
    switch (step) {
      case TopicDecoding.Emit e -> {
        put(e.entry());
        position.set(ReplayPosition.after(e.replayId()));
        return null;
      }
      case TopicDecoding.Skip k -> {
        put(ctx.shaper().checkpointOnly(k.replayId()));
        position.set(ReplayPosition.after(k.replayId()));
        decoding.release();
        return null;
      }
      case TopicDecoding.EndCall c -> {
        return end(c.kind());
      }
    }
  }

  /** PS-7 / PS-11. */
  private void keepalive(ByteString latest) throws InterruptedException, StoppedInside {
    if (latest.isEmpty() || latest.equals(position.get().replayId())) {
      return;
    }
    put(ctx.shaper().checkpointOnly(latest));
    position.set(ReplayPosition.after(latest));
  }

  /** PS-8. */
  private End stalled() {
    ctx.metrics().pubsubStreamStalls.add(1, ctx.topicAttrs());
    log.atWarn()
        .addKeyValue("topic", ctx.topic())
        .addKeyValue("watchdog", ctx.settings().watchdog())
        .addKeyValue("x_client_trace_id", call.traceId())
        .log("pubsub stream stalled; reconnecting");
    return end(Kind.STALLED);
  }

  /** Writes to the bridge; the watchdog clock pauses while the bridge is full (PS-8). */
  private void put(LogEntry entry) throws InterruptedException, StoppedInside {
    long t0 = ctx.time().ticker().nanoTime();
    boolean ok = ctx.bridge().put(entry, ctx.stop());
    idleSince += ctx.time().ticker().nanoTime() - t0;
    if (!ok) {
      throw new StoppedInside();
    }
  }

  /** PS-3 top-up; false when the call is already half-closed or cancelled. */
  private boolean topUp() {
    int k = credits.topUp();
    if (k == 0) {
      return true;
    }
    FetchRequest more =
        FetchRequest.newBuilder().setTopicName(ctx.topic()).setNumRequested(k).build();
    if (!write(more)) {
      return false;
    }
    credits.sent(k);
    return true;
  }

  private boolean write(FetchRequest request) {
    try {
      observer.requests.onNext(request);
      return true;
    } catch (RuntimeException e) {
      log.atDebug()
          .addKeyValue("topic", ctx.topic())
          .addKeyValue("x_client_trace_id", call.traceId())
          .log("pubsub credit write on a closed call; ending the stream");
      return false;
    }
  }

  private End quietEnd() {
    return end(Kind.COMPLETED);
  }

  private End end(Kind kind) {
    return new End(kind, delivered, null, null, call);
  }
}
