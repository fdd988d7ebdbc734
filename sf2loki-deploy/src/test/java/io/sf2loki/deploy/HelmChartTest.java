package io.sf2loki.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.marcnuri.helm.LintResult;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecurityContext;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.sf2loki.app.cli.Version;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The Helm chart (SPEC DEP-4…DEP-7) rendered by the real Helm engine, parsed with fabric8. */
class HelmChartTest {
  private static final String DEFAULT = "";
  private static final String HA = "ha-values.yaml";
  private static final String POD_MONITOR = "podmonitor-values.yaml";

  private static String set(String name) {
    return name.isEmpty() ? null : name;
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {DEFAULT, HA, POD_MONITOR})
  @DisplayName("DEP-4: helm lint --strict passes and helm template renders for each value set")
  void dep4_lintsAndRenders(String valueSet, @TempDir Path tmp) throws Exception {
    LintResult lint = HelmChart.lint(HelmChart.valueSet(set(valueSet)), tmp);
    assertThat(lint.isFailed()).as("lint: %s", lint.getMessages()).isFalse();

    HelmChart.Rendered r = HelmChart.render(set(valueSet), Map.of());
    assertThat(r.kinds()).contains("Deployment", "ConfigMap");
    assertThat(r.objects())
        .allSatisfy(o -> assertThat(o.getMetadata().getLabels()).containsKey("helm.sh/chart"));
  }

  @Test
  @DisplayName("DEP-4: appVersion is the build version; image tag defaults to it, a digest wins")
  void dep4_imageReference() {
    JsonNode chart = HelmChart.yaml(readString(HelmChart.dir().resolve("Chart.yaml")));
    assertThat(chart.get("appVersion").asText()).isEqualTo(Version.get()).isEqualTo(Repo.version());
    assertThat(container(HelmChart.render(null, Map.of())).getImage())
        .isEqualTo("ghcr.io/rknightion/sf2loki:" + Repo.version());
    String digest = "sha256:" + "ab".repeat(32);
    assertThat(container(HelmChart.render(null, Map.of("image.digest", digest))).getImage())
        .isEqualTo("ghcr.io/rknightion/sf2loki@" + digest);
  }

