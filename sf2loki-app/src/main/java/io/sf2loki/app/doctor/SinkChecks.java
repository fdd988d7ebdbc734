package io.sf2loki.app.doctor;

import io.opentelemetry.api.metrics.MeterProvider;
import io.sf2loki.app.cli.Version;
import io.sf2loki.app.config.Sf2lokiConfig;
import io.sf2loki.app.run.Components;
import io.sf2loki.app.telemetry.Telemetry;
import io.sf2loki.app.telemetry.TelemetrySettings;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.Batch;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.spi.SinkException;
import io.sf2loki.core.time.Sleeper;
import io.sf2loki.loki.LokiHttpSink;
import io.sf2loki.loki.LokiSinkSettings;
import io.sf2loki.loki.MetadataMode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** DOC-2 rows 7 ({@code loki}, the only write to Loki) and 9 ({@code telemetry}). */
final class SinkChecks {
  /** Timeout of the telemetry probe request. */
  static final Duration TELEMETRY_TIMEOUT = Duration.ofSeconds(10);

  private SinkChecks() {}

  /**
   * Row 7 *(c)*: one entry through the real sink, single attempt: labels {@code
   * {source="sf2loki-doctor"}} plus the static labels, structured metadata {@code level=info}.
   */
  static Check loki(Sf2lokiConfig cfg, Map<String, String> staticLabels, Instant now)
      throws InterruptedException {
    return loki(cfg, Components.sink(cfg), "loki", staticLabels, now);
  }

  /**
   * Row 7 through {@code settings} (FEAT-9, DOC-6: an org's own Loki identity, FEAT-6), as row
   * {@code name}.
   */
  static Check loki(
      Sf2lokiConfig cfg,
      LokiSinkSettings settings,
      String name,
      Map<String, String> staticLabels,
      Instant now)
      throws InterruptedException {
    String url = Components.scrub(cfg.loki().url());
    Map<String, String> labels = new LinkedHashMap<>(staticLabels);
    labels.put("source", "sf2loki-doctor");
    String line = "{\"msg\": \"sf2loki doctor test write\", \"ts\": \"" + now + "\"}";
    LogEntry entry =
        LogEntry.of(
            now, labels, line, Map.of("level", "info"), new CheckpointToken("sf2loki-doctor", "0"));
    Sf2lokiMetrics metrics = new Sf2lokiMetrics(MeterProvider.noop(), Version.get());
    try (LokiHttpSink sink = new LokiHttpSink(settings, metrics, Sleeper.system(), new Random())) {
      boolean metadataBefore = sink.metadataEnabled();
      long t0 = System.nanoTime();
      sink.push(new Batch(List.of(entry)), true);
      long ms = (System.nanoTime() - t0) / 1_000_000;
      if (metadataBefore && !sink.metadataEnabled()) {
        return Check.warn(
            name,
            "pushed to "
                + url
                + " in "
                + ms
                + " ms, but Loki rejects structured metadata: under structured_metadata: auto"
                + " entries will be sent without it (SINK-12)");
      }
      return Check.pass(name, "pushed 1 entry to " + url + " in " + ms + " ms");
    } catch (SinkException e) {
      return Check.fail(name, lokiFailure(e, settings, url, cfg));
    }
  }

  /** The settings' token, or a string no body contains (DOC-3: an org's own token, FEAT-6). */
  private static String tokenOf(LokiSinkSettings settings) {
    return settings.authToken() == null ? "\u0000no-token\u0000" : settings.authToken();
  }

  /** DOC-5: at most this many characters of Loki's response body appear in the FAIL row. */
  static final int BODY_IN_ROW = 200;

  private static String lokiFailure(
      SinkException e, LokiSinkSettings settings, String url, Sf2lokiConfig cfg) {
    String base =
        SalesforceChecks.withStatus(e.status(), e.getMessage())
            + responseBody(e.responseBody(), cfg).replace(tokenOf(settings), "***");
    if (e.getMessage() != null && e.getMessage().contains("structured metadata")) {
      return base
          + (settings.structuredMetadata() == MetadataMode.ON
              ? " — hint: structured_metadata is on; enable it in Loki"
                  + " (allow_structured_metadata) or set sink.loki.structured_metadata: auto"
              : "");
    }
    if (e.status() == 401 || e.status() == 403) {
      return base
          + " — hint: check sink.loki.tenant_id and auth_token (the tenant must exist and the"
          + " token needs logs:write scope)";
    }
    if (e.status() == 0) {
      return base + " — hint: cannot reach " + url + "; check sink.loki.url";
    }
    return base;
  }

  /**
   * DOC-5: {@code "; loki said: <body>"} with Loki's body on one line, cut to {@link #BODY_IN_ROW}
   * characters (an ellipsis marks the cut), and the configured Loki and telemetry tokens replaced
   * by {@code ***} (DOC-3); {@code ""} when the body is empty.
   */
  static String responseBody(String body, Sf2lokiConfig cfg) {
    String one = body == null ? "" : body.replaceAll("\\s+", " ").strip();
    if (one.isEmpty()) {
      return "";
    }
    for (var secret :
        List.of(
            cfg.loki().authToken(),
            java.util.Optional.ofNullable(cfg.service().telemetry().basicAuthToken())
                .filter(t -> !t.isEmpty())
                .map(io.sf2loki.app.config.Secret::new))) {
      if (secret.isPresent() && !secret.get().reveal().isEmpty()) {
        one = one.replace(secret.get().reveal(), "***");
      }
    }
    if (one.length() > BODY_IN_ROW) {
      one = one.substring(0, BODY_IN_ROW) + "…";
    }
    return "; loki said: " + one;
  }

  /** Row 9: an empty OTLP/HTTP POST with the computed headers (OBS-1). */
  static Check telemetry(Sf2lokiConfig cfg) throws InterruptedException {
    TelemetrySettings ts = Components.telemetry(cfg);
    if (!ts.otlpEnabled()) {
      return Check.skip("telemetry", "OTLP export is disabled");
    }
    if (ts.endpoint() == null || ts.endpoint().isBlank()) {
      return Check.fail("telemetry", "service.telemetry.endpoint is empty");
    }
    String url = Components.scrub(ts.endpoint());
    HttpRequest.Builder req =
        HttpRequest.newBuilder(URI.create(ts.endpoint()))
            .timeout(TELEMETRY_TIMEOUT)
            .header("Content-Type", "application/x-protobuf")
            .POST(HttpRequest.BodyPublishers.noBody());
    Telemetry.otlpHeaders(ts).forEach(req::header);
    try (HttpClient http = HttpClient.newBuilder().connectTimeout(TELEMETRY_TIMEOUT).build()) {
      int status = http.send(req.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
      if (status / 100 == 2) {
        return Check.pass("telemetry", url + " answered " + status);
      }
      if (status == 401 || status == 403) {
        return Check.fail(
            "telemetry",
            url
                + " answered "
                + status
                + " — hint: check service.telemetry.basic_auth_user / basic_auth_token (they"
                + " default to sink.loki.tenant_id / auth_token) or telemetry.headers");
      }
      return Check.fail("telemetry", url + " answered " + status);
    } catch (IOException e) {
      return Check.fail("telemetry", "cannot reach " + url + ": " + e.getMessage());
    }
  }
}
