package io.sf2loki.sim.pubsub;

import com.google.protobuf.ByteString;
import com.salesforce.eventbus.protobuf.ConsumerEvent;
import com.salesforce.eventbus.protobuf.FetchRequest;
import com.salesforce.eventbus.protobuf.FetchResponse;
import com.salesforce.eventbus.protobuf.PubSubGrpc;
import com.salesforce.eventbus.protobuf.ReplayPreset;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** A test-side Subscribe call: collects responses and the terminal status. */
final class TestStream implements StreamObserver<FetchResponse> {
  final LinkedBlockingQueue<FetchResponse> responses = new LinkedBlockingQueue<>();
  final CompletableFuture<Status> end = new CompletableFuture<>();
  volatile Metadata trailers;
  private final StreamObserver<FetchRequest> requests;
  private final String topic;

  TestStream(PubSubGrpc.PubSubStub stub, String topic) {
    this.topic = topic;
    this.requests = stub.subscribe(this);
  }

  TestStream first(ReplayPreset preset, byte[] replayId, int n) {
    FetchRequest.Builder b =
        FetchRequest.newBuilder().setTopicName(topic).setReplayPreset(preset).setNumRequested(n);
    if (replayId != null) {
      b.setReplayId(ByteString.copyFrom(replayId));
    }
    requests.onNext(b.build());
    return this;
  }

  void request(int n) {
    requests.onNext(FetchRequest.newBuilder().setTopicName(topic).setNumRequested(n).build());
  }

  void cancel() {
    requests.onError(Status.CANCELLED.asRuntimeException());
  }

  /** The next response (waits at most 10 s). */
  FetchResponse next() throws InterruptedException {
    FetchResponse r = responses.poll(10, TimeUnit.SECONDS);
    if (r == null) {
      throw new AssertionError("no response within 10 s; end=" + end.getNow(null));
    }
    return r;
  }

  /** Responses until {@code count} events arrived (waits at most 10 s per response). */
  List<FetchResponse> nextEvents(int count) throws InterruptedException {
    List<FetchResponse> out = new ArrayList<>();
    int seen = 0;
    while (seen < count) {
      FetchResponse r = next();
      out.add(r);
      seen += r.getEventsCount();
    }
    return out;
  }

  /** Waits (at most 10 s, polling every ms) until the server reached {@code condition}. */
  static void await(java.util.function.BooleanSupplier condition) {
    org.awaitility.Awaitility.await()
        .atMost(java.time.Duration.ofSeconds(10))
        .pollInterval(java.time.Duration.ofMillis(1))
        .until(condition::getAsBoolean);
  }

  static List<ConsumerEvent> events(List<FetchResponse> rs) {
    List<ConsumerEvent> out = new ArrayList<>();
    rs.forEach(r -> out.addAll(r.getEventsList()));
    return out;
  }

  /** The terminal status (waits at most 10 s). */
  Status awaitEnd() throws Exception {
    return end.get(10, TimeUnit.SECONDS);
  }

  String errorCode() {
    return trailers == null ? null : trailers.get(SimPubSub.ERROR_CODE_KEY);
  }

  @Override
  public void onNext(FetchResponse value) {
    responses.add(value);
  }

  @Override
  public void onError(Throwable t) {
    trailers = Status.trailersFromThrowable(t);
    end.complete(t instanceof StatusRuntimeException s ? s.getStatus() : Status.fromThrowable(t));
  }

  @Override
  public void onCompleted() {
    end.complete(Status.OK);
  }
}
