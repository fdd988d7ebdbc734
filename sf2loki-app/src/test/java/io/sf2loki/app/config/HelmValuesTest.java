package io.sf2loki.app.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code config helm-values} mapping (SPEC CLI-6, CLI-18, CLI-19; chart DEP-4…DEP-6). */
class HelmValuesTest {
  private static final YAMLMapper YAML = new YAMLMapper();

  private static HelmValues.Result map(String yaml) throws Exception {
    return HelmValues.map((ObjectNode) YAML.readTree(yaml), List.of());
  }

  private static JsonNode values(HelmValues.Result r) throws Exception {
    return YAML.readTree(r.yaml());
  }

  @Test
  @DisplayName("CLI-18: file secrets point at the chart's Secret mount; the header lists the keys")
  void cli18_fileSecretsMapToMount() throws Exception {
    HelmValues.Result r =
        map(
            """
            salesforce: {client_id: c, username: u, private_key_file: /home/me/jwt.key}
            sink: {loki: {url: "http://loki:3100/loki/api/v1/push", auth_token_file: /run/tok}}
            """);
    JsonNode cfg = values(r).get("config");
    assertThat(cfg.at("/salesforce/private_key_file").asText())
        .isEqualTo("/etc/sf2loki/secrets/private_key");
    assertThat(cfg.at("/sink/loki/auth_token_file").asText())
        .isEqualTo("/etc/sf2loki/secrets/sink_loki_auth_token");
    assertThat(r.secrets())
        .containsExactly(
            new HelmValues.SecretKey(
                "private_key", "salesforce.private_key_file", "/home/me/jwt.key"),
            new HelmValues.SecretKey(
                "sink_loki_auth_token", "sink.loki.auth_token_file", "/run/tok"));
    assertThat(r.yaml())
        .contains("--set-file secrets.private_key=/home/me/jwt.key")
        .contains("--from-file=sink_loki_auth_token=/run/tok");
  }

  @Test
  @DisplayName("CLI-18: an inline secret is removed and never printed; ${VAR} secrets stay")
  void cli18_inlineSecretsNeverPrinted() throws Exception {
    HelmValues.Result r =
        map(
            """
            salesforce: {auth_mode: client_credentials, client_id: c, client_secret: s3cr3t-value,
                         instance_url: "https://x.my.salesforce.com"}
            sink: {loki: {url: "http://loki/x", auth_token: "${LOKI_TOKEN}"}}
            """);
    assertThat(r.yaml()).doesNotContain("s3cr3t-value");
    JsonNode cfg = values(r).get("config");
    assertThat(cfg.at("/salesforce/client_secret").isMissingNode()).isTrue();
    assertThat(cfg.at("/salesforce/client_secret_file").asText())
        .isEqualTo("/etc/sf2loki/secrets/client_secret");
    assertThat(cfg.at("/sink/loki/auth_token").asText()).isEqualTo("${LOKI_TOKEN}");
    assertThat(r.secrets()).extracting(HelmValues.SecretKey::key).containsExactly("client_secret");
    assertThat(r.notes()).anySatisfy(n -> assertThat(n).contains("LOKI_TOKEN"));
  }

  @Test
  @DisplayName("CLI-18: orgs get per-org Secret keys; one source file gives one key")
  void cli18_multiOrgKeys() throws Exception {
    HelmValues.Result r =
        map(
            """
            orgs:
              - name: prod
                salesforce: {client_id: a, username: u, private_key_file: /k/shared.pem}
              - name: dev
                salesforce: {client_id: b, username: v, private_key_file: /k/dev.pem}
              - name: qa
                salesforce: {client_id: c, username: w, private_key_file: /k/shared.pem}
            sink: {loki: {url: "http://loki/x"}}
            """);
    JsonNode orgs = values(r).at("/config/orgs");
    assertThat(orgs.get(0).at("/salesforce/private_key_file").asText())
        .isEqualTo("/etc/sf2loki/secrets/prod_private_key");
    assertThat(orgs.get(1).at("/salesforce/private_key_file").asText())
        .isEqualTo("/etc/sf2loki/secrets/dev_private_key");
    assertThat(orgs.get(2).at("/salesforce/private_key_file").asText())
        .isEqualTo("/etc/sf2loki/secrets/prod_private_key");
    assertThat(r.secrets()).hasSize(2);
    // the chart's default single-org blocks are removed, not merged in
    JsonNode cfg = values(r).get("config");
    assertThat(cfg.get("salesforce").isNull()).isTrue();
    assertThat(cfg.get("sources").isNull()).isTrue();
  }

