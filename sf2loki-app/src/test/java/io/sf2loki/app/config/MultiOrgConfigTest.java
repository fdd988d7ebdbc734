package io.sf2loki.app.config;

import static io.sf2loki.app.config.ConfigTestSupport.load;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.app.testing.RepoRoot;
import io.sf2loki.loki.LokiSinkSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Multi-org configuration (SPEC CFG-11, CFG-12, CFG-42, FEAT-6, ORG-1). */
class MultiOrgConfigTest {
  @TempDir Path dir;

  private static final String TWO_ORGS =
      """
      orgs:
        - name: a
          salesforce: {client_id: ca, username: u@x.com, private_key: K}
          sources: {pubsub: {topics: [/event/LoginEventStream]}}
        - name: b
          salesforce: {client_id: cb, username: u@x.com, private_key: K}
          sources: {pubsub: {topics: [/event/LoginEventStream]}}
          loki:
            tenant_id: team-b
            auth_token: ${B_TOKEN}
      sink:
        loki:
          url: http://loki:3100/loki/api/v1/push
          tenant_id: shared
          auth_token: deployment-token
      """;

  /** Every fenced yaml block of docs/SPEC.md that configures {@code orgs:}. */
  static List<String> specOrgExamples() throws IOException {
    String spec = Files.readString(RepoRoot.find().resolve("docs/SPEC.md"));
    Matcher m = Pattern.compile("(?s)```yaml\\n(.*?)```").matcher(spec);
    List<String> out = new ArrayList<>();
    while (m.find()) {
      if (Pattern.compile("(?m)^orgs:").matcher(m.group(1)).find()) {
        out.add(m.group(1));
      }
    }
    return out;
  }

  @Test
  @DisplayName("CFG-11, CFG-42: every 1.x orgs: example in the SPEC loads unchanged")
  void cfg11_specExamplesLoad() throws IOException {
    List<String> examples = specOrgExamples();
    assertThat(examples).isNotEmpty();
    Map<String, String> env =
        Map.of(
            "SF_PROD_CLIENT_ID", "prod-client",
            "SF_PROD_PRIVATE_KEY", "PEM",
            "SF_UAT_CLIENT_ID", "uat-client",
            "SF_UAT_CLIENT_SECRET", "uat-secret");
    for (String yaml : examples) {
      Sf2lokiConfig cfg = load(dir, yaml, env);
      assertThat(cfg.multiOrg()).isTrue();
      assertThat(cfg.orgs()).extracting(OrgConfig::name).doesNotContain("").doesNotHaveDuplicates();
    }
    Sf2lokiConfig first = load(dir, examples.getFirst(), env);
    assertThat(first.orgs())
        .extracting(OrgConfig::keyPrefix)
        .containsExactly("org=prod:", "org=uat-sandbox:");
    assertThat(first.orgs().get(1).salesforce().environment()).isEqualTo("sandbox");
    assertThat(first.orgs().get(1).loki().tenantId()).contains("sandbox");
    assertThat(first.orgs().get(0).loki().inherits()).isTrue();
  }

  @Test
  @DisplayName("FEAT-6, CFG-42: orgs[].loki overrides tenant and token; absent keys inherit")
  void feat6_orgLokiIdentity() {
    Sf2lokiConfig cfg = load(dir, TWO_ORGS, Map.of("B_TOKEN", "b-secret"));
    LokiSinkSettings base = cfg.loki().push();
    LokiSinkSettings a = cfg.orgs().get(0).loki().applyTo(base);
    LokiSinkSettings b = cfg.orgs().get(1).loki().applyTo(base);
    assertThat(a).isSameAs(base);
    assertThat(b.tenantId()).isEqualTo("team-b");
    assertThat(b.authToken()).isEqualTo("b-secret");
    assertThat(b.url()).isEqualTo(base.url());
    assertThat(b.encoding()).isEqualTo(base.encoding());
  }

