package io.sf2loki.core.overlap;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class OverlapGuardTest {
  @Test
  @DisplayName("SRC-22: categories per input kind, first suffix only, the loginhistory alias")
  void src22_categories() {
    assertThat(OverlapGuard.ofTopic("/event/LoginEventStream")).isEqualTo("login");
    assertThat(OverlapGuard.ofTopic("/event/ApiEventStream")).isEqualTo("api");
    assertThat(OverlapGuard.ofTopic("/data/AccountChangeEvent")).isEqualTo("accountchange");
    assertThat(OverlapGuard.ofObject("LoginEvent")).isEqualTo("login");
    assertThat(OverlapGuard.ofObject("LoginHistory")).isEqualTo("login");
    assertThat(OverlapGuard.ofObject("ApiEvent")).isEqualTo("api");
    assertThat(OverlapGuard.ofObject("Event")).isEqualTo("event"); // nothing would remain
    assertThat(OverlapGuard.ofObject("FooEventStoreEvent")).isEqualTo("fooeventstore");
    assertThat(OverlapGuard.ofElfType("Login")).isEqualTo("login");
    assertThat(OverlapGuard.ofElfType("API")).isEqualTo("api");
    assertThat(OverlapGuard.ofElfType("Lightning Page View")).isEqualTo("lightningpageview");
    assertThat(OverlapGuard.ofElfType("LoginEvent")).isEqualTo("loginevent"); // no stripping
  }

  @Test
  @DisplayName("SRC-23: a category fed by more than one source type is one line per category")
  void src23_violations() {
    assertThat(
            OverlapGuard.violations(
                List.of("/event/LoginEventStream", "/event/ApiEventStream"),
                List.of("LoginHistory"),
                List.of("Login", "URI", "*")))
        .containsExactly(
            "category 'login': pubsub=/event/LoginEventStream, eventlog_objects=LoginHistory,"
                + " eventlogfile=Login");
    assertThat(OverlapGuard.violations(List.of(), List.of("LoginHistory"), List.of("API")))
        .isEmpty();
  }

  @Test
  @DisplayName("SRC-24: categories owned by explicit topics and objects")
  void src24_owned() {
    assertThat(
            OverlapGuard.ownedByStreamsAndObjects(
                List.of("/event/ApiEventStream"), List.of("LoginHistory")))
        .containsExactlyInAnyOrder("api", "login");
  }
}