  @Test
  @DisplayName("CLI-18, CFG-42: an org's inline Loki token moves to a per-org Secret key")
  void cfg42_orgLokiTokenMovesToSecret() throws Exception {
    HelmValues.Result r =
        map(
            """
            orgs:
              - name: eu
                salesforce: {client_id: a, username: u, private_key_file: /k/eu.pem}
                loki: {tenant_id: team-eu, auth_token: eu-l0ki-t0ken}
            sink: {loki: {url: "http://loki/x"}}
            """);
    assertThat(r.yaml()).doesNotContain("eu-l0ki-t0ken");
    JsonNode org = values(r).at("/config/orgs/0");
    assertThat(org.at("/loki/auth_token_file").asText())
        .isEqualTo("/etc/sf2loki/secrets/eu_loki_auth_token");
    assertThat(org.at("/loki/tenant_id").asText()).isEqualTo("team-eu");
  }

  @Test
  @DisplayName("CLI-18: chart default keys the file lacks become null (Helm's merge removes them)")
  void cli18_nullsOutChartDefaults() throws Exception {
    JsonNode cfg =
        values(
                map(
                    """
                    salesforce: {client_id: c, username: u, private_key_file: /k}
                    sources: {eventlogfile: {enabled: true}}
                    sink: {loki: {url: "http://loki/x"}}
                    """))
            .get("config");
    assertThat(cfg.at("/sources/pubsub").isNull()).isTrue();
    assertThat(cfg.at("/salesforce/environment").isNull()).isTrue();
    assertThat(cfg.at("/coordinate").isNull()).isTrue();
    assertThat(cfg.at("/sources/eventlogfile/enabled").asBoolean()).isTrue();
  }

  @Test
  @DisplayName("CLI-18: single replica with the file store: replicaCount 1, the PVC kept")
  void cli18_singleReplica() throws Exception {
    JsonNode v =
        values(
            map(
                """
                salesforce: {client_id: c, username: u, private_key_file: /k}
                sink: {loki: {url: "http://loki/x"}}
                state: {file: {path: /home/me/state.json}}
                service: {health_addr: "127.0.0.1:9090"}
                """));
    assertThat(v.get("replicaCount").asInt()).isEqualTo(1);
    assertThat(v.has("ha")).isFalse();
    assertThat(v.has("persistence")).isFalse();
    assertThat(v.at("/config/state/file/path").asText()).isEqualTo("/var/lib/sf2loki/state.json");
    assertThat(v.at("/config/service/health_addr").asText()).isEqualTo(":8080");
    assertThat(v.at("/service/port").asInt()).isEqualTo(9090);
  }

  @Test
  @DisplayName("CLI-18, DEP-5: k8s_lease + object store gives the HA pair, no volume, in-cluster")
  void cli18_haPair() throws Exception {
    HelmValues.Result r =
        map(
            """
            salesforce: {client_id: c, username: u, private_key_file: /k}
            sink: {loki: {url: "http://loki/x"}}
            state: {store: gcs, gcs: {bucket: b, service_file: /home/me/sa.json}}
            coordinate: {type: k8s_lease, k8s_lease: {name: lead, namespace: x,
                         kubeconfig: /home/me/.kube/config}}
            """);
    JsonNode v = values(r);
    assertThat(v.get("replicaCount").asInt()).isEqualTo(2);
    assertThat(v.at("/ha/enabled").asBoolean()).isTrue();
    assertThat(v.at("/persistence/enabled").asBoolean()).isFalse();
    assertThat(v.at("/config/coordinate/k8s_lease/name").asText()).isEqualTo("lead");
    assertThat(v.at("/config/coordinate/k8s_lease/kubeconfig").isMissingNode()).isTrue();
    assertThat(v.at("/config/coordinate/k8s_lease/namespace").isMissingNode()).isTrue();
    assertThat(v.at("/config/state/gcs/service_file").asText())
        .isEqualTo("/etc/sf2loki/secrets/state_gcs_service_file");
    assertThat(v.at("/config/state/file").isNull()).isTrue();
  }

