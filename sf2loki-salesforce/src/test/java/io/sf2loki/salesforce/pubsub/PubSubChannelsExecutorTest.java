package io.sf2loki.salesforce.pubsub;

import static org.assertj.core.api.Assertions.assertThat;

import com.salesforce.eventbus.protobuf.PubSubGrpc;
import com.salesforce.eventbus.protobuf.SchemaInfo;
import com.salesforce.eventbus.protobuf.SchemaRequest;
import io.grpc.Server;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The Pub/Sub channels run their callbacks on an executor they own (PS-1, PIPE-20). */
class PubSubChannelsExecutorTest {
  private Server server;
  private String target;

  @BeforeEach
  void startServer() throws Exception {
    server =
        NettyServerBuilder.forAddress(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))
            .addService(
                new PubSubGrpc.PubSubImplBase() {
                  @Override
                  public void getSchema(SchemaRequest request, StreamObserver<SchemaInfo> out) {
                    out.onNext(SchemaInfo.newBuilder().setSchemaId(request.getSchemaId()).build());
                    out.onCompleted();
                  }
                })
            .build()
            .start();
    target = "127.0.0.1:" + server.getPort();
  }

  @AfterEach
  void stopServer() throws Exception {
    server.shutdownNow().awaitTermination(2, TimeUnit.SECONDS);
  }

  @Test
  @DisplayName(
      "PS-1, PIPE-20: a call's callbacks run on the channels' own virtual threads"
          + " (sf2loki-grpc-N), and close() shuts that executor down after the channels")
  void ps1_callbacksOnOwnedVirtualThreadsShutDownByClose() throws Exception {
    PubSubChannels channels =
        new PubSubChannels(Map.of("", PubSubChannels.Settings.of(target, false)));
    CompletableFuture<Thread> callbackThread = new CompletableFuture<>();
    PubSubGrpc.newStub(channels.channel(""))
        .withDeadlineAfter(5, TimeUnit.SECONDS)
        .getSchema(
            SchemaRequest.newBuilder().setSchemaId("s1").build(),
            new StreamObserver<>() {
              @Override
              public void onNext(SchemaInfo value) {
                callbackThread.complete(Thread.currentThread());
              }

              @Override
              public void onError(Throwable t) {
                callbackThread.completeExceptionally(t);
              }

              @Override
              public void onCompleted() {}
            });
    Thread t = callbackThread.get(5, TimeUnit.SECONDS);
    assertThat(t.isVirtual()).isTrue();
    assertThat(t.getName()).startsWith("sf2loki-grpc-");
    assertThat(channels.executorTerminated()).isFalse();

    channels.close();
    assertThat(channels.executorTerminated()).isTrue();
  }
}
