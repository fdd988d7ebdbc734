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
import io.sf2loki.core.shape.Utf8SizedMap;
import io.sf2loki.salesforce.source.TimestampFallback;
import java.time.Instant;
import java.util.Arrays;
import java.util.Collections;
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

  /** Line buffers grown beyond this many chars are not kept for the next row. */
  static final int MAX_RETAINED_BUFFER = 256 * 1024;

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
  private final Map<String, String> fixedLabels;

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
    Map<String, String> fixed = new LinkedHashMap<>();
    fixed.put("source", SOURCE);
    fixed.put("event_type", eventType);
    this.fixedLabels = Collections.unmodifiableMap(fixed);
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
    private StringBuilder lineBuffer = new StringBuilder(1024);
    private StructuredMetadataExtractor.Compiled compiled;
    private CsvRow.Layout compiledLayout;
    private StructuredMetadataExtractor compiledFor;
    private String[] lastLabelValues;
    private Map<String, String> lastLabels;

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
      StringBuilder sb = lineBuffer;
      sb.setLength(0);
      if (row instanceof CsvRow csv) {
        writer.write(csv.cells(), sb); // same output as the map path (CanonicalJson.RowWriter)
      } else if (row instanceof EditableCsvRow edit && edit.cellBacked()) {
        writer.write(edit.cells(), edit.removedColumns(), sb);
      } else {
        writer.write(row, sb);
      }
      String line = sb.toString();
      if (sb.capacity() > MAX_RETAINED_BUFFER) {
        lineBuffer = new StringBuilder(1024); // do not keep a huge row's buffer for the file
      }
      return line;
    }

    /** Metadata extraction compiled for this file's header (SRC-9), built on first use. */
    Map<String, String> metadata(
        StructuredMetadataExtractor extractor, CsvRow.Layout layout, Map<String, Object> row) {
      if (compiledLayout != layout || compiledFor != extractor) {
        compiled = extractor.compile(layout.allKeys());
        compiledLayout = layout;
        compiledFor = extractor;
      }
      return compiled.extractSubset(row); // the row's keys are among the layout's
    }
  }

  /**
   * Shapes one row.
   *
   * @param row the decoded CSV row (a {@link CsvRow} is edited through an {@link EditableCsvRow}
   *     over it; another map is mutated in place by transforms)
   * @return the entry (carrying the file context's token), or null when a transform dropped the row
   *     or sampling left it out
   */
  LogEntry shape(Map<String, Object> row, FileContext ctx) {
    if (transform != RowTransform.NONE) {
      if (row instanceof CsvRow csv) {
        row = new EditableCsvRow(csv); // edits in place next to the cells (XF-15)
      }
      if (!transform.apply(row)) {
        return null;
      }
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
    // sized here, on the CPU thread that built the values: the lane charges it without a rescan
    Map<String, String> md = Utf8SizedMap.wrap(metadata(row, ctx));
    Map<String, String> labels = labels(row, ctx);
    if (line == null) {
      line = ctx.line(row);
    }
    metrics.eventlogfileRowsIngested.add(1, eventTypeAttrs);
    // SRC-7 lines are ensure_ascii JSON: every char is one UTF-8 byte, so the byte length is the
    // char count (no second scan of the line)
    return new LogEntry(ts, labels, line, md, ctx.token, false, line.length());
  }

  private Map<String, String> metadata(Map<String, Object> row, FileContext ctx) {
    if (row instanceof CsvRow csv) {
      return ctx.metadata(metadata, csv.layout(), csv);
    }
    if (row instanceof EditableCsvRow edit && edit.cellBacked()) {
      return ctx.metadata(metadata, edit.layout(), edit);
    }
    return metadata.extract(row);
  }

  /**
   * The entry's stream labels: promoted columns with a non-empty value (in configured order), then
   * {@code source} and {@code event_type}. Rows with the same promoted values share one
   * unmodifiable map instance (the previous row's, per file), so the pipeline merges static labels
   * and groups streams by identity instead of per row.
   */
  private Map<String, String> labels(Map<String, Object> row, FileContext ctx) {
    if (promoted.isEmpty()) {
      return fixedLabels;
    }
    String[] values = new String[promoted.size()];
    for (int i = 0; i < values.length; i++) {
      Object v = row.get(promoted.get(i));
      String text = v == null ? null : TextForm.of(v);
      values[i] = text == null || text.isEmpty() ? null : text;
    }
    if (ctx.lastLabels != null && Arrays.equals(values, ctx.lastLabelValues)) {
      return ctx.lastLabels;
    }
    Map<String, String> labels = new LinkedHashMap<>();
    for (int i = 0; i < values.length; i++) {
      if (values[i] != null) {
        labels.put(promoted.get(i), values[i]);
      }
    }
    labels.put("source", SOURCE);
    labels.put("event_type", eventType);
    Map<String, String> out = Collections.unmodifiableMap(labels);
    ctx.lastLabelValues = values;
    ctx.lastLabels = out;
    return out;
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
    return TimestampFallback.floored(fallback, ctx.serverNow);
  }
}
