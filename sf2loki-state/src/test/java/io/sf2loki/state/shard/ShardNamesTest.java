package io.sf2loki.state.shard;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ShardNamesTest {
  @Test
  @DisplayName("HA-27, HA-30: org and seat lease names never meet; k8s names are lower-case")
  void ha27_names() {
    assertThat(ShardNames.k8sOrg("sf2loki-leader", "EU_West")).isEqualTo("sf2loki-leader-eu-west");
    assertThat(ShardNames.k8sSeat("sf2loki-leader", 3)).isEqualTo("sf2loki-leader.seat-3");
    assertThat(ShardNames.validK8sName("sf2loki-leader-eu-west")).isTrue();
    assertThat(ShardNames.validK8sName("sf2loki-leader.seat-3")).isTrue();
    assertThat(ShardNames.validK8sName("sf2loki-leader-us-")).isFalse();
    assertThat(ShardNames.validK8sName("x".repeat(254))).isFalse();
    Path p = Path.of("/var/lib/sf2loki/leader.lease");
    assertThat(ShardNames.fileOrg(p, "seat-1"))
        .isEqualTo(Path.of("/var/lib/sf2loki/leader.lease.org-seat-1"));
    assertThat(ShardNames.fileSeat(p, 1))
        .isEqualTo(Path.of("/var/lib/sf2loki/leader.lease.seat-1"));
  }
}
