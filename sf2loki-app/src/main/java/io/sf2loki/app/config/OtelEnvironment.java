package io.sf2loki.app.config;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.autoconfigure.ResourceConfiguration;
import io.opentelemetry.sdk.autoconfigure.spi.ConfigProperties;
import io.opentelemetry.sdk.autoconfigure.spi.internal.DefaultConfigProperties;
import io.opentelemetry.sdk.resources.Resource;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The standard OpenTelemetry SDK environment variables as defaults of {@code service.telemetry}
 * (SPEC OBS-29, CFG-35). Read through the autoconfigure SDK extension's {@link ConfigProperties}
 * (the same names, spellings and {@code k=v,k2=v2} list syntax as the SDK), without letting it
 * build the SDK: a value only fills a key the configuration (file or {@code SF2LOKI_*}) left unset.
 *
 * <ul>
 *   <li>{@code endpoint} ← {@code OTEL_EXPORTER_OTLP_METRICS_ENDPOINT} (used as is), else {@code
 *       OTEL_EXPORTER_OTLP_ENDPOINT} + {@code /v1/metrics};
 *   <li>{@code headers.<name>} ← {@code OTEL_EXPORTER_OTLP_METRICS_HEADERS}, then {@code
 *       OTEL_EXPORTER_OTLP_HEADERS}, per header name;
 *   <li>{@code resource_attributes.<key>} ← {@code OTEL_RESOURCE_ATTRIBUTES}, and {@code
 *       service.name} ← {@code OTEL_SERVICE_NAME} (which wins over the attribute list, as in the
 *       SDK), per key.
 * </ul>
 */
final class OtelEnvironment {
  private OtelEnvironment() {}

  /**
   * Fills unset {@code service.telemetry} keys of {@code tree} from {@code env}.
   *
   * @param tree the merged configuration tree (after {@code SF2LOKI_*} overrides)
   * @param env the process environment (injected; tests pass a map)
   */
  static void applyDefaults(ObjectNode tree, Map<String, String> env) {
    ConfigProperties otel = DefaultConfigProperties.createFromMap(otelOnly(env));
    String metricsEndpoint = otel.getString("otel.exporter.otlp.metrics.endpoint");
    String baseEndpoint = otel.getString("otel.exporter.otlp.endpoint");
    Map<String, String> headers = new LinkedHashMap<>(otel.getMap("otel.exporter.otlp.headers"));
    headers.putAll(otel.getMap("otel.exporter.otlp.metrics.headers"));
    Map<String, String> attributes = new LinkedHashMap<>();
    Resource env0 = ResourceConfiguration.createEnvironmentResource(otel);
    env0.getAttributes().forEach((k, v) -> attributes.put(k.getKey(), String.valueOf(v)));
    String serviceName = env0.getAttribute(AttributeKey.stringKey("service.name"));
    if (serviceName != null) {
      attributes.put("service.name", serviceName);
    }
    if (metricsEndpoint == null
        && baseEndpoint == null
        && headers.isEmpty()
        && attributes.isEmpty()) {
      return;
    }
    ObjectNode telemetry = objectAt(objectAt(tree, "service"), "telemetry");
    JsonNode endpoint = telemetry.get("endpoint");
    if (endpoint == null || endpoint.isNull() || endpoint.asText().isBlank()) {
      if (metricsEndpoint != null && !metricsEndpoint.isBlank()) {
        telemetry.put("endpoint", metricsEndpoint);
      } else if (baseEndpoint != null && !baseEndpoint.isBlank()) {
        telemetry.put("endpoint", stripSlash(baseEndpoint) + "/v1/metrics");
      }
    }
    fillMap(telemetry, "headers", headers);
    fillMap(telemetry, "resource_attributes", attributes);
  }

  /**
   * OBS-30: the startup WARN when {@code auth=basic} would send the Loki token (the CFG-9 fallback)
   * to an OTLP endpoint on another host than Loki's (host names compared case-insensitively, ports
   * ignored); empty when the hosts match or either URL has no host.
   */
  static Optional<String> crossHostWarning(String otlpEndpoint, String lokiUrl) {
    String otlpHost = host(otlpEndpoint);
    String lokiHost = host(lokiUrl);
    if (otlpHost == null || lokiHost == null || otlpHost.equalsIgnoreCase(lokiHost)) {
      return Optional.empty();
    }
    return Optional.of(
        "service.telemetry: auth=basic sends the Loki credentials (sink.loki.auth_token) to "
            + otlpHost
            + ", not to Loki's host "
            + lokiHost
            + "; set telemetry.basic_auth_token (or auth: none) if that host should not get them"
            + " (OBS-30)");
  }

  private static String host(String url) {
    try {
      return url == null || url.isBlank() ? null : URI.create(url.strip()).getHost();
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  private static Map<String, String> otelOnly(Map<String, String> env) {
    Map<String, String> out = new LinkedHashMap<>();
    env.forEach(
        (k, v) -> {
          if (k.startsWith("OTEL_") && v != null) {
            out.put(k, v);
          }
        });
    return out;
  }

  private static void fillMap(ObjectNode parent, String key, Map<String, String> values) {
    if (values.isEmpty()) {
      return;
    }
    JsonNode existing = parent.get(key);
    if (existing != null && !existing.isObject() && !existing.isNull()) {
      return; // a malformed value: the binder reports it
    }
    ObjectNode map = objectAt(parent, key);
    values.forEach(
        (k, v) -> {
          boolean present = false;
          for (var it = map.fieldNames(); it.hasNext(); ) {
            present |= it.next().equalsIgnoreCase(k) && key.equals("headers");
          }
          if (!present && !map.has(k)) {
            map.put(k, v);
          }
        });
  }

  private static ObjectNode objectAt(ObjectNode parent, String key) {
    JsonNode n = parent.get(key);
    if (n instanceof ObjectNode o) {
      return o;
    }
    if (n != null && !n.isNull()) {
      return parent.objectNode(); // not a mapping: leave it for the binder to report
    }
    return parent.putObject(key);
  }

  private static String stripSlash(String s) {
    return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
  }
}
