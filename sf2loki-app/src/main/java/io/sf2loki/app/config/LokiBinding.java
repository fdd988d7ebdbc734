package io.sf2loki.app.config;

import io.sf2loki.core.egress.BudgetAction;
import io.sf2loki.core.egress.EgressSettings;
import io.sf2loki.core.pipeline.PipelineSettings;
import io.sf2loki.loki.Compression;
import io.sf2loki.loki.Encoding;
import io.sf2loki.loki.LokiSinkSettings;
import io.sf2loki.loki.MetadataMode;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Binds {@code sink.loki} (SPEC §1.3, CFG-15, CFG-20, CFG-23). Package-private part of {@link
 * ConfigBinder}.
 */
final class LokiBinding {
  private final SecretResolver secrets;
  private final Section.Problems problems;
  private final List<String> warnings;
  private PipelineSettings batch;

  LokiBinding(SecretResolver secrets, Section.Problems problems, List<String> warnings) {
    this.secrets = secrets;
    this.problems = problems;
    this.warnings = warnings;
  }

  /** The bound {@code sink.loki.batch} (PIPE-3, PIPE-5) once {@link #bind} ran. */
  PipelineSettings batch() {
    return batch;
  }

  LokiConfig bind(Section s) {
    String url = s.string("url", null);
    if (url == null || url.isBlank()) {
      s.problem("url", "required");
      url = "";
    } else {
      try {
        URI u = new URI(url);
        if (u.getScheme() == null
            || !(u.getScheme().equalsIgnoreCase("http") || u.getScheme().equalsIgnoreCase("https"))
            || u.getHost() == null) {
          s.problem("url", "must be an absolute http(s) URL, e.g. https://host/loki/api/v1/push");
        }
      } catch (URISyntaxException e) {
        s.problem("url", "is not a valid URL: " + e.getReason());
      }
    }
    Encoding encoding = s.choice(SinkKeys.ENCODING, Encoding.class);
    boolean compressionExplicit = s.has("compression");
    Compression compression = s.choice(SinkKeys.COMPRESSION, Compression.class);
    if (compressionExplicit) {
      if (encoding == Encoding.PROTOBUF && compression != Compression.SNAPPY) {
        warnings.add(
            "sink.loki.compression="
                + compression.name().toLowerCase(java.util.Locale.ROOT)
                + " is ignored with encoding=protobuf; protobuf bodies are always snappy (CFG-23)");
      } else if (encoding == Encoding.JSON && compression == Compression.SNAPPY) {
        warnings.add(
            "sink.loki.compression=snappy is not supported with encoding=json; JSON bodies are"
                + " sent uncompressed (use gzip or none) (CFG-23)");
      }
    }
    Duration outOfOrderWindow = s.duration(SinkKeys.OUT_OF_ORDER_WINDOW);
    if (outOfOrderWindow.isNegative()) {
      s.problem("out_of_order_window", "must not be negative");
    }
    int maxTrackedStreams = s.intValue(SinkKeys.MAX_TRACKED_STREAMS);
    Duration requestTimeout = s.duration(SinkKeys.REQUEST_TIMEOUT);
    Section b = s.section("batch", ConfigBinder.BATCH_KEYS);
    batch = batch(b);
    long maxLineBytes = b.integer(SinkKeys.MAX_LINE_BYTES);
    EgressSettings egress = egress(s.section("egress", ConfigBinder.EGRESS_KEYS));
    Optional<String> tenantId = s.optString("tenant_id").filter(t -> !t.isEmpty());
    Optional<Secret> token = secrets.resolve(s, "auth_token");
    Map<String, String> labels = Collections.unmodifiableMap(s.stringMap("labels"));
    List<String> metadataFields = s.stringList(SinkKeys.STRUCTURED_METADATA_FIELDS);
    MetadataMode metadata = s.choice(SinkKeys.STRUCTURED_METADATA, MetadataMode.class);
    LokiSinkSettings.LateEntries late =
        s.choice(SinkKeys.LATE_ENTRIES, LokiSinkSettings.LateEntries.class);
    String pushUrl = url;
    PipelineSettings p = batch;
    LokiSinkSettings push =
        s.build(
            () ->
                new LokiSinkSettings(
                        URI.create(pushUrl),
                        tenantId.orElse(null),
                        token.map(Secret::reveal).orElse(null),
                        encoding,
                        compression,
                        metadata,
                        null,
                        null,
                        requestTimeout)
                    .withLateEntries(late)
                    .withBatchLimits(p == null ? 0 : p.maxEntries(), p == null ? 0 : p.maxBytes())
                    .withLateRouting(outOfOrderWindow, maxTrackedStreams));
    return new LokiConfig(push, labels, metadataFields, maxLineBytes, egress, snappyTempdir(s));
  }

