package io.sf2loki.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.InputFormat;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.sf2loki.app.config.HelmValues;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sf2loki config helm-values} output rendered by the real chart (SPEC CLI-18, DEP-4, DEP-5):
 * the values validate against {@code values.schema.json}, and the rendered manifests carry the
 * configuration and the secret mounts.
 */
class HelmValuesChartTest {
  private static final String SINGLE =
      """
      salesforce:
        client_id: 3MVG9example
        username: integration.user@example.com
        private_key_file: /home/ops/keys/jwt.key
      sources:
        eventlogfile:
          enabled: true
          event_types: [Login, API]
      sink:
        loki:
          url: http://loki-gateway.loki.svc/loki/api/v1/push
          auth_token_file: /home/ops/keys/loki.token
      state:
        file:
          path: /home/ops/sf2loki/state.json
      service:
        health_addr: "127.0.0.1:9100"
      """;

  private static final String HA =
      """
      salesforce:
        client_id: 3MVG9example
        username: integration.user@example.com
        private_key_file: /home/ops/keys/jwt.key
      sources:
        pubsub:
          topics: [/event/LoginEventStream]
      sink:
        loki:
          url: http://loki-gateway.loki.svc/loki/api/v1/push
      state:
        store: s3
        s3:
          bucket: sf2loki-state
          key: prod/state.json
          region: eu-west-1
      coordinate:
        type: k8s_lease
        k8s_lease:
          name: sf2loki-prod-leader
          kubeconfig: /home/ops/.kube/config
      """;

  private static Path values(Path dir, String config) throws Exception {
    Path cfg = dir.resolve("sf2loki.yaml");
    Files.writeString(cfg, config, StandardCharsets.UTF_8);
    Path values = dir.resolve("values.yaml");
    Files.writeString(values, HelmValues.render(cfg).yaml(), StandardCharsets.UTF_8);
    return values;
  }

  private static void assertSchemaValid(Path values) throws Exception {
    Schema schema =
        SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_7)
            .getSchema(
                Files.readString(HelmChart.dir().resolve("values.schema.json")), InputFormat.JSON);
    JsonNode tree = HelmChart.yaml(Files.readString(values));
    // Helm validates the values merged over the chart's defaults; nulls remove defaults first
    assertThat(schema.validate(new ObjectMapper().valueToTree(withoutNulls(tree)))).isEmpty();
  }

  private static JsonNode withoutNulls(JsonNode n) {
    if (n instanceof com.fasterxml.jackson.databind.node.ObjectNode o) {
      o.properties().removeIf(e -> e.getValue().isNull());
      o.forEach(HelmValuesChartTest::withoutNulls);
    }
    return n;
  }

  @Test
  @DisplayName(
      "CLI-18, DEP-4: single-replica values validate and render the config, secret mounts and port")
  void cli18_singleReplicaRenders(@TempDir Path dir) throws Exception {
    Path values = values(dir, SINGLE);
    assertSchemaValid(values);
    HelmChart.Rendered r =
        HelmChart.Rendered.parse(
            HelmChart.template(
                values,
                Map.of(
                    "secrets.private_key", "-----BEGIN PRIVATE KEY-----",
                    "secrets.sink_loki_auth_token", "t0ken")));

    Deployment d = r.one(Deployment.class);
    assertThat(d.getSpec().getReplicas()).isEqualTo(1);
    assertThat(r.all(PersistentVolumeClaim.class)).hasSize(1);
    JsonNode config = HelmChart.yaml(configMap(r).getData().get("config.yaml"));
    assertThat(config.at("/salesforce/client_id").asText()).isEqualTo("3MVG9example");
    assertThat(config.at("/salesforce/private_key_file").asText())
        .isEqualTo("/etc/sf2loki/secrets/private_key");
    assertThat(config.at("/sink/loki/auth_token_file").asText())
        .isEqualTo("/etc/sf2loki/secrets/sink_loki_auth_token");
    assertThat(config.at("/sources/eventlogfile/event_types").toString())
        .isEqualTo("[\"Login\",\"API\"]");
    // the chart's default Pub/Sub topic is not merged into a file that has none
    assertThat(config.at("/sources/pubsub").isMissingNode()).isTrue();
    assertThat(config.at("/state/file/path").asText()).isEqualTo("/var/lib/sf2loki/state.json");
    assertThat(config.at("/service/health_addr").asText()).isEqualTo(":8080");

    Container c = d.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(mounts(c)).containsEntry("secrets", "/etc/sf2loki/secrets");
    Secret secret = r.one(Secret.class);
    assertThat(secret.getStringData()).containsOnlyKeys("private_key", "sink_loki_auth_token");
    assertThat(
            volumes(d.getSpec().getTemplate().getSpec()).get("secrets").getSecret().getSecretName())
        .isEqualTo(secret.getMetadata().getName());
    assertThat(r.one(Service.class).getSpec().getPorts().get(0).getPort()).isEqualTo(9100);
  }

  @Test
  @DisplayName("CLI-18, DEP-5: HA values validate and render the pair with the lease and no volume")
  void cli18_haPairRenders(@TempDir Path dir) throws Exception {
    Path values = values(dir, HA);
    assertSchemaValid(values);
    HelmChart.Rendered r = HelmChart.Rendered.parse(HelmChart.template(values, Map.of()));

    Deployment d = r.one(Deployment.class);
    assertThat(d.getSpec().getReplicas()).isEqualTo(2);
    PodSpec pod = d.getSpec().getTemplate().getSpec();
    assertThat(pod.getContainers().get(0).getReadinessProbe().getHttpGet().getPath())
        .isEqualTo("/healthz");
    assertThat(r.all(PersistentVolumeClaim.class)).isEmpty();
    assertThat(r.one(Role.class).getRules())
        .anySatisfy(rule -> assertThat(rule.getResourceNames()).contains("sf2loki-prod-leader"));
    JsonNode config = HelmChart.yaml(configMap(r).getData().get("config.yaml"));
    assertThat(config.at("/coordinate/type").asText()).isEqualTo("k8s_lease");
    assertThat(config.at("/coordinate/k8s_lease/namespace").asText())
        .isEqualTo(HelmChart.NAMESPACE);
    assertThat(config.at("/coordinate/k8s_lease/kubeconfig").isMissingNode()).isTrue();
    assertThat(config.at("/state/store").asText()).isEqualTo("s3");
    assertThat(config.at("/state/file").isMissingNode()).isTrue();
    assertThat(config.at("/salesforce/private_key_file").asText())
        .isEqualTo("/etc/sf2loki/secrets/private_key");
    assertThat(mounts(pod.getContainers().get(0))).containsEntry("secrets", "/etc/sf2loki/secrets");
    // no chart-made Secret: the values name the keys, the operator creates them
    assertThat(r.all(Secret.class)).isEmpty();
    assertThat(volumes(pod).get("secrets").getSecret().getOptional()).isTrue();
  }

  private static ConfigMap configMap(HelmChart.Rendered r) {
    return r.all(ConfigMap.class).stream()
        .filter(c -> c.getData() != null && c.getData().containsKey("config.yaml"))
        .findFirst()
        .orElseThrow();
  }

  private static Map<String, String> mounts(Container c) {
    return c.getVolumeMounts().stream()
        .collect(Collectors.toMap(VolumeMount::getName, VolumeMount::getMountPath));
  }

  private static Map<String, Volume> volumes(PodSpec pod) {
    return pod.getVolumes().stream().collect(Collectors.toMap(Volume::getName, v -> v));
  }
}
