package io.sf2loki.salesforce.elf;

import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.salesforce.elf.ElfCsvReader.ElfCsvParseException;
import io.sf2loki.salesforce.elf.EventLogFileSettings.EventTypeSettings;
import io.sf2loki.salesforce.rest.DownloadException;
import io.sf2loki.salesforce.rest.DownloadValidator;
import io.sf2loki.salesforce.rest.SalesforceRest;
import io.sf2loki.salesforce.rest.SoqlException;
import io.sf2loki.salesforce.rest.Spool;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The EventLogFile parts a one-off reader composes (SPEC BF-5, BF-6, BF-7): the ELF-5 listing with
 * its Daily fallback ({@link ElfListing}), ELF-2 discovery, the validated download (ELF-8, SRC-28)
 * and the CSV reader plus row shaper of the live source (ELF-9, ELF-14) with sampling off. Used by
 * {@code sf2loki backfill}; the live {@link EventLogFileSource} keeps its own cycle loop.
 * Thread-safe: listing and downloads may run on several threads; one {@link Rows} belongs to one
 * thread at a time.
 */
public final class ElfFiles {
  private final SalesforceRest rest;
  private final EventLogFileSettings settings;
  private final ElfListing listing;
  private final Sf2lokiMetrics metrics;
  private final RowTransform transform;

  /**
   * One listed file.
   *
   * @param id the EventLogFile Id
   * @param eventType its EventType
   * @param createdDate CreatedDate exactly as received (SRC-16)
   * @param createdAt CreatedDate parsed, or null when it does not parse
   * @param logDate LogDate as received, or null
   * @param lengthField the raw {@code LogFileLength} field (may be null)
   */
  public record ListedFile(
      String id,
      String eventType,
      String createdDate,
      Instant createdAt,
      String logDate,
      Object lengthField) {
    /** {@code LogFileLength} in bytes; 0 when unknown. */
    public long lengthBytes() {
      Long b = DownloadValidator.bytesOf(lengthField);
      return b == null ? 0 : b;
    }
  }

  /**
   * @param rest REST access to the org
   * @param settings the org's {@code sources.eventlogfile} settings (interval, page size, timestamp
   *     column, per-type labels and metadata)
   * @param metrics the instance's metrics
   * @param transform compiled transforms (XF), or {@link RowTransform#NONE}
   */
  public ElfFiles(
      SalesforceRest rest,
      EventLogFileSettings settings,
      Sf2lokiMetrics metrics,
      RowTransform transform) {
    this.rest = Objects.requireNonNull(rest, "rest");
    this.settings = Objects.requireNonNull(settings, "settings");
    this.metrics = Objects.requireNonNull(metrics, "metrics");
    this.transform = Objects.requireNonNull(transform, "transform");
    this.listing = new ElfListing(rest, settings);
  }

  /** The listing page size ({@code sources.eventlogfile.page_size}). */
  public int pageSize() {
    return settings.pageSize();
  }

  /** Salesforce's current time (SRC-20). */
  public Instant serverNow() throws InterruptedException {
    return rest.serverNow();
  }

  /**
   * ELF-2 discovery: the EventTypes that have files of the configured interval, in answer order,
   * without {@code exclude}d names and names that are not SOQL identifiers.
   *
   * @throws SoqlException when the query fails
   */
  public List<String> discover() throws SoqlException, InterruptedException {
    Set<String> names = new LinkedHashSet<>();
    for (Map<String, Object> row : listing.discover()) {
      Object v = row.get("EventType");
      String name = v == null ? null : String.valueOf(v);
      if (name != null && name.matches("[A-Za-z0-9_]+") && !settings.exclude().contains(name)) {
        names.add(name);
      }
    }
    return List.copyOf(names);
  }

  /**
   * One ELF-5 listing page: files of {@code type} with CreatedDate ≥ {@code sinceRaw}, ordered by
   * (CreatedDate, Id), at most {@link #pageSize()}.
   *
   * @param sinceRaw a raw Salesforce timestamp or {@code YYYY-MM-DDTHH:MM:SSZ} (SRC-16)
   * @throws SoqlException when the query fails
   */
  public List<ListedFile> listPage(String type, String sinceRaw)
      throws SoqlException, InterruptedException {
    List<ListedFile> out = new ArrayList<>();
    for (Map<String, Object> rec : listing.list(type, sinceRaw)) {
      String created = str(rec.get("CreatedDate"));
      out.add(
          new ListedFile(
              str(rec.get("Id")),
              type,
              created,
              created == null ? null : SalesforceTimestamps.parse(created).orElse(null),
              str(rec.get("LogDate")),
              rec.get("LogFileLength")));
    }
    return out;
  }

