package io.sf2loki.app.doctor;

import com.salesforce.eventbus.protobuf.PubSubGrpc;
import com.salesforce.eventbus.protobuf.TopicInfo;
import com.salesforce.eventbus.protobuf.TopicRequest;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.MetadataUtils;
import io.sf2loki.app.config.PubSubConfig;
import io.sf2loki.app.run.Components;
import io.sf2loki.salesforce.auth.AuthException;
import io.sf2loki.salesforce.pubsub.PubSubCallMetadata;
import io.sf2loki.salesforce.pubsub.PubSubChannels;
import io.sf2loki.salesforce.pubsub.PubSubCredentials;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * DOC-2 row 4 *(c)*: one {@code GetTopic} (Pub/Sub API) per explicit topic that survives the
 * filters, with the PS-2 call metadata, on a channel built with the daemon's PS-1 settings.
 */
final class PubSubCheck {
  /**
   * Deadline of each {@code GetTopic} call (SRC-25's unary deadline is 30 s; doctor is quicker).
   */
  static final Duration DEADLINE = Duration.ofSeconds(15);

  private PubSubCheck() {}

  static List<Check> run(PubSubConfig ps, Components.Org clients) throws InterruptedException {
    if (!ps.enabled() || ps.topics().isEmpty()) {
      return List.of(Check.skip("pubsub", "pubsub is disabled or has no topics"));
    }
    List<String> explicit = ps.explicitTopics();
    if (ps.topics().equals(List.of("*"))) {
      return List.of(
          Check.warn(
              "pubsub",
              "topics is [\"*\"]: topics are discovered at run time, none can be checked now"));
    }
    if (explicit.isEmpty()) {
      return List.of(
          Check.warn("pubsub", "no configured topic survives include/exclude; nothing to read"));
    }
    List<Check> rows = new ArrayList<>();
    PubSubCredentials creds = PubSubCredentials.of(clients.tokens(), clients.orgIds());
    var channel = PubSubChannels.build(ps.channel());
    try {
      for (String topic : explicit) {
        rows.add(topic(channel, creds, topic));
      }
    } finally {
      channel.shutdownNow();
      channel.awaitTermination(5, TimeUnit.SECONDS);
    }
    return rows;
  }

  private static Check topic(io.grpc.Channel channel, PubSubCredentials creds, String topic)
      throws InterruptedException {
    String name = "pubsub:" + topic;
    try {
      PubSubCallMetadata md = PubSubCallMetadata.fresh(creds);
      TopicInfo info =
          PubSubGrpc.newBlockingStub(channel)
              .withInterceptors(MetadataUtils.newAttachHeadersInterceptor(md.headers()))
              .withDeadlineAfter(DEADLINE.toNanos(), TimeUnit.NANOSECONDS)
              .getTopic(TopicRequest.newBuilder().setTopicName(topic).build());
      if (!info.getCanSubscribe()) {
        return Check.fail(
            name,
            "cannot subscribe — hint: the user needs the permission for this channel (e.g. View"
                + " Real-Time Event Monitoring Data)");
      }
      return Check.pass(name, "topic reachable");
    } catch (StatusRuntimeException e) {
      String d = e.getStatus().getDescription();
      return Check.fail(name, e.getStatus().getCode() + ": " + (d == null ? "" : d));
    } catch (AuthException e) {
      return Check.fail(name, "no token: " + e.getMessage());
    }
  }
}
