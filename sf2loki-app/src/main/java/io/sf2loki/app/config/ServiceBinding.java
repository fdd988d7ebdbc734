package io.sf2loki.app.config;

import io.sf2loki.app.config.CoordinateConfig.FileLease;
import io.sf2loki.app.config.CoordinateConfig.K8sLease;
import io.sf2loki.app.telemetry.TelemetrySettings;
import java.nio.file.Path;
import java.util.Collections;
import java.util.Optional;

/**
 * Binds {@code coordinate} and {@code service} (SPEC §1.3, CFG-9, CFG-21). Package-private part of
 * {@link ConfigBinder}.
 */
final class ServiceBinding {
  private ServiceBinding() {}

  static CoordinateConfig coordinate(Section s) {
    CoordinateConfig.Type type = s.enumValue(StateKeys.TYPE, CoordinateConfig.Type.values(), false);
    Section f = s.section("file_lease", ConfigBinder.FILE_LEASE_KEYS);
    FileLease fl =
        new FileLease(Path.of(f.string(StateKeys.FL_PATH)), ObjectLeaseBinding.lease(f, "ttl"));
    Section k = s.section("k8s_lease", ConfigBinder.K8S_LEASE_KEYS);
    String namespace = k.string(StateKeys.K8S_NAMESPACE);
    String name = k.string(StateKeys.K8S_NAME);
    String identity = k.string(StateKeys.K8S_IDENTITY);
    java.time.Duration leaseDuration = k.duration(StateKeys.K8S_LEASE_DURATION);
    java.time.Duration renew = k.duration(StateKeys.RENEW_INTERVAL);
    Optional<Path> kubeconfig = k.optString("kubeconfig").filter(v -> !v.isEmpty()).map(Path::of);
    K8sLease kl =
        new K8sLease(
            namespace,
            name,
            kubeconfig,
            ObjectLeaseBinding.configured(k, identity, leaseDuration, renew, "lease_duration"));
    return new CoordinateConfig(
        type,
        fl,
        kl,
        ObjectLeaseBinding.s3(s, type),
        ObjectLeaseBinding.gcs(s, type),
        s.bool(StateKeys.PER_ORG),
        s.intValue(StateKeys.MAX_ORGS_PER_REPLICA));
  }

  /**
   * CFG-43, CFG-44: {@code per_org} needs a lease that has a per-org form ({@code file_lease},
   * {@code k8s_lease}) and an {@code orgs} list; {@code max_orgs_per_replica} needs {@code
   * per_org}.
   */
  static void checkSharding(
      Section s, CoordinateConfig c, boolean multiOrg, java.util.List<OrgConfig> orgs) {
    if (c.perOrg() && c.type() == CoordinateConfig.Type.K8S_LEASE) {
      java.util.Map<String, String> seen = new java.util.HashMap<>();
      for (OrgConfig o : orgs) {
        String lease = io.sf2loki.state.shard.ShardNames.k8sOrg(c.k8sLease().name(), o.name());
        String other = seen.putIfAbsent(lease, o.name());
        if (!io.sf2loki.state.shard.ShardNames.validK8sName(lease)) {
          s.problem(
              "per_org",
              "org '"
                  + o.name()
                  + "' gives the Lease name '"
                  + lease
                  + "', not a valid"
                  + " Kubernetes name (lower-case letters, digits, '-', ending alphanumeric)");
        } else if (other != null) {
          s.problem(
              "per_org",
              "orgs '" + other + "' and '" + o.name() + "' share the Lease name '" + lease + "'");
        }
      }
    }
    if (c.perOrg()) {
      if (c.type() != CoordinateConfig.Type.FILE_LEASE
          && c.type() != CoordinateConfig.Type.K8S_LEASE) {
        s.problem(
            "per_org",
            "needs coordinate.type file_lease or k8s_lease (got "
                + c.type().yaml()
                + "): one lease per org is what lets replicas share the orgs");
      }
      if (!multiOrg) {
        s.problem(
            "per_org",
            "needs an orgs list: a single-org configuration (salesforce) has nothing to share"
                + " between replicas");
      }
    } else if (c.maxOrgsPerReplica() > 0) {
      s.problem("max_orgs_per_replica", "only applies with coordinate.per_org: true");
    }
  }

