package io.sf2loki.salesforce.pubsub;

import static org.assertj.core.api.Assertions.assertThat;

import com.salesforce.eventbus.protobuf.FetchRequest;
import com.salesforce.eventbus.protobuf.FetchResponse;
import com.salesforce.eventbus.protobuf.PubSubGrpc;
import com.salesforce.eventbus.protobuf.SchemaInfo;
import com.salesforce.eventbus.protobuf.SchemaRequest;
import io.grpc.Context;
import io.grpc.Contexts;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerInterceptor;
import io.grpc.Status;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A scriptable in-process Pub/Sub service (test scope): every {@code Subscribe} call becomes a
 * {@link Call} the test drives (await requests, send responses, fail with status + trailers,
 * complete); {@code GetSchema} serves a schema map or a scripted failure. Records all request
 * metadata.
 */
final class FakePubSub extends PubSubGrpc.PubSubImplBase {
  static final Context.Key<Metadata> HEADERS = Context.key("headers");
  static final Metadata.Key<String> ERROR_CODE =
      Metadata.Key.of("error-code", Metadata.ASCII_STRING_MARSHALLER);
  static final long WAIT_MS = 5000;

  final BlockingQueue<Call> calls = new LinkedBlockingQueue<>();
  final List<Call> allCalls = new CopyOnWriteArrayList<>();
  final Map<String, String> schemas = new ConcurrentHashMap<>();
  final List<Metadata> schemaHeaders = new CopyOnWriteArrayList<>();
  volatile Status schemaFailure;

  /** When true, GetSchema never answers (a hanging call); each request counts down below. */
  volatile boolean schemaHangs;

  final java.util.concurrent.Semaphore schemaRequests = new java.util.concurrent.Semaphore(0);

  /** Captures request headers into the context. */
  static ServerInterceptor headerCapture() {
    return new ServerInterceptor() {
      @Override
      public <Q, R> ServerCall.Listener<Q> interceptCall(
          ServerCall<Q, R> call, Metadata headers, ServerCallHandler<Q, R> next) {
        return Contexts.interceptCall(
            Context.current().withValue(HEADERS, headers), call, headers, next);
      }
    };
  }

  /** The next Subscribe call (bounded wait). */
  Call nextCall() throws InterruptedException {
    Call c = calls.poll(WAIT_MS, TimeUnit.MILLISECONDS);
    assertThat(c).as("a Subscribe call").isNotNull();
    return c;
  }

  @Override
  public StreamObserver<FetchRequest> subscribe(StreamObserver<FetchResponse> responses) {
    Call c = new Call((ServerCallStreamObserver<FetchResponse>) responses, HEADERS.get());
    allCalls.add(c);
    calls.add(c);
    return c.inbound;
  }

  @Override
  public void getSchema(SchemaRequest request, StreamObserver<SchemaInfo> responses) {
    schemaHeaders.add(HEADERS.get());
    schemaRequests.release();
    if (schemaHangs) {
      return; // never answers
    }
    Status failure = schemaFailure;
    if (failure != null) {
      responses.onError(failure.asRuntimeException());
      return;
    }
    String json = schemas.get(request.getSchemaId());
    if (json == null) {
      responses.onError(Status.NOT_FOUND.asRuntimeException());
      return;
    }
    responses.onNext(
        SchemaInfo.newBuilder().setSchemaId(request.getSchemaId()).setSchemaJson(json).build());
    responses.onCompleted();
  }

  /** One server-side Subscribe call. */
  static final class Call {
    final Metadata headers;
    final BlockingQueue<FetchRequest> requests = new LinkedBlockingQueue<>();
    final List<FetchRequest> allRequests = new CopyOnWriteArrayList<>();
    final CountDownLatch clientGone = new CountDownLatch(1);
    private final ServerCallStreamObserver<FetchResponse> out;
    final StreamObserver<FetchRequest> inbound =
        new StreamObserver<>() {
          @Override
          public void onNext(FetchRequest value) {
            allRequests.add(value);
            requests.add(value);
          }

          @Override
          public void onError(Throwable t) {
            clientGone.countDown();
          }

          @Override
          public void onCompleted() {
            clientGone.countDown();
          }
        };

    Call(ServerCallStreamObserver<FetchResponse> out, Metadata headers) {
      this.out = out;
      this.headers = headers;
      out.setOnCancelHandler(clientGone::countDown);
    }

    /** The next FetchRequest (bounded wait). */
    FetchRequest nextRequest() throws InterruptedException {
      FetchRequest r = requests.poll(WAIT_MS, TimeUnit.MILLISECONDS);
      assertThat(r).as("a FetchRequest").isNotNull();
      return r;
    }

    /** Sum of num_requested over all requests so far. */
    long granted() {
      return allRequests.stream().mapToLong(FetchRequest::getNumRequested).sum();
    }

    synchronized void send(FetchResponse response) {
      out.onNext(response);
    }

    synchronized void fail(Status status, String errorCode) {
      Metadata trailers = new Metadata();
      if (errorCode != null) {
        trailers.put(ERROR_CODE, errorCode);
      }
      out.onError(status.asRuntimeException(trailers));
    }

    synchronized void complete() {
      out.onCompleted();
    }

    void awaitClientGone() throws InterruptedException {
      assertThat(clientGone.await(WAIT_MS, TimeUnit.MILLISECONDS)).as("client ended call").isTrue();
    }
  }
}
