package io.sf2loki.salesforce.elf;

import io.opentelemetry.api.common.Attributes;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.shape.CanonicalJson;
import io.sf2loki.core.shape.Sampler;
import io.sf2loki.core.shape.StructuredMetadataExtractor;
import io.sf2loki.core.shape.TextForm;
import io.sf2loki.core.shape.TimestampParser;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns CSV rows of one EventType into entries (SPEC ELF-14, SRC-4, SRC-9…SRC-14). Immutable and
 * thread-safe; per-file state lives in {@link FileContext}.
 */
final class RowShaper {
  static final String SOURCE = "eventlogfile";

  /** SRC-12 floor: server now − 167 h. */
  static final Duration FALLBACK_FLOOR = Duration.ofHours(167);

  private final String eventType;
  private final List<String> timestampFields;
  private final List<String> promoted;
  private final double sample;
  private final StructuredMetadataExtractor metadata;
  private final RowTransform transform;
  private final Sf2lokiMetrics metrics;
  private final Attributes typeAttrs;
  private final Attributes sourceAttrs;
  private final Attributes eventTypeAttrs;

  RowShaper(
      String eventType,
      String timestampColumn,
      List<String> promoted,
      double sample,
      List<String> metadataFields,
      RowTransform transform,
      Sf2lokiMetrics metrics) {
    this.eventType = eventType;
    this.timestampFields =
        timestampColumn.equals("TIMESTAMP")
            ? List.of("TIMESTAMP")
            : List.of(timestampColumn, "TIMESTAMP");
    this.promoted = List.copyOf(promoted);
    this.sample = sample;
    this.metadata = new StructuredMetadataExtractor(metadataFields);
    this.transform = transform;
    this.metrics = metrics;
    this.typeAttrs =
        Attributes.of(Sf2lokiMetrics.SOURCE, SOURCE, Sf2lokiMetrics.EVENT_TYPE, eventType);
    this.sourceAttrs = Attributes.of(Sf2lokiMetrics.SOURCE, SOURCE);
    this.eventTypeAttrs = Attributes.of(Sf2lokiMetrics.EVENT_TYPE, eventType);
  }

  /**
   * Per-file shaping state: the SRC-12 fallback chain (previous parsed row of the file, else the
   * file's LogDate, else server now, floored at server now − 167 h) and the token rows carry.
   */
  static final class FileContext {
    private final Instant logDate;
    private final Instant serverNow;
    private final CheckpointToken token;
    private CanonicalJson.RowWriter writer;
    private Instant previous;

    /**
     * @param logDate the file's LogDate, or null when it does not parse
     * @param serverNow the cycle's server now (SRC-20)
     * @param token the checkpoint every row of the file carries before the last (ELF-10)
     */
    FileContext(Instant logDate, Instant serverNow, CheckpointToken token) {
      this.logDate = logDate;
      this.serverNow = serverNow;
      this.token = token;
    }

    CheckpointToken token() {
      return token;
    }

    /** Sets the file's CSV header, enabling the pre-sorted row writer (SRC-7 fast path). */
    void header(List<String> header) {
      this.writer = header.isEmpty() ? null : new CanonicalJson.RowWriter(header);
    }

    String line(Map<String, Object> row) {
      if (writer == null) {
        return CanonicalJson.write(row);
      }
      StringBuilder sb = new StringBuilder(64 + row.size() * 32);
      writer.write(row, sb);
      return sb.toString();
    }
  }

  /**
   * Shapes one row.
   *
   * @param row the decoded CSV row (mutated in place by transforms)
   * @return the entry (carrying the file context's token), or null when a transform dropped the row
   *     or sampling left it out
   */
  LogEntry shape(Map<String, Object> row, FileContext ctx) {
    if (!transform.apply(row)) {
      return null;
    }
    String line = null;
    if (sample < 1) {
      Object rid = row.get("REQUEST_ID");
      String key = rid == null ? "" : TextForm.of(rid);
      if (key == null || key.isEmpty()) {
        line = ctx.line(row);
        key = line;
      }
      if (!Sampler.keep(key, sample)) {
        metrics.entriesSampledOut.add(1, typeAttrs);
        return null;
      }
    }
    Instant ts = timestamp(row, ctx);
    Map<String, String> md = metadata.extract(row);
    Map<String, String> labels = new LinkedHashMap<>();
    for (String col : promoted) {
      Object v = row.get(col);
      String text = v == null ? null : TextForm.of(v);
      if (text != null && !text.isEmpty()) {
        labels.put(col, text);
      }
    }
    labels.put("source", SOURCE);
    labels.put("event_type", eventType);
    if (line == null) {
      line = ctx.line(row);
    }
    metrics.eventlogfileRowsIngested.add(1, eventTypeAttrs);
    return LogEntry.of(ts, labels, line, md, ctx.token);
  }

  private Instant timestamp(Map<String, Object> row, FileContext ctx) {
    Optional<Instant> parsed = TimestampParser.firstParsed(row, timestampFields);
    if (parsed.isPresent()) {
      ctx.previous = parsed.get();
      return parsed.get();
    }
    metrics.timestampFallbacks.add(1, sourceAttrs);
    Instant fallback =
        ctx.previous != null ? ctx.previous : ctx.logDate != null ? ctx.logDate : ctx.serverNow;
    Instant floor = ctx.serverNow.minus(FALLBACK_FLOOR);
    return fallback.isBefore(floor) ? floor : fallback;
  }
}