  @Test
  @DisplayName("CFG-42: an empty tenant_id inherits; auth_token_file is read like any secret")
  void cfg42_emptyInheritsAndFileSecret() throws IOException {
    Path token = Files.writeString(dir.resolve("b.token"), "from-file\n");
    String yaml =
        TWO_ORGS
            .replace("tenant_id: team-b", "tenant_id: ''")
            .replace("auth_token: ${B_TOKEN}", "auth_token_file: " + token);
    Sf2lokiConfig cfg = load(dir, yaml);
    LokiSinkSettings b = cfg.orgs().get(1).loki().applyTo(cfg.loki().push());
    assertThat(b.tenantId()).isEqualTo("shared");
    assertThat(b.authToken()).isEqualTo("from-file");
  }

  @Test
  @DisplayName("CFG-4, CFG-42: other sink.loki keys under orgs[].loki are unknown keys")
  void cfg42_onlyIdentityKeys() {
    String yaml = TWO_ORGS.replace("tenant_id: team-b", "url: http://other/loki/api/v1/push");
    assertThatThrownBy(() -> load(dir, yaml, Map.of("B_TOKEN", "t")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("  orgs.1.loki.url: unknown configuration key");
  }

  @Test
  @DisplayName("CFG-7: the org's Loki token never appears in the configuration error text")
  void cfg7_tokenNotInErrors() {
    String yaml = TWO_ORGS.replace("name: a", "name: 'a b'");
    assertThatThrownBy(() -> load(dir, yaml, Map.of("B_TOKEN", "b-secret-value")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("orgs.0.name: must match")
        .hasMessageNotContaining("b-secret-value");
  }

  @Test
  @DisplayName("ORG-19: two orgs with the same configured org id load with a warning naming both")
  void org19_sameOrgIdWarns() {
    String yaml =
        TWO_ORGS
            .replace("client_id: ca,", "client_id: ca, org_id: 00D000000000001EAA,")
            .replace("client_id: cb,", "client_id: cb, org_id: 00D000000000001,");
    Sf2lokiConfig cfg = load(dir, yaml, Map.of("B_TOKEN", "t"));
    assertThat(cfg.warnings())
        .filteredOn(w -> w.contains("ORG-19"))
        .singleElement()
        .asString()
        .startsWith("orgs.1.salesforce.org_id: the same org id 00D000000000001 as orgs.0 ('a')");
    Sf2lokiConfig distinct = load(dir, TWO_ORGS, Map.of("B_TOKEN", "t"));
    assertThat(distinct.warnings()).noneMatch(w -> w.contains("ORG-19"));
  }

  @Test
  @DisplayName("CFG-10, CFG-11: duplicate names and names that are not label values are refused")
  void cfg11_namesRefusedWithDottedPath() {
    String dup = TWO_ORGS.replace("name: b", "name: a");
    assertThatThrownBy(() -> load(dir, dup, Map.of("B_TOKEN", "t")))
        .hasMessageContaining("  orgs.1.name: duplicate org name 'a'");
    String colon = TWO_ORGS.replace("name: b", "name: 'b:c'");
    assertThatThrownBy(() -> load(dir, colon, Map.of("B_TOKEN", "t")))
        .hasMessageContaining("  orgs.1.name: must match ^[A-Za-z0-9_-]+$");
    String missing = TWO_ORGS.replace("- name: b\n", "- \n");
    assertThatThrownBy(() -> load(dir, missing, Map.of("B_TOKEN", "t")))
        .hasMessageContaining("orgs.1");
  }

  @Test
  @DisplayName("CFG-15: in multi-org mode sink.loki.labels may not set org, sf_org_id, environment")
  void cfg15_identityLabelsRefused() {
    String yaml =
        TWO_ORGS.replace(
            "    tenant_id: shared\n",
            "    tenant_id: shared\n    labels: {job: sf2loki, org: x}\n");
    assertThatThrownBy(() -> load(dir, yaml, Map.of("B_TOKEN", "t")))
        .hasMessageContaining("  sink.loki.labels: label key(s) org not allowed");
  }
}
