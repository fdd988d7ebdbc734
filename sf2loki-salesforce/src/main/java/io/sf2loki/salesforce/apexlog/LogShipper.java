package io.sf2loki.salesforce.apexlog;

import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.shape.CanonicalJson;
import io.sf2loki.core.shape.Sampler;
import io.sf2loki.core.shape.StructuredMetadataExtractor;
import io.sf2loki.core.shape.TextForm;
import io.sf2loki.core.shape.TimestampParser;
import io.sf2loki.core.spi.EntryEmitter;
import io.sf2loki.core.status.PollReporter;
import io.sf2loki.core.time.StopSignal;
import io.sf2loki.salesforce.rest.DownloadValidator;
import io.sf2loki.salesforce.source.TimestampFallback;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Turns one listed ApexLog into its entry (SPEC APX-3…APX-7): metadata transforms, sampling, the
 * body download with the APX-6 failure rules, metadata and timestamp. Shared by the listing path
 * and the revisit (APX-10). Bodies come from {@link ApexLogBodies} (APX-5/6, SRC-28), which holds
 * the APX-6 failure memory for one term. Not thread-safe; owned by the source's poll thread.
 */
final class LogShipper {
  private static final String SOURCE = ApexLogSource.SOURCE;
  private static final String KEY = ApexLogSource.KEY;

  private final ApexLogSettings settings;
  private final ToolingApi api;
  private final Sf2lokiMetrics metrics;
  private final MetadataTransform transform;
  private final StructuredMetadataExtractor extractor;
  private final Map<String, String> labels = Map.of("source", SOURCE, "event_type", SOURCE);
  private final Attributes sourceAttrs = Attributes.of(Sf2lokiMetrics.SOURCE, SOURCE);
  private final Attributes typeAttrs =
      Attributes.of(Sf2lokiMetrics.SOURCE, SOURCE, Sf2lokiMetrics.EVENT_TYPE, SOURCE);
  private final ApexLogBodies bodies;

  LogShipper(
      ApexLogSettings settings,
      ToolingApi api,
      Sf2lokiMetrics metrics,
      MetadataTransform transform) {
    this.settings = settings;
    this.api = api;
    this.metrics = metrics;
    this.transform = transform;
    this.extractor = new StructuredMetadataExtractor(settings.structuredMetadataFields());
    this.bodies = new ApexLogBodies(api, metrics, settings.maxBodyBytes());
  }

  /** Masks secrets in body failure logs as {@code r} does (OBS-34). Call before the first poll. */
  void reportTo(PollReporter r) {
    bodies.reportTo(r);
  }

  enum Step {
    ADVANCED,
    END
  }

  /**
   * @param step whether the cursor moved past the log or the poll ends before it
   * @param carried the checkpoint value carried by an emitted real entry, or null
   * @param outcome for {@link Step#END}: why
   */
  record LogResult(Step step, String carried, ApexLogSource.Outcome outcome) {
    static LogResult advanced(String carried) {
      return new LogResult(Step.ADVANCED, carried, null);
    }

    static LogResult end(ApexLogSource.Outcome outcome) {
      return new LogResult(Step.END, null, outcome);
    }
  }

  /**
   * APX-3…APX-7 for one log: transforms, sampling, body, entry. On {@link Step#ADVANCED} the caller
   * moves its cursor to {@code advanced} (the revisit passes the unchanged cursor, APX-10).
   *
   * @param advanced the cursor value the entry carries (computed from the original Id and
   *     StartTime, XF-8)
   */
  LogResult process(
      Map<String, Object> rec,
      String id,
      ApexLogCursor advanced,
      EntryEmitter emitter,
      StopSignal stop,
      Instant serverNow)
      throws InterruptedException {
    DownloadValidator.Expectation expected =
        DownloadValidator.Expectation.ofField(rec.get("LogLength"));
    Long logLength = expected.expectedBytes();
    Map<String, Object> metadata = new LinkedHashMap<>(rec);
    metadata.remove("attributes");
    if (!transform.apply(metadata)) {
      return LogResult.advanced(null);
    }
    if (settings.sample() < 1 && !Sampler.keep(id, settings.sample())) {
      metrics.entriesSampledOut.add(1, typeAttrs);
      return LogResult.advanced(null);
    }
    String line;
    String skipReason = null;
    if (logLength != null && logLength > settings.maxBodyBytes()) {
      skipReason = "size";
      line = null;
    } else {
      if (stop.isStopped()) {
        return LogResult.end(ApexLogSource.Outcome.STOPPED);
      }
      ApexLogBodies.Body body = bodies.fetch(id, expected);
      switch (body.kind()) {
        case OK -> line = body.text();
        case TOO_LARGE -> {
          skipReason = "size";
          line = null;
        }
        case SKIP -> {
          skipReason = "download_error";
          line = null;
        }
        case THROTTLED -> {
          return LogResult.end(ApexLogSource.Outcome.THROTTLED);
        }
        default -> {
          return LogResult.end(ApexLogSource.Outcome.BODY_FAILED);
        }
      }
    }
    Map<String, String> md = metadata(metadata);
    if (skipReason != null) {
      line = CanonicalJson.write(metadata);
      md.put("body_skipped", "true");
      md.put("body_skip_reason", skipReason);
      metrics.apexlogBodiesSkipped.add(1, Attributes.of(Sf2lokiMetrics.REASON, skipReason));
    }
    CheckpointToken token = new CheckpointToken(KEY, advanced.toValue());
    LogEntry entry = LogEntry.of(timestamp(metadata, advanced, serverNow), labels, line, md, token);
    if (!emitter.emit(entry)) {
      return LogResult.end(ApexLogSource.Outcome.STOPPED);
    }
    metrics.apexlogLogsIngested.add(1);
    bodies.delivered(id);
    return LogResult.advanced(token.value());
  }

  /** APX-4: configured fields + level, then every non-empty APX-1 field (text form). */
  private Map<String, String> metadata(Map<String, Object> metadata) {
    Map<String, String> md = extractor.extract(metadata);
    for (String f : ApexLogSoql.FIELDS) {
      Object v = metadata.get(f);
      if (v == null) {
        continue;
      }
      String text = TextForm.of(v);
      if (text != null && !text.isEmpty()) {
        md.putIfAbsent(f, text);
      }
    }
    return md;
  }

  /** APX-7 / SRC-12: StartTime, else the watermark floored at server now − 167 h (counted). */
  private Instant timestamp(Map<String, Object> metadata, ApexLogCursor advanced, Instant now) {
    Instant t = TimestampParser.parseOrNull(metadata.get("StartTime"));
    if (t != null) {
      return t;
    }
    metrics.timestampFallbacks.add(1, sourceAttrs);
    Instant fallback = TimestampParser.parseOrNull(advanced.lastTs());
    return TimestampFallback.floored(fallback, now);
  }

  static String str(Object v) {
    return v == null ? null : String.valueOf(v);
  }
}