  @Test
  @DisplayName(
      "DEP-6: default pod: probes, port, resources, grace, Recreate, PVC state, /tmp emptyDir")
  void dep6_defaultPod() {
    HelmChart.Rendered r = HelmChart.render(null, Map.of());
    Deployment d = r.one(Deployment.class);
    assertThat(d.getSpec().getReplicas()).isEqualTo(1);
    assertThat(d.getSpec().getStrategy().getType()).isEqualTo("Recreate");
    assertThat(d.getSpec().getRevisionHistoryLimit()).isEqualTo(3);
    PodSpec pod = d.getSpec().getTemplate().getSpec();
    assertThat(pod.getTerminationGracePeriodSeconds()).isEqualTo(40L);
    assertThat(pod.getAutomountServiceAccountToken()).isFalse();

    Container c = container(r);
    assertProbe(c.getReadinessProbe(), "/readyz", 20, 15, 3, 3);
    assertProbe(c.getLivenessProbe(), "/healthz", 10, 15, 3, 3);
    assertThat(c.getPorts())
        .singleElement()
        .satisfies(
            p -> {
              assertThat(p.getName()).isEqualTo("health");
              assertThat(p.getContainerPort()).isEqualTo(8080);
            });
    assertThat(c.getArgs()).containsExactly("--config", "/etc/sf2loki/config.yaml");
    assertThat(c.getResources().getRequests()).containsOnlyKeys("cpu", "memory");
    assertThat(c.getResources().getRequests().get("cpu").toString()).isEqualTo("100m");
    assertThat(c.getResources().getRequests().get("memory").toString()).isEqualTo("256Mi");
    assertThat(c.getResources().getLimits().get("cpu").toString()).isEqualTo("500m");
    assertThat(c.getResources().getLimits().get("memory").toString()).isEqualTo("2Gi");
    assertThat(c.getEnv()).extracting("name").contains("POD_NAME", "POD_NAMESPACE");

    Map<String, String> mounts = mounts(c);
    assertThat(mounts)
        .containsEntry("config", "/etc/sf2loki/config.yaml")
        .containsEntry("secrets", "/etc/sf2loki/secrets")
        .containsEntry("state", "/var/lib/sf2loki")
        .containsEntry("tmp", "/tmp");
    assertThat(c.getVolumeMounts())
        .filteredOn(m -> m.getName().equals("secrets"))
        .allSatisfy(m -> assertThat(m.getReadOnly()).isTrue());
    Map<String, Volume> volumes = volumes(pod);
    PersistentVolumeClaim pvc = r.one(PersistentVolumeClaim.class);
    assertThat(volumes.get("state").getPersistentVolumeClaim().getClaimName())
        .isEqualTo(pvc.getMetadata().getName());
    assertThat(pvc.getSpec().getAccessModes()).containsExactly("ReadWriteOnce");
    assertThat(pvc.getSpec().getResources().getRequests().get("storage").toString())
        .isEqualTo("1Gi");
    assertThat(volumes.get("tmp").getEmptyDir()).isNotNull();
    assertThat(volumes.get("config").getConfigMap().getName())
        .isEqualTo(configMap(r).getMetadata().getName());
    assertThat(d.getSpec().getTemplate().getMetadata().getAnnotations())
        .containsKey("checksum/config");

    assertThat(r.all(Role.class)).isEmpty();
    assertThat(r.all(PodDisruptionBudget.class)).isEmpty();
    assertThat(r.one(Service.class).getSpec().getPorts().get(0).getPort()).isEqualTo(8080);
    JsonNode config = HelmChart.yaml(configMap(r).getData().get("config.yaml"));
    assertThat(config.at("/state/store").asText()).isEqualTo("file");
    assertThat(config.at("/coordinate/type").asText()).isEqualTo("noop");
  }

  @Test
  @DisplayName(
      "DEP-7: non-root 10001, fsGroup 10001, seccomp RuntimeDefault, read-only root, drop ALL")
  void dep7_securityContext() {
    HelmChart.Rendered r = HelmChart.render(null, Map.of());
    PodSecurityContext pod =
        r.one(Deployment.class).getSpec().getTemplate().getSpec().getSecurityContext();
    assertThat(pod.getRunAsNonRoot()).isTrue();
    assertThat(pod.getRunAsUser()).isEqualTo(10001L);
    assertThat(pod.getRunAsGroup()).isEqualTo(10001L);
    assertThat(pod.getFsGroup()).isEqualTo(10001L);
    assertThat(pod.getSeccompProfile().getType()).isEqualTo("RuntimeDefault");
    SecurityContext c = container(r).getSecurityContext();
    assertThat(c.getReadOnlyRootFilesystem()).isTrue();
    assertThat(c.getAllowPrivilegeEscalation()).isFalse();
    assertThat(c.getRunAsNonRoot()).isTrue();
    assertThat(c.getCapabilities().getDrop()).containsExactly("ALL");
    assertThat(c.getCapabilities().getAdd()).isNullOrEmpty();
  }

