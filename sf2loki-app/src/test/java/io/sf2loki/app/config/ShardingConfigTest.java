package io.sf2loki.app.config;

import static io.sf2loki.app.config.ConfigTestSupport.MINIMAL;
import static io.sf2loki.app.config.ConfigTestSupport.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code coordinate.per_org} and {@code coordinate.max_orgs_per_replica} (CFG-43, CFG-44). */
class ShardingConfigTest {
  @TempDir Path dir;

  private static final String ORGS =
      """
      orgs:
        - name: eu
          salesforce: {client_id: c, username: u@x.com, private_key: K}
          sources: {pubsub: {topics: ['/event/LoginEventStream']}}
        - name: us
          salesforce: {client_id: c, username: v@x.com, private_key: K}
          sources: {pubsub: {topics: ['/event/LoginEventStream']}}
      sink:
        loki: {url: 'http://loki/loki/api/v1/push'}
      """;

  @Test
  @DisplayName("CFG-43: per_org and max_orgs_per_replica default to false and 0 (unlimited)")
  void cfg43_defaults() {
    CoordinateConfig c = load(dir, ORGS).coordinate();
    assertThat(c.perOrg()).isFalse();
    assertThat(c.maxOrgsPerReplica()).isZero();
  }

  @Test
  @DisplayName("CFG-43, CFG-44: per_org with k8s_lease or file_lease and orgs binds")
  void cfg43_binds() {
    CoordinateConfig k =
        load(dir, ORGS + "coordinate: {type: k8s_lease, per_org: true, max_orgs_per_replica: 3}\n")
            .coordinate();
    assertThat(k.perOrg()).isTrue();
    assertThat(k.maxOrgsPerReplica()).isEqualTo(3);
    CoordinateConfig f =
        load(dir, ORGS + "coordinate: {type: file_lease, per_org: true}\n").coordinate();
    assertThat(f.perOrg()).isTrue();
    assertThat(f.maxOrgsPerReplica()).isZero();
  }

  @Test
  @DisplayName("CFG-43: per_org without a per-org lease type is refused naming the key")
  void cfg43_needsLease() {
    assertThatThrownBy(() -> load(dir, ORGS + "coordinate: {per_org: true}\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("coordinate.per_org: needs coordinate.type file_lease or k8s_lease")
        .hasMessageContaining("got noop");
    assertThatThrownBy(
            () ->
                load(
                    dir,
                    ORGS + "coordinate: {type: s3_lease, per_org: true, s3_lease: {bucket: b}}\n"))
        .hasMessageContaining("got s3_lease");
  }

  @Test
  @DisplayName("CFG-43: per_org with a single-org configuration is refused")
  void cfg43_needsOrgs() {
    assertThatThrownBy(() -> load(dir, MINIMAL + "coordinate: {type: k8s_lease, per_org: true}\n"))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("coordinate.per_org: needs an orgs list");
  }

  @Test
  @DisplayName("CFG-44: max_orgs_per_replica is at least 0 and only applies with per_org")
  void cfg44_bounds() {
    assertThatThrownBy(
            () ->
                load(
                    dir,
                    ORGS
                        + "coordinate: {type: k8s_lease, per_org: true,"
                        + " max_orgs_per_replica: -1}\n"))
        .hasMessageContaining("coordinate.max_orgs_per_replica");
    assertThatThrownBy(
            () -> load(dir, ORGS + "coordinate: {type: k8s_lease, max_orgs_per_replica: 2}\n"))
        .hasMessageContaining(
            "coordinate.max_orgs_per_replica: only applies with coordinate.per_org: true");
  }

  @Test
  @DisplayName(
      "CFG-43: k8s_lease per_org refuses org names that give the same or an invalid Lease name")
  void cfg43_leaseNames() {
    String clash =
        ORGS.replace("name: us", "name: EU") + "coordinate: {type: k8s_lease, per_org: true}\n";
    assertThatThrownBy(() -> load(dir, clash))
        .hasMessageContaining("orgs 'eu' and 'EU' share the Lease name 'sf2loki-leader-eu'");
    String invalid =
        ORGS.replace("name: us", "name: us_") + "coordinate: {type: k8s_lease, per_org: true}\n";
    assertThatThrownBy(() -> load(dir, invalid))
        .hasMessageContaining("'sf2loki-leader-us-', not a valid Kubernetes name");
    load(
        dir,
        ORGS.replace("name: us", "name: us_") + "coordinate: {type: file_lease, per_org: true}\n");
  }
}