  /** CFG-34: {@code sink.loki.snappy_tempdir}, an existing directory when set. */
  private static Optional<java.nio.file.Path> snappyTempdir(Section s) {
    String dir = s.string("snappy_tempdir", "");
    if (dir.isBlank()) {
      return Optional.empty();
    }
    java.nio.file.Path p = java.nio.file.Path.of(dir);
    if (!java.nio.file.Files.isDirectory(p)) {
      s.problem("snappy_tempdir", "not a directory: " + dir);
    }
    return Optional.of(p);
  }

  /**
   * {@code sink.loki.batch} → the pipeline bounds (PIPE-3, PIPE-5); no static labels yet, the SPEC
   * shutdown grace and write interval until the binder sets {@code service.shutdown_grace} and
   * {@code state.min_write_interval} ({@link PipelineSettings#withTiming}).
   */
  private static PipelineSettings batch(Section b) {
    int maxEntries = b.intValue(SinkKeys.MAX_ENTRIES);
    long maxBytes = b.integer(SinkKeys.MAX_BYTES);
    int queueMax = b.intValue(SinkKeys.QUEUE_MAXSIZE);
    long queueMaxBytes = b.integer(SinkKeys.QUEUE_MAX_BYTES);
    Duration flush = b.duration(SinkKeys.FLUSH_INTERVAL);
    return b.build(
        () ->
            new PipelineSettings(
                maxEntries,
                maxBytes,
                flush,
                queueMax,
                queueMaxBytes,
                ServiceKeys.SHUTDOWN_GRACE.durationDefault(),
                Duration.ofSeconds(1), // PIPE-7 retry schedule
                Duration.ofSeconds(30),
                Map.of(),
                Duration.ZERO));
  }

  private static EgressSettings egress(Section e) {
    double lines = e.number(SinkKeys.MAX_LINES_PER_SECOND);
    e.checkBounds(SinkKeys.MAX_LINES_PER_SECOND, lines);
    double bytes = e.number(SinkKeys.MAX_BYTES_PER_SECOND);
    e.checkBounds(SinkKeys.MAX_BYTES_PER_SECOND, bytes);
    long budget = e.integer(SinkKeys.DAILY_BYTE_BUDGET);
    BudgetAction action = e.choice(SinkKeys.BUDGET_ACTION, BudgetAction.class);
    return e.build(() -> new EgressSettings(lines, bytes, budget, action));
  }

  /** CFG-15: one problem listing every offending key. */
  static void checkStaticLabels(
      Section.Problems problems, LokiConfig loki, boolean multiOrg, String path) {
    List<String> bad = new ArrayList<>();
    for (String k : loki.labels().keySet()) {
      boolean ok =
          ConfigBinder.STATIC_LABEL_ALLOWLIST.contains(k)
              && !k.equals("source")
              && !k.equals("event_type")
              && ConfigBinder.LABEL_NAME.matcher(k).matches()
              && !(multiOrg
                  && (k.equals("org") || k.equals("sf_org_id") || k.equals("environment")));
      if (!ok) {
        bad.add(k);
      }
    }
    if (!bad.isEmpty()) {
      String allowed =
          multiOrg ? "job, service_name" : "job, service_name, sf_org_id, environment, org";
      problems.add(
          path,
          "label key(s) "
              + String.join(", ", bad)
              + " not allowed; allowed static labels are "
              + allowed
              + (multiOrg
                  ? " (org, sf_org_id and environment are set per org in multi-org mode)"
                  : ""));
    }
  }
}
