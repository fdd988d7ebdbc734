package io.sf2loki.sim.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.salesforce.eventbus.protobuf.PubSubGrpc;
import com.salesforce.eventbus.protobuf.ReplayPreset;
import com.salesforce.eventbus.protobuf.SchemaRequest;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.stub.MetadataUtils;
import io.sf2loki.core.time.FakeTime;
import io.sf2loki.sim.org.SimOrg;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** PS-2 / AUTH-6: tokens issued by the simulated org, checked per call and mid-stream. */
class SimPubSubAuthTest {
  static final String LOGIN = SimPubSub.LOGIN_TOPIC;
  final FakeTime time = new FakeTime(Instant.parse("2024-06-05T10:00:00Z"));
  final String name = "sim-pubsub-auth-" + UUID.randomUUID();
  SimOrg org;
  SimPubSub sim;
  ManagedChannel channel;

  @BeforeEach
  void start() throws Exception {
    org = SimOrg.builder().clock(time.wall()).tokenTtl(Duration.ofHours(1)).start();
    sim =
        SimPubSub.builder()
            .org(org)
            .loopback(false)
            .inProcess(name)
            .directExecutor()
            .manualKeepalives()
            .clock(time.wall())
            .start();
    channel = InProcessChannelBuilder.forName(name).directExecutor().build();
  }

  @AfterEach
  void stop() throws InterruptedException {
    channel.shutdownNow().awaitTermination(2, TimeUnit.SECONDS);
    sim.close();
    org.close();
  }

  PubSubGrpc.PubSubStub stub(String token, String orgId, String url) {
    return PubSubGrpc.newStub(channel)
        .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(md(token, orgId, url)));
  }

  PubSubGrpc.PubSubBlockingStub blocking(String token, String orgId, String url) {
    return PubSubGrpc.newBlockingStub(channel)
        .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(md(token, orgId, url)));
  }

  static Metadata md(String token, String orgId, String url) {
    Metadata md = new Metadata();
    if (token != null) {
      md.put(Metadata.Key.of("accesstoken", Metadata.ASCII_STRING_MARSHALLER), token);
    }
    md.put(Metadata.Key.of("tenantid", Metadata.ASCII_STRING_MARSHALLER), orgId);
    md.put(Metadata.Key.of("instanceurl", Metadata.ASCII_STRING_MARSHALLER), url);
    return md;
  }

  void assertAuthError(Throwable t) {
    assertThat(t).isInstanceOf(StatusRuntimeException.class);
    StatusRuntimeException e = (StatusRuntimeException) t;
    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
    assertThat(e.getTrailers().get(SimPubSub.ERROR_CODE_KEY)).isEqualTo(SimPubSub.AUTH_ERROR);
  }

  @Test
  @DisplayName("PS-2: a valid org token with instanceurl and tenantid is accepted")
  void validToken() {
    String token = org.issueToken();
    String id = sim.schemaIdOf(LOGIN);
    assertThat(
            blocking(token, org.orgId(), org.instanceUrl())
                .getSchema(SchemaRequest.newBuilder().setSchemaId(id).build())
                .getSchemaId())
        .isEqualTo(id);
  }

  @Test
  @DisplayName("PS-2: missing/unknown token, wrong tenantid or instanceurl → UNAUTHENTICATED")
  void refusedCalls() throws Exception {
    String token = org.issueToken();
    SchemaRequest req = SchemaRequest.newBuilder().setSchemaId(sim.schemaIdOf(LOGIN)).build();
    String[][] bad = {
      {null, org.orgId(), org.instanceUrl()},
      {"00Dxx!unknown", org.orgId(), org.instanceUrl()},
      {token, "00Dxx0000000002EAA", org.instanceUrl()},
      {token, org.orgId(), "http://127.0.0.1:1"},
    };
    for (String[] b : bad) {
      assertThatThrownBy(() -> blocking(b[0], b[1], b[2]).getSchema(req))
          .satisfies(this::assertAuthError);
    }
    TestStream s = new TestStream(stub(null, org.orgId(), org.instanceUrl()), LOGIN);
    s.first(ReplayPreset.LATEST, null, 1);
    assertThat(s.awaitEnd().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
    assertThat(s.errorCode()).isEqualTo(SimPubSub.AUTH_ERROR);
    assertThat(sim.calls()).hasSize(5);
  }

  @Test
  @DisplayName("AUTH-6: revoking the token ends the open stream with UNAUTHENTICATED + auth.error")
  void revokedMidStream() throws Exception {
    String token = org.issueToken();
    String other = org.issueToken();
    sim.publish(LOGIN, 1);
    TestStream s = new TestStream(stub(token, org.orgId(), org.instanceUrl()), LOGIN);
    s.first(ReplayPreset.EARLIEST, null, 5);
    assertThat(s.next().getEventsCount()).isEqualTo(1);
    TestStream o = new TestStream(stub(other, org.orgId(), org.instanceUrl()), LOGIN);
    o.first(ReplayPreset.LATEST, null, 5);
    TestStream.await(() -> sim.openStreams() == 2);

    org.expireToken(token);
    assertThat(s.awaitEnd().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
    assertThat(s.errorCode()).isEqualTo(SimPubSub.AUTH_ERROR);
    assertThat(o.end).isNotDone();
    assertThat(sim.openStreams()).isEqualTo(1);

    org.expireAllTokens();
    assertThat(o.awaitEnd().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
  }

  @Test
  @DisplayName("AUTH-6: a token reaching its TTL ends the stream at the next tick")
  void ttlMidStream() throws Exception {
    String token = org.issueToken();
    TestStream s = new TestStream(stub(token, org.orgId(), org.instanceUrl()), LOGIN);
    s.first(ReplayPreset.LATEST, null, 5);
    TestStream.await(() -> sim.openStreams() == 1);
    time.advance(Duration.ofMinutes(59));
    sim.runKeepalives();
    assertThat(s.end).isNotDone();
    time.advance(Duration.ofMinutes(1));
    sim.runKeepalives();
    assertThat(s.awaitEnd().getCode()).isEqualTo(Status.Code.UNAUTHENTICATED);
    assertThat(s.errorCode()).isEqualTo(SimPubSub.AUTH_ERROR);
  }
}
