package io.sf2loki.salesforce.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.salesforce.eventbus.protobuf.PubSubGrpc;
import com.salesforce.eventbus.protobuf.SchemaInfo;
import com.salesforce.eventbus.protobuf.SchemaRequest;
import io.grpc.ManagedChannel;
import io.grpc.Server;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.netty.shaded.io.grpc.netty.NettyServerBuilder;
import io.grpc.stub.StreamObserver;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** PS-1 channel settings against a plaintext gRPC server on the loopback interface. */
class PubSubChannelsTest {
  /** 5 MiB: above gRPC's default 4 MiB inbound limit, below PS-1's 128 MiB. */
  private static final int BIG_SCHEMA_CHARS = 5 * 1024 * 1024;

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
                    String json =
                        request.getSchemaId().equals("big")
                            ? "x".repeat(BIG_SCHEMA_CHARS)
                            : "{\"type\":\"record\"}";
                    out.onNext(
                        SchemaInfo.newBuilder()
                            .setSchemaId(request.getSchemaId())
                            .setSchemaJson(json)
                            .build());
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

  // The deadline only guards against a hang: under CPU load a 1 MiB+ response can take over 2 s,
  // and a
  // DEADLINE_EXCEEDED would then mask the RESOURCE_EXHAUSTED the inbound-limit test asserts.
  private static SchemaInfo getSchema(ManagedChannel ch, String id) {
    return PubSubGrpc.newBlockingStub(ch)
        .withDeadlineAfter(30, TimeUnit.SECONDS)
        .getSchema(SchemaRequest.newBuilder().setSchemaId(id).build());
  }

  @Test
  @DisplayName("PS-1: SPEC channel defaults (TLS, keepalive 30 s / 10 s, 128 MiB inbound)")
  void ps1_defaults() {
    PubSubChannels.Settings s = PubSubChannels.Settings.defaults();
    assertThat(s.endpoint()).isEqualTo("api.pubsub.salesforce.com:7443");
    assertThat(s.tls()).isTrue();
    assertThat(s.keepAliveTime()).isEqualTo(Duration.ofSeconds(30));
    assertThat(s.keepAliveTimeout()).isEqualTo(Duration.ofSeconds(10));
    assertThat(s.maxInboundMessageBytes()).isEqualTo(128 * 1024 * 1024);
    assertThat(PubSubChannels.Settings.of("h:1", false).tls()).isFalse();
    assertThatThrownBy(() -> PubSubChannels.Settings.of(" ", true))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  @DisplayName(
      "PS-1: one channel per org, built on first use and reused; a plaintext channel reaches the"
          + " server and accepts responses above 4 MiB")
  void ps1_plaintextChannelWorksAndIsReused() {
    try (PubSubChannels channels =
        new PubSubChannels(Map.of("", PubSubChannels.Settings.of(target, false)))) {
      assertThat(channels.isBuilt("")).isFalse();
      ManagedChannel ch = channels.channel("");
      assertThat(channels.isBuilt("")).isTrue();
      assertThat(channels.channel("")).isSameAs(ch);
      assertThat(channels.forOrg("").get()).isSameAs(ch);

      assertThat(getSchema(ch, "s1").getSchemaJson()).isEqualTo("{\"type\":\"record\"}");
      assertThat(getSchema(ch, "big").getSchemaJson()).hasSize(BIG_SCHEMA_CHARS);
    }
  }

  @Test
  @DisplayName("PS-1: the inbound limit is a setting (a 1 MiB limit rejects the 5 MiB response)")
  void ps1_inboundLimitApplies() {
    PubSubChannels.Settings small =
        new PubSubChannels.Settings(
            target,
            false,
            Duration.ofSeconds(30),
            Duration.ofSeconds(10),
            1024 * 1024,
            Duration.ofSeconds(1));
    ManagedChannel ch = PubSubChannels.build(small);
    try {
      assertThatThrownBy(() -> getSchema(ch, "big"))
          .isInstanceOfSatisfying(
              StatusRuntimeException.class,
              e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED));
    } finally {
      ch.shutdownNow();
    }
  }

  @Test
  @DisplayName("PS-1: TLS is the default: a TLS channel cannot talk to a plaintext server")
  void ps1_tlsByDefault() {
    try (PubSubChannels channels =
        new PubSubChannels(Map.of("org1", PubSubChannels.Settings.of(target, true)))) {
      assertThatThrownBy(() -> getSchema(channels.channel("org1"), "s1"))
          .isInstanceOfSatisfying(
              StatusRuntimeException.class,
              e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAVAILABLE));
    }
  }

  @Test
  @DisplayName("PS-1: close shuts every built channel down; later use fails; unknown org fails")
  void ps1_closeShutsDown() {
    PubSubChannels channels =
        new PubSubChannels(Map.of("a", PubSubChannels.Settings.of(target, false)));
    assertThatThrownBy(() -> channels.channel("b")).isInstanceOf(IllegalArgumentException.class);
    ManagedChannel ch = channels.channel("a");
    getSchema(ch, "s1");
    channels.close();
    assertThat(ch.isShutdown()).isTrue();
    assertThat(ch.isTerminated()).isTrue();
    assertThat(channels.isBuilt("a")).isFalse();
    assertThatThrownBy(() -> channels.channel("a")).isInstanceOf(IllegalStateException.class);
    channels.close(); // idempotent
  }
}
