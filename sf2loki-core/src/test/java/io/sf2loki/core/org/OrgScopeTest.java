package io.sf2loki.core.org;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Optional;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class OrgScopeTest {
  @Test
  @DisplayName("ORG-4: keys are prefixed org=<name>:; ORG-3 identity labels")
  void org4_prefixAndLabels() {
    OrgScope org = new OrgScope("prod-1", "production", true);
    assertThat(org.keyPrefix()).isEqualTo("org=prod-1:");
    assertThat(org.prefixed("pubsub:/event/LoginEventStream"))
        .isEqualTo("org=prod-1:pubsub:/event/LoginEventStream");
    assertThat(org.labels("00D000000000001AAA"))
        .containsOnly(
            java.util.Map.entry("org", "prod-1"),
            java.util.Map.entry("environment", "production"),
            java.util.Map.entry("sf_org_id", "00D000000000001AAA"));
  }

  @Test
  @DisplayName("CFG-10: an org name outside ^[A-Za-z0-9_-]+$ cannot form a key prefix")
  void cfg10_badNameRefused() {
    assertThatThrownBy(() -> new OrgScope("a:b", "production", false))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new OrgScope("", "production", false))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  @DisplayName("PIPE-10: a stored key splits into org and unprefixed key; others stay whole")
  void pipe10_split() {
    assertThat(OrgScope.split("org=eu:eventlogfile:Login"))
        .isEqualTo(new OrgScope.Split(Optional.of("eu"), "eventlogfile:Login"));
    assertThat(OrgScope.split("egress:budget"))
        .isEqualTo(new OrgScope.Split(Optional.empty(), "egress:budget"));
    assertThat(OrgScope.split("org=:x")).isEqualTo(new OrgScope.Split(Optional.empty(), "org=:x"));
    assertThat(OrgScope.split("apexlog"))
        .isEqualTo(new OrgScope.Split(Optional.empty(), "apexlog"));
  }
}
