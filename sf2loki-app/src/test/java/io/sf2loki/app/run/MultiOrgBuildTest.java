package io.sf2loki.app.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import io.sf2loki.app.config.ConfigLoader;
import io.sf2loki.app.config.Sf2lokiConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Build-time rules of multi-org mode (SPEC ORG-1, FEAT-6, CLI-4). */
class MultiOrgBuildTest {
  @TempDir Path dir;

  private Sf2lokiConfig load(String bLoki) throws Exception {
    String yaml =
        """
        orgs:
          - name: a
            salesforce: {client_id: ca, username: u@x.com, private_key: K}
            sources: {pubsub: {topics: [/event/LoginEventStream]}}
          - name: b
            salesforce: {client_id: cb, username: u@x.com, private_key: K}
            sources: {pubsub: {topics: [/event/LoginEventStream]}}
        %s
        sink:
          loki:
            url: http://loki:3100/loki/api/v1/push
            tenant_id: shared
        """
            .formatted(bLoki);
    Path file = dir.resolve("c.yaml");
    Files.writeString(file, yaml);
    return new ConfigLoader().load(file, Map.of());
  }

  @Test
  @DisplayName("ORG-1: orgs: is no longer refused at build time")
  void org1_multiOrgBuilds() throws Exception {
    assertThatCode(() -> BuildSupport.check(load(""))).doesNotThrowAnyException();
    // an override equal to sink.loki changes nothing and is accepted
    assertThatCode(() -> BuildSupport.check(load("    loki: {tenant_id: shared}")))
        .doesNotThrowAnyException();
  }

  @Test
  @DisplayName(
      "FEAT-6: an orgs[].loki tenant that differs from sink.loki builds; equal ones do not override")
  void feat6_differingTenantBuilds() throws Exception {
    Sf2lokiConfig cfg = load("    loki: {tenant_id: team-b}");
    assertThatCode(() -> BuildSupport.check(cfg)).doesNotThrowAnyException();
    var base = cfg.loki().push();
    assertThat(TenantSplitSink.overrides(cfg.orgs().get(0), base)).isFalse();
    assertThat(TenantSplitSink.overrides(cfg.orgs().get(1), base)).isTrue();
    Sf2lokiConfig same = load("    loki: {tenant_id: shared}");
    assertThat(TenantSplitSink.overrides(same.orgs().get(1), same.loki().push())).isFalse();
  }

  @Test
  @DisplayName(
      "ORG-15: orgs with the same orgs[].loki identity form one group named after the first of"
          + " them; orgs on sink.loki's identity have none")
  void org15_identityGroups() throws Exception {
    String yaml =
        """
        orgs:
          - name: a
            salesforce: {client_id: ca, username: u@x.com, private_key: K}
          - name: b
            salesforce: {client_id: cb, username: u@x.com, private_key: K}
            loki: {tenant_id: t2}
          - name: c
            salesforce: {client_id: cc, username: u@x.com, private_key: K}
            loki: {tenant_id: t2}
          - name: d
            salesforce: {client_id: cd, username: u@x.com, private_key: K}
            loki: {tenant_id: t2, auth_token: other}
          - name: e
            salesforce: {client_id: ce, username: u@x.com, private_key: K}
            loki: {tenant_id: shared}
        sink:
          loki:
            url: http://loki:3100/loki/api/v1/push
            tenant_id: shared
        """;
    Path file = dir.resolve("groups.yaml");
    Files.writeString(file, yaml);
    Sf2lokiConfig cfg = new ConfigLoader().load(file, Map.of());
    assertThat(TenantSplitSink.identityGroups(cfg.orgs(), cfg.loki().push()))
        .containsExactly(Map.entry("b", "b"), Map.entry("c", "b"), Map.entry("d", "d"));
  }

  @Test
  @DisplayName(
      "ORG-6: an AuthException is contained also as the cause of another exception; other"
          + " failures are not")
  void org6_authFailureThroughCauses() {
    var auth =
        new io.sf2loki.salesforce.auth.AuthException(
            "token endpoint HTTP 400", 400, "invalid_grant", null);
    assertThat(TermSources.authFailure(auth)).isTrue();
    assertThat(TermSources.authFailure(new java.util.concurrent.ExecutionException(auth))).isTrue();
    assertThat(TermSources.authFailure(new IllegalStateException("boom"))).isFalse();
  }
}
