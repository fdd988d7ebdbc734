package io.sf2loki.salesforce.pubsub;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.salesforce.eventbus.protobuf.FetchRequest;
import com.salesforce.eventbus.protobuf.PubSubGrpc;
import com.salesforce.eventbus.protobuf.ReplayPreset;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The Pub/Sub proto is compiled at build time and its gencode runs on the protobuf runtime. */
class PubSubCodegenTest {

  @Test
  @DisplayName(
      "PS-3: a first FetchRequest with topic, CUSTOM preset, replay id and credits round-trips")
  void firstFetchRequestRoundTrips() throws Exception {
    byte[] replayId = {0, 0, 0, 0, 0, 0x17, (byte) 0x90, 0x50, 0, 0};
    FetchRequest request =
        FetchRequest.newBuilder()
            .setTopicName("/event/LoginEventStream")
            .setReplayPreset(ReplayPreset.CUSTOM)
            .setReplayId(ByteString.copyFrom(replayId))
            .setNumRequested(100)
            .build();

    FetchRequest parsed = FetchRequest.parseFrom(request.toByteArray());

    assertThat(parsed.getTopicName()).isEqualTo("/event/LoginEventStream");
    assertThat(parsed.getReplayPreset()).isEqualTo(ReplayPreset.CUSTOM);
    assertThat(parsed.getReplayId().toByteArray()).containsExactly(replayId);
    assertThat(parsed.getNumRequested()).isEqualTo(100);
  }

  @Test
  @DisplayName("PS-1: the PubSub service descriptor carries Subscribe, GetSchema and GetTopic")
  void serviceDescriptorHasTheRpcs() {
    assertThat(PubSubGrpc.SERVICE_NAME).isEqualTo("eventbus.v1.PubSub");
    assertThat(PubSubGrpc.getServiceDescriptor().getMethods())
        .extracting(m -> m.getBareMethodName())
        .contains("Subscribe", "GetSchema", "GetTopic");
  }
}
