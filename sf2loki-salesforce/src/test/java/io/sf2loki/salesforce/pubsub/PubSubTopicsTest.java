package io.sf2loki.salesforce.pubsub;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class PubSubTopicsTest {
  private static final Predicate<String> ALL = t -> true;

  @Test
  @DisplayName("PS-19: '*' is dropped and remembered, duplicates removed in first-seen order")
  void resolveDropsWildcardAndDeduplicates() {
    PubSubTopics.Resolved r =
        PubSubTopics.resolve(
            List.of("/event/B__e", "*", "/data/AccountChangeEvent", "/event/B__e"), ALL);

    assertThat(r.discover()).isTrue();
    assertThat(r.explicit()).containsExactly("/event/B__e", "/data/AccountChangeEvent");
  }

  @Test
  @DisplayName("PS-19: the include/exclude filter decides which explicit topics stay")
  void resolveAppliesTheFilter() {
    Predicate<String> filter = t -> t.startsWith("/event/") && !t.contains("Logout");
    PubSubTopics.Resolved r =
        PubSubTopics.resolve(
            List.of("/event/LoginEventStream", "/event/LogoutEventStream", "/data/X__chn"), filter);

    assertThat(r.discover()).isFalse();
    assertThat(r.explicit()).containsExactly("/event/LoginEventStream");
  }

  @Test
  @DisplayName("PS-19: a blank topic entry is rejected")
  void blankTopicRejected() {
    assertThatThrownBy(() -> PubSubTopics.resolve(List.of(" "), ALL))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  @DisplayName("PS-20: discovery keeps sObjects ending in EventStream as /event/<Name>, sorted")
  void discoveredTopicsFromSobjects() {
    assertThat(
            PubSubTopics.discoveredTopics(
                List.of(
                    "UriEventStream",
                    "Account",
                    "LoginEventStream",
                    "LoginEvent",
                    "ApiEventStream")))
        .containsExactly(
            "/event/ApiEventStream", "/event/LoginEventStream", "/event/UriEventStream");
  }

  @Test
  @DisplayName(
      "PS-20: discovered topics pass the filter and are de-duplicated against explicit ones")
  void newDiscoveredFiltersAndDeduplicates() {
    List<String> out =
        PubSubTopics.newDiscovered(
            List.of("/event/ApiEventStream", "/event/LoginEventStream", "/event/UriEventStream"),
            List.of("/event/LoginEventStream"),
            t -> !t.equals("/event/UriEventStream"));

    assertThat(out).containsExactly("/event/ApiEventStream");
  }

  @Test
  @DisplayName("PS-10: event_type is the last path segment of the topic")
  void eventTypeIsLastSegment() {
    assertThat(PubSubTopics.eventType("/event/LoginEventStream")).isEqualTo("LoginEventStream");
    assertThat(PubSubTopics.eventType("/data/AccountChangeEvent")).isEqualTo("AccountChangeEvent");
    assertThat(PubSubTopics.eventType("/event/Order_Shipped__e")).isEqualTo("Order_Shipped__e");
    assertThat(PubSubTopics.eventType("/data/Sales__chn")).isEqualTo("Sales__chn");
    assertThatThrownBy(() -> PubSubTopics.eventType("/"))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  @DisplayName("PS-12: the checkpoint key is pubsub:<topic>")
  void checkpointKey() {
    assertThat(PubSubTopics.checkpointKey("/event/LoginEventStream"))
        .isEqualTo("pubsub:/event/LoginEventStream");
  }
}