  /** The REST path of a file's body (ELF-8). */
  static String logFilePath(String apiVersion, String fileId) {
    return "/services/data/v"
        + apiVersion
        + "/sobjects/EventLogFile/"
        + URLEncoder.encode(fileId, StandardCharsets.UTF_8)
        + "/LogFile";
  }

  /**
   * Downloads a file's body into a spool, validated against its {@code LogFileLength} (SRC-28).
   *
   * @return the spool; the caller closes it
   * @throws DownloadException on any failure (throttle, HTTP status, invalid body, transport)
   */
  public Spool download(ListedFile file) throws DownloadException, InterruptedException {
    return rest.download(
        logFilePath(rest.apiVersion(), file.id()),
        DownloadValidator.Expectation.ofField(file.lengthField()));
  }

  /**
   * Opens the rows of a downloaded file, shaped as the live source shapes them (ELF-14, SRC-12) but
   * without sampling (BF-7).
   *
   * @param file the listed file
   * @param spool its body (stays owned by the caller)
   * @param serverNow the SRC-12 fallback reference
   * @param token the checkpoint every entry carries
   * @throws IOException when the body cannot be read
   * @throws MalformedLogFileException when the header cannot be parsed
   */
  public Rows rows(ListedFile file, Spool spool, Instant serverNow, CheckpointToken token)
      throws IOException, MalformedLogFileException {
    RowShaper shaper = shaper(file.eventType());
    RowShaper.FileContext ctx =
        new RowShaper.FileContext(
            file.logDate() == null ? null : SalesforceTimestamps.parse(file.logDate()).orElse(null),
            serverNow,
            token);
    ElfCsvReader reader;
    try {
      reader = new ElfCsvReader(spool.open());
    } catch (ElfCsvParseException e) {
      throw new MalformedLogFileException(e.row(), e);
    }
    ctx.header(reader.header());
    return new Rows(reader, shaper, ctx);
  }

  private RowShaper shaper(String type) {
    EventTypeSettings t =
        settings.eventTypes().stream()
            .filter(s -> s.name().equalsIgnoreCase(type))
            .findFirst()
            .orElse(EventTypeSettings.of(type));
    List<String> md =
        t.structuredMetadataFields() != null
            ? t.structuredMetadataFields()
            : settings.structuredMetadataFields();
    return new RowShaper(type, settings.timestampColumn(), t.labels(), 1.0, md, transform, metrics);
  }

  /** The shaped rows of one file, read from its spool. Not thread-safe. */
  public static final class Rows implements AutoCloseable {
    private final ElfCsvReader reader;
    private final RowShaper shaper;
    private final RowShaper.FileContext ctx;
    private boolean eof;

    private Rows(ElfCsvReader reader, RowShaper shaper, RowShaper.FileContext ctx) {
      this.reader = reader;
      this.shaper = shaper;
      this.ctx = ctx;
    }

    /**
     * Up to {@code max} further entries (rows a transform drops are skipped); empty at the end.
     *
     * @throws IOException when reading fails
     * @throws MalformedLogFileException on malformed CSV (ELF-9)
     */
    public List<LogEntry> next(int max) throws IOException, MalformedLogFileException {
      List<LogEntry> out = new ArrayList<>(Math.min(max, 1024));
      while (!eof && out.size() < max) {
        Map<String, Object> row;
        try {
          row = reader.next();
        } catch (ElfCsvParseException e) {
          throw new MalformedLogFileException(e.row(), e);
        }
        if (row == null) {
          eof = true;
          break;
        }
        LogEntry e = shaper.shape(row, ctx);
        if (e != null) {
          out.add(e);
        }
      }
      return out;
    }

    /** Data rows read so far. */
    public long rowsRead() {
      return reader.rowsRead();
    }

    @Override
    public void close() throws IOException {
      reader.close();
    }
  }

  /** A body that is not well-formed CSV (ELF-9); {@link #row()} is the 1-based data row. */
  public static final class MalformedLogFileException extends Exception {
    private final long row;

    MalformedLogFileException(long row, Throwable cause) {
      super(cause.getMessage(), cause);
      this.row = row;
    }

    /** 1-based data row of the error (0 = header). */
    public long row() {
      return row;
    }
  }

  private static String str(Object v) {
    return v == null ? null : String.valueOf(v);
  }
}