  @Test
  @DisplayName(
      "DEP-5: HA pair: lease Role (create; get/update on the named lease), SA token, /healthz readiness, PDB, spread")
  void dep5_haPair() {
    HelmChart.Rendered r = HelmChart.render(HA, Map.of());
    Deployment d = r.one(Deployment.class);
    assertThat(d.getSpec().getReplicas()).isEqualTo(2);
    assertThat(d.getSpec().getStrategy().getType()).isEqualTo("RollingUpdate");
    assertThat(d.getSpec().getStrategy().getRollingUpdate().getMaxUnavailable().getIntVal())
        .isEqualTo(1);
    assertThat(d.getSpec().getStrategy().getRollingUpdate().getMaxSurge().getIntVal()).isEqualTo(1);
    PodSpec pod = d.getSpec().getTemplate().getSpec();
    // a standby answers 503 on /readyz; readiness must not block rollouts and drains
    assertProbe(container(r).getReadinessProbe(), "/healthz", 20, 15, 3, 3);
    assertProbe(container(r).getLivenessProbe(), "/healthz", 10, 15, 3, 3);
    assertThat(pod.getAutomountServiceAccountToken()).isTrue();

    ServiceAccount sa = r.one(ServiceAccount.class);
    assertThat(pod.getServiceAccountName()).isEqualTo(sa.getMetadata().getName());
    Role role = r.one(Role.class);
    assertThat(role.getRules())
        .allSatisfy(
            rule -> {
              assertThat(rule.getApiGroups()).containsExactly("coordination.k8s.io");
              assertThat(rule.getResources()).containsExactly("leases");
            });
    Map<List<String>, List<String>> verbsByNames =
        role.getRules().stream()
            .collect(
                Collectors.toMap(
                    rule -> rule.getResourceNames() == null ? List.of() : rule.getResourceNames(),
                    PolicyRule::getVerbs));
    assertThat(verbsByNames)
        .containsOnly(
            Map.entry(List.of(), List.of("create")),
            Map.entry(List.of("sf2loki-prod-leader"), List.of("get", "update")));
    RoleBinding binding = r.one(RoleBinding.class);
    assertThat(binding.getRoleRef().getName()).isEqualTo(role.getMetadata().getName());
    assertThat(binding.getSubjects())
        .singleElement()
        .satisfies(
            s -> {
              assertThat(s.getKind()).isEqualTo("ServiceAccount");
              assertThat(s.getName()).isEqualTo(sa.getMetadata().getName());
              assertThat(s.getNamespace()).isEqualTo(HelmChart.NAMESPACE);
            });

    PodDisruptionBudget pdb = r.one(PodDisruptionBudget.class);
    assertThat(pdb.getSpec().getMaxUnavailable().getIntVal()).isEqualTo(1);
    assertThat(pdb.getSpec().getSelector().getMatchLabels())
        .isEqualTo(d.getSpec().getSelector().getMatchLabels());
    assertThat(
            pod.getAffinity()
                .getPodAntiAffinity()
                .getPreferredDuringSchedulingIgnoredDuringExecution())
        .extracting(t -> t.getPodAffinityTerm().getTopologyKey())
        .containsExactly("kubernetes.io/hostname", "topology.kubernetes.io/zone");
    assertThat(pod.getTopologySpreadConstraints())
        .extracting("topologyKey")
        .containsExactly("kubernetes.io/hostname", "topology.kubernetes.io/zone");

    // no per-pod volume: the state lives in the object store
    assertThat(r.all(PersistentVolumeClaim.class)).isEmpty();
    assertThat(volumes(pod).get("state").getEmptyDir()).isNotNull();
    JsonNode config = HelmChart.yaml(configMap(r).getData().get("config.yaml"));
    assertThat(config.at("/coordinate/type").asText()).isEqualTo("k8s_lease");
    assertThat(config.at("/coordinate/k8s_lease/namespace").asText())
        .isEqualTo(HelmChart.NAMESPACE);
    assertThat(config.at("/state/store").asText()).isEqualTo("s3");
    assertThat(config.at("/state/s3/bucket").asText()).isEqualTo("sf2loki-state");
    assertThat(config.has("file")).isFalse();
    Secret secret = r.one(Secret.class);
    assertThat(secret.getStringData()).containsOnlyKeys("private_key");
    assertThat(volumes(pod).get("secrets").getSecret().getSecretName())
        .isEqualTo(secret.getMetadata().getName());
  }

