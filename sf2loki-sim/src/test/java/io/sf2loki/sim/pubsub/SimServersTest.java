package io.sf2loki.sim.pubsub;

import static org.assertj.core.api.Assertions.assertThat;

import com.salesforce.eventbus.protobuf.ConsumerEvent;
import com.salesforce.eventbus.protobuf.FetchResponse;
import com.salesforce.eventbus.protobuf.PubSubGrpc;
import com.salesforce.eventbus.protobuf.ReplayPreset;
import com.salesforce.eventbus.protobuf.SchemaRequest;
import io.grpc.Grpc;
import io.grpc.InsecureChannelCredentials;
import io.grpc.ManagedChannel;
import io.grpc.stub.MetadataUtils;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.avro.Schema;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Org + Pub/Sub + Loki together, Pub/Sub over a real plaintext loopback channel. */
class SimServersTest {

  @Test
  @DisplayName("PS-1: a plaintext loopback client subscribes with an org token and decodes events")
  void loopbackSubscribe() throws Exception {
    try (SimServers servers = SimServers.start(SimServers.Ports.ephemeral())) {
      SimPubSub sim = servers.pubsub();
      assertThat(servers.loki().port()).isPositive();
      String token = servers.org().issueToken();
      ManagedChannel ch =
          Grpc.newChannelBuilderForAddress(
                  "127.0.0.1", sim.port(), InsecureChannelCredentials.create())
              .build();
      try {
        PubSubGrpc.PubSubStub stub =
            PubSubGrpc.newStub(ch)
                .withInterceptors(
                    MetadataUtils.newAttachHeadersInterceptor(
                        SimPubSubAuthTest.md(
                            token, servers.org().orgId(), servers.org().instanceUrl())));
        List<PublishedEvent> published = sim.publish(SimPubSub.ACCOUNT_CDC_TOPIC, 3);
        TestStream s = new TestStream(stub, SimPubSub.ACCOUNT_CDC_TOPIC);
        s.first(ReplayPreset.EARLIEST, null, 2);
        List<FetchResponse> rs = s.nextEvents(2);
        List<ConsumerEvent> events = TestStream.events(rs);
        assertThat(events).hasSize(2);
        assertThat(rs.get(rs.size() - 1).getPendingNumRequested()).isZero();

        String json =
            PubSubGrpc.newBlockingStub(ch)
                .withInterceptors(
                    MetadataUtils.newAttachHeadersInterceptor(
                        SimPubSubAuthTest.md(
                            token, servers.org().orgId(), servers.org().instanceUrl())))
                .getSchema(
                    SchemaRequest.newBuilder()
                        .setSchemaId(events.get(0).getEvent().getSchemaId())
                        .build())
                .getSchemaJson();
        Schema writer = new Schema.Parser().parse(json);
        for (int i = 0; i < 2; i++) {
          assertThat(events.get(i).getReplayId().toByteArray())
              .isEqualTo(published.get(i).replayId());
          assertThat(
                  AvroDecoding.decode(writer, events.get(i).getEvent().getPayload().toByteArray())
                      .get("ChangeEventHeader"))
              .isNotNull();
        }

        servers.generateEvery(Duration.ofMillis(5), 1);
        s.request(1);
        assertThat(s.nextEvents(1)).isNotEmpty();
        assertThat(sim.stats(SimPubSub.ACCOUNT_CDC_TOPIC).maxOutstanding()).isEqualTo(2);
      } finally {
        ch.shutdownNow().awaitTermination(2, TimeUnit.SECONDS);
      }
    }
  }
}