  @Test
  @DisplayName("CLI-19: k8s_lease with the file store is refused (each replica would lead)")
  void cli19_k8sLeaseWithFileStoreRefused() {
    assertThatThrownBy(
            () ->
                map(
                    """
                    salesforce: {client_id: c, username: u, private_key_file: /k}
                    sink: {loki: {url: "http://loki/x"}}
                    coordinate: {type: k8s_lease}
                    """))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("k8s_lease needs state.store s3 or gcs");
  }

  @Test
  @DisplayName(
      "CLI-19: a password in a URL's user-info or a credential header value is refused, naming"
          + " the path and never printing the value; a ${VAR} header stays")
  void cli19_unmovableCredentialsRefused() throws Exception {
    assertThatThrownBy(
            () ->
                map(
                    """
                    salesforce: {client_id: c, username: u, private_key_file: /k}
                    sink: {loki: {url: "https://user:URLPASS-secret@loki.example.com/x"}}
                    """))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("sink.loki.url")
        .hasMessageNotContaining("URLPASS");
    assertThatThrownBy(
            () ->
                map(
                    """
                    salesforce: {client_id: c, username: u, private_key_file: /k}
                    sink: {loki: {url: "http://loki/x"}}
                    service: {telemetry: {headers: {X-Api-Key: OTLP-HEADER-KEY-SECRET}}}
                    """))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("service.telemetry.headers.X-Api-Key")
        .hasMessageNotContaining("OTLP-HEADER-KEY-SECRET");
    HelmValues.Result ok =
        map(
            """
            salesforce: {client_id: c, username: u, private_key_file: /k}
            sink: {loki: {url: "http://loki/x"}}
            service: {telemetry: {headers: {X-Api-Key: "${OTLP_KEY}", X-Scope-OrgID: tenant-a}}}
            """);
    assertThat(values(ok).at("/config/service/telemetry/headers/X-Scope-OrgID").asText())
        .isEqualTo("tenant-a");
  }

  @Test
  @DisplayName(
      "CFG-4, CLI-19: inside orgs the refusal names the dotted path with the list index as a"
          + " number (orgs.1.salesforce.login_url), and the Secret key's source path too")
  void cfg4_orgPathsAreDotted() throws Exception {
    assertThatThrownBy(
            () ->
                map(
                    """
                    orgs:
                      - {name: a, salesforce: {client_id: c, username: u, private_key_file: /k}}
                      - name: b
                        salesforce:
                          client_id: c
                          username: u
                          private_key_file: /k2
                          login_url: "https://me:ORGPASS@b.my.salesforce.com"
                    sink: {loki: {url: "http://loki/x"}}
                    """))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("orgs.1.salesforce.login_url: ")
        .hasMessageNotContaining("ORGPASS");
    HelmValues.Result r =
        map(
            """
            orgs:
              - {name: a, salesforce: {client_id: c, username: u, private_key: INLINE-A}}
            sink: {loki: {url: "http://loki/x"}}
            """);
    assertThat(r.secrets())
        .extracting(HelmValues.SecretKey::configPath)
        .containsExactly("orgs.0.salesforce.private_key");
  }

  @Test
  @DisplayName("CLI-19: an invalid configuration is refused before mapping (named error)")
  void cli19_invalidConfigRefused(@TempDir Path dir) throws Exception {
    Path cfg = dir.resolve("c.yaml");
    Files.writeString(
        cfg,
        "salesforce: {client_id: c, username: u, private_key_file: /k}\n"
            + "sink: {loki: {url: \"http://loki/x\", colour: blue}}\n",
        StandardCharsets.UTF_8);
    assertThatThrownBy(() -> HelmValues.render(cfg))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("colour");
  }

  @Test
  @DisplayName("CFG-26, CFG-27: the bundled region equals the chart's values.yaml region (drift)")
  void cfg27_regionMatchesChart() throws Exception {
    String values =
        Files.readString(
            Path.of("..", "deploy", "helm", "sf2loki", "values.yaml"), StandardCharsets.UTF_8);
    assertThat(values).contains(HelmValues.region());
    assertThat(HelmValues.defaultConfig().at("/state/store").asText()).isEqualTo("file");
  }
}