  @Test
  @DisplayName(
      "HA-27, HA-30, DEP-5: with coordinate.per_org the lease Role also gets/updates each org's"
          + " Lease and one seat Lease per org")
  void ha27_perOrgLeaseNames() {
    HelmChart.Rendered r =
        HelmChart.render(
            HA,
            Map.of(
                "config.coordinate.per_org", "true",
                "config.orgs[0].name", "eu",
                "config.orgs[1].name", "US_east"));
    List<String> names =
        r.one(Role.class).getRules().stream()
            .filter(rule -> rule.getResourceNames() != null && !rule.getResourceNames().isEmpty())
            .flatMap(rule -> rule.getResourceNames().stream())
            .toList();
    assertThat(names)
        .containsExactly(
            "sf2loki-prod-leader",
            "sf2loki-prod-leader-eu",
            "sf2loki-prod-leader-us-east",
            "sf2loki-prod-leader.seat-0",
            "sf2loki-prod-leader.seat-1");
  }

  @Test
  @DisplayName(
      "DEP-5: rendering fails for replicas > 1 without ha, ha without SA, lease or object store")
  void dep5_renderFailures() {
    assertThatThrownBy(() -> HelmChart.render(null, Map.of("replicaCount", 2)))
        .hasMessageContaining("replicaCount=2 needs ha.enabled=true");
    Path ha = HelmChart.valueSet(HA);
    assertThatThrownBy(
            () ->
                HelmChart.template(
                    ha, Map.of("serviceAccount.create", false, "serviceAccount.name", "")))
        .hasMessageContaining("ha.enabled needs a ServiceAccount");
    assertThatThrownBy(() -> HelmChart.template(ha, Map.of("config.coordinate.type", "noop")))
        .hasMessageContaining("ha.enabled needs config.coordinate.type=k8s_lease, not noop");
    assertThatThrownBy(() -> HelmChart.template(ha, Map.of("config.state.store", "file")))
        .hasMessageContaining("ha.enabled needs an object store");
    // a named, existing ServiceAccount is enough
    HelmChart.Rendered named =
        HelmChart.Rendered.parse(
            HelmChart.template(
                ha, Map.of("serviceAccount.create", false, "serviceAccount.name", "sf2loki-sa")));
    assertThat(named.all(ServiceAccount.class)).isEmpty();
    assertThat(named.one(RoleBinding.class).getSubjects().get(0).getName()).isEqualTo("sf2loki-sa");
  }

  @Test
  @DisplayName("DEP-6: a file store without persistence fails unless allowEphemeralState")
  void dep6_ephemeralStateRefused() {
    assertThatThrownBy(() -> HelmChart.render(null, Map.of("persistence.enabled", false)))
        .hasMessageContaining("state.store=file with persistence.enabled=false");
    HelmChart.Rendered r =
        HelmChart.render(null, Map.of("persistence.enabled", false, "allowEphemeralState", true));
    assertThat(r.all(PersistentVolumeClaim.class)).isEmpty();
    assertThat(
            volumes(r.one(Deployment.class).getSpec().getTemplate().getSpec())
                .get("state")
                .getEmptyDir())
        .isNotNull();
  }

