package io.sf2loki.app.config;

import io.sf2loki.app.config.LokiConfig.Batch;
import io.sf2loki.app.config.LokiConfig.Egress;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * Binds {@code sink.loki} (SPEC §1.3, CFG-15, CFG-20, CFG-23). Package-private part of {@link
 * ConfigBinder}.
 */
final class LokiBinding {
  private final SecretResolver secrets;
  private final Section.Problems problems;
  private final List<String> warnings;

  LokiBinding(SecretResolver secrets, Section.Problems problems, List<String> warnings) {
    this.secrets = secrets;
    this.problems = problems;
    this.warnings = warnings;
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
    LokiConfig.Encoding encoding =
        s.enumValue(SinkKeys.ENCODING, LokiConfig.Encoding.values(), false);
    boolean compressionExplicit = s.has("compression");
    LokiConfig.Compression compression =
        s.enumValue(SinkKeys.COMPRESSION, LokiConfig.Compression.values(), false);
    if (compressionExplicit) {
      if (encoding == LokiConfig.Encoding.PROTOBUF
          && compression != LokiConfig.Compression.SNAPPY) {
        warnings.add(
            "sink.loki.compression="
                + compression.yaml()
                + " is ignored with encoding=protobuf; protobuf bodies are always snappy (CFG-23)");
      } else if (encoding == LokiConfig.Encoding.JSON
          && compression == LokiConfig.Compression.SNAPPY) {
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
    Batch batch = batch(s.section("batch", ConfigBinder.BATCH_KEYS));
    Egress egress = egress(s.section("egress", ConfigBinder.EGRESS_KEYS));
    return new LokiConfig(
        url,
        s.optString("tenant_id").filter(t -> !t.isEmpty()),
        secrets.resolve(s, "auth_token"),
        encoding,
        compression,
        compressionExplicit,
        Collections.unmodifiableMap(s.stringMap("labels")),
        s.stringList(SinkKeys.STRUCTURED_METADATA_FIELDS),
        s.enumValue(
            SinkKeys.STRUCTURED_METADATA, LokiConfig.StructuredMetadataMode.values(), false),
        s.enumValue(SinkKeys.LATE_ENTRIES, LokiConfig.LateEntries.values(), false),
        outOfOrderWindow,
        maxTrackedStreams,
        s.duration(SinkKeys.REQUEST_TIMEOUT),
        batch,
        egress,
        snappyTempdir(s));
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

  private static Batch batch(Section b) {
    int maxEntries = b.intValue(SinkKeys.MAX_ENTRIES);
    long maxBytes = b.integer(SinkKeys.MAX_BYTES);
    int queueMax = b.intValue(SinkKeys.QUEUE_MAXSIZE);
    long queueMaxBytes = b.integer(SinkKeys.QUEUE_MAX_BYTES);
    return new Batch(
        maxEntries,
        maxBytes,
        b.duration(SinkKeys.FLUSH_INTERVAL),
        b.integer(SinkKeys.MAX_LINE_BYTES),
        queueMax,
        queueMaxBytes);
  }

  private static Egress egress(Section e) {
    double lines = e.number(SinkKeys.MAX_LINES_PER_SECOND);
    e.checkBounds(SinkKeys.MAX_LINES_PER_SECOND, lines);
    double bytes = e.number(SinkKeys.MAX_BYTES_PER_SECOND);
    e.checkBounds(SinkKeys.MAX_BYTES_PER_SECOND, bytes);
    long budget = e.integer(SinkKeys.DAILY_BYTE_BUDGET);
    return new Egress(
        lines,
        bytes,
        budget,
        e.enumValue(SinkKeys.BUDGET_ACTION, LokiConfig.BudgetAction.values(), false));
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