  static ServiceConfig service(
      SecretResolver secrets, Section s, LokiConfig loki, java.util.List<String> warnings) {
    String healthAddr = s.string(ServiceKeys.HEALTH_ADDR);
    checkHostPort(s, "health_addr", healthAddr);
    Section t = s.section("telemetry", ConfigBinder.TELEMETRY_KEYS);
    boolean enabled = t.bool(ServiceKeys.T_ENABLED);
    String endpoint = t.string(ServiceKeys.T_ENDPOINT);
    TelemetrySettings.Auth auth = t.choice(ServiceKeys.T_AUTH, TelemetrySettings.Auth.class);
    String user = t.string(ServiceKeys.T_USER);
    if (user.isEmpty() && loki != null) {
      user = loki.tenantId().orElse("");
    }
    Optional<Secret> token = secrets.resolve(t, "basic_auth_token");
    boolean lokiToken = token.isEmpty() && loki != null && loki.authToken().isPresent();
    if (token.isEmpty() && loki != null) {
      token = loki.authToken();
    }
    if (enabled && lokiToken && auth == TelemetrySettings.Auth.BASIC) {
      OtelEnvironment.crossHostWarning(endpoint, loki.url()).ifPresent(warnings::add); // OBS-30
    }
    if (enabled) {
      if (endpoint.isBlank()) {
        t.problem("endpoint", "required when telemetry is enabled");
      }
      if (auth == TelemetrySettings.Auth.BASIC) {
        if (user.isEmpty()) {
          t.problem(
              "basic_auth_user",
              "required for auth=basic (set basic_auth_user or sink.loki.tenant_id)");
        }
        if (token.isEmpty()) {
          t.problem(
              "basic_auth_token",
              "required for auth=basic (set basic_auth_token, basic_auth_token_file or"
                  + " sink.loki.auth_token)");
        }
      }
    }
    Section p = t.section("prometheus", ConfigBinder.PROMETHEUS_KEYS);
    var headers = Collections.unmodifiableMap(t.stringMap("headers"));
    var exportInterval = t.duration(ServiceKeys.T_EXPORT_INTERVAL);
    var attributes = Collections.unmodifiableMap(t.stringMap("resource_attributes"));
    boolean prometheus = p.bool(ServiceKeys.PROMETHEUS_ENABLED);
    String basicUser = user;
    String basicToken = token.map(Secret::reveal).orElse("");
    TelemetrySettings telemetry =
        t.build(
            () ->
                new TelemetrySettings(
                    enabled,
                    endpoint,
                    auth,
                    basicUser,
                    basicToken,
                    headers,
                    exportInterval,
                    attributes,
                    prometheus));
    return new ServiceConfig(
        s.enumValue(ServiceKeys.LOG_LEVEL, ServiceConfig.LogLevel.values(), true),
        s.enumValue(ServiceKeys.LOG_FORMAT, ServiceConfig.LogFormat.values(), false),
        healthAddr,
        s.duration(ServiceKeys.SHUTDOWN_GRACE),
        s.duration(ServiceKeys.UNREADY_AFTER_SINK_FAILING),
        s.duration(ServiceKeys.LIVENESS_TIMEOUT),
        telemetry,
        t.bool(ServiceKeys.T_DROP_ATTRIBUTION));
  }

  private static void checkHostPort(Section s, String key, String value) {
    int colon = value.lastIndexOf(':');
    boolean ok = colon >= 0;
    if (ok) {
      String port = value.substring(colon + 1);
      ok = port.matches("\\d{1,5}") && Integer.parseInt(port) <= 65535;
    }
    if (!ok) {
      s.problem(key, "must be host:port (e.g. :8080 or 127.0.0.1:8080), got '" + value + "'");
    }
  }
}