  @Test
  @DisplayName(
      "DEP-4: PodMonitor scrapes /metrics on the health port; PrometheusRule carries the rules file")
  void dep4_podMonitorAndRules() {
    HelmChart.Rendered r = HelmChart.render(POD_MONITOR, Map.of());
    assertThat(r.all(Service.class)).isEmpty();
    assertThat(r.kind("ServiceMonitor")).isEmpty();
    GenericKubernetesResource pm = (GenericKubernetesResource) r.kind("PodMonitor").orElseThrow();
    assertThat(pm.getApiVersion()).isEqualTo("monitoring.coreos.com/v1");
    assertThat(pm.getMetadata().getLabels()).containsEntry("release", "kube-prometheus-stack");
    @SuppressWarnings("unchecked")
    Map<String, Object> pmSpec = (Map<String, Object>) pm.getAdditionalProperties().get("spec");
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> endpoints =
        (List<Map<String, Object>>) pmSpec.get("podMetricsEndpoints");
    assertThat(endpoints)
        .singleElement()
        .satisfies(
            e ->
                assertThat(e)
                    .containsEntry("port", "health")
                    .containsEntry("path", "/metrics")
                    .containsEntry("interval", "15s"));

    GenericKubernetesResource rule =
        (GenericKubernetesResource) r.kind("PrometheusRule").orElseThrow();
    JsonNode rulesFile =
        HelmChart.yaml(readString(HelmChart.dir().resolve("files/prometheus-rules.yaml")));
    JsonNode rendered =
        HelmChart.yaml(
            io.fabric8.kubernetes.client.utils.Serialization.asYaml(
                rule.getAdditionalProperties().get("spec")));
    assertThat(rendered).isEqualTo(rulesFile);

    // an existing Secret is mounted, none is created
    assertThat(r.all(Secret.class)).isEmpty();
    assertThat(
            volumes(r.one(Deployment.class).getSpec().getTemplate().getSpec())
                .get("secrets")
                .getSecret()
                .getSecretName())
        .isEqualTo("sf2loki-credentials");
  }

  @Test
  @DisplayName(
      "DEP-9: the chart's PrometheusRule carries exactly the monitoring pack's recording and alert groups")
  void dep9_chartRulesAreThePack() {
    Path prom = Repo.root().resolve("deploy/monitoring/prometheus");
    JsonNode recording = HelmChart.yaml(readString(prom.resolve("sf2loki-recording.rules.yml")));
    JsonNode alerts = HelmChart.yaml(readString(prom.resolve("sf2loki-alerts.rules.yml")));
    JsonNode chart =
        HelmChart.yaml(readString(HelmChart.dir().resolve("files/prometheus-rules.yaml")));
    List<JsonNode> expected = new java.util.ArrayList<>();
    recording.get("groups").forEach(expected::add);
    alerts.get("groups").forEach(expected::add);
    List<JsonNode> actual = new java.util.ArrayList<>();
    chart.get("groups").forEach(actual::add);
    assertThat(actual).hasSizeGreaterThanOrEqualTo(2).isEqualTo(expected);
  }

  @Test
  @DisplayName("DEP-4: values.schema.json rejects a bad value at render time")
  void dep4_schemaRejects() {
    assertThatThrownBy(() -> HelmChart.render(null, Map.of("replicaCount", 0)))
        .hasMessageContaining("replicaCount");
    assertThatThrownBy(() -> HelmChart.render(null, Map.of("image.digest", "latest")))
        .hasMessageContaining("digest");
    assertThatThrownBy(() -> HelmChart.render(null, Map.of("persistance.enabled", true)))
        .hasMessageContaining("persistance");
  }

  @Test
  @DisplayName(
      "DEP-7: optional default-deny NetworkPolicy: DNS, the health port, listed egress pairs")
  void dep7_networkPolicy() {
    assertThat(HelmChart.render(null, Map.of()).kind("NetworkPolicy")).isEmpty();
    NetworkPolicy np =
        HelmChart.render(null, Map.of("networkPolicy.enabled", true)).one(NetworkPolicy.class);
    assertThat(np.getSpec().getPolicyTypes()).containsExactly("Ingress", "Egress");
    assertThat(np.getSpec().getIngress())
        .singleElement()
        .satisfies(i -> assertThat(i.getPorts().get(0).getPort().getIntVal()).isEqualTo(8080));
    List<String> egress =
        np.getSpec().getEgress().stream()
            .flatMap(
                e ->
                    e.getPorts().stream()
                        .map(
                            p ->
                                (e.getTo() == null || e.getTo().isEmpty()
                                        ? "any"
                                        : e.getTo().get(0).getIpBlock().getCidr())
                                    + ":"
                                    + p.getPort().getIntVal()
                                    + "/"
                                    + p.getProtocol()))
            .toList();
    assertThat(egress)
        .containsExactly("any:53/UDP", "any:53/TCP", "0.0.0.0/0:443/TCP", "0.0.0.0/0:7443/TCP");
  }

  @Test
  @DisplayName("DEP-4: ServiceMonitor selects the chart's Service and scrapes /metrics on health")
  void dep4_serviceMonitor() {
    HelmChart.Rendered r = HelmChart.render(null, Map.of("metrics.serviceMonitor.enabled", true));
    GenericKubernetesResource sm =
        (GenericKubernetesResource) r.kind("ServiceMonitor").orElseThrow();
    @SuppressWarnings("unchecked")
    Map<String, Object> spec = (Map<String, Object>) sm.getAdditionalProperties().get("spec");
    assertThat(spec.get("endpoints").toString()).contains("port=health").contains("path=/metrics");
    assertThat(spec.get("selector").toString())
        .contains(r.one(Service.class).getSpec().getSelector().get("app.kubernetes.io/instance"));
    assertThatThrownBy(
            () ->
                HelmChart.render(
                    null, Map.of("metrics.serviceMonitor.enabled", true, "service.enabled", false)))
        .hasMessageContaining("metrics.serviceMonitor.enabled needs service.enabled=true");
  }

  @Test
  @DisplayName("DEP-4: NOTES name the state back end and the coordinator")
  void dep4_notes() {
    assertThat(HelmChart.notes(null, Map.of()))
        .contains("state back end: file on a PersistentVolumeClaim")
        .contains("coordinator:    noop")
        .doesNotContain("WARN");
    assertThat(HelmChart.notes(HA, Map.of()))
        .contains("state back end: s3")
        .contains(
            "coordinator:    k8s_lease (lease observability/sf2loki-prod-leader, 2 replicas)");
  }

  @Test
  @DisplayName(
      "DEP-6, DEP-14: NOTES warn when the launcher's heap for the memory limit (limit - 160 MiB below"
          + " 1 GiB, else 75 %) is below the DEP-3 sizing formula")
  void dep6_sizingWarning() {
    // defaults: 3 x 256 MiB queues + 128 MiB bridge + 1 topic x 100 credits x 1 MiB + 256 MiB
    assertThat(HelmChart.notes(null, Map.of("resources.limits.memory", "1Gi")))
        .contains(
            "WARN: the heap (DEP-14, from resources.limits.memory 1Gi = 768 MiB) is below the 1252 MiB");
    assertThat(HelmChart.notes(null, Map.of("resources.limits.memory", "512Mi")))
        .contains("from resources.limits.memory 512Mi = 352 MiB) is below the 1252 MiB");
    // 2Gi gives 1536 MiB of heap: enough for the defaults, not with ELF (4 x 8 MiB) and a `*` topic
    // (20 x 100 MiB)
    assertThat(HelmChart.notes(null, Map.of("resources.limits.memory", "2Gi")))
        .doesNotContain("WARN");
    assertThat(
            HelmChart.notes(
                null,
                Map.of(
                    "resources.limits.memory", "2Gi",
                    "config.sources.eventlogfile.enabled", true,
                    "config.sources.pubsub.topics[0]", "*")))
        .contains("= 1536 MiB) is below the 3184 MiB");
  }

  private static void assertProbe(
      Probe p, String path, int initial, int period, int timeout, int failures) {
    assertThat(p.getHttpGet().getPath()).isEqualTo(path);
    assertThat(p.getHttpGet().getPort().getStrVal()).isEqualTo("health");
    assertThat(p.getInitialDelaySeconds()).isEqualTo(initial);
    assertThat(p.getPeriodSeconds()).isEqualTo(period);
    assertThat(p.getTimeoutSeconds()).isEqualTo(timeout);
    assertThat(p.getFailureThreshold()).isEqualTo(failures);
  }

  private static Container container(HelmChart.Rendered r) {
    return r.one(Deployment.class).getSpec().getTemplate().getSpec().getContainers().get(0);
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

  private static String readString(Path p) {
    try {
      return Files.readString(p);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
