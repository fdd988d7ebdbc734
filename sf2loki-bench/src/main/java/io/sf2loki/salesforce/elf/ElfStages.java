package io.sf2loki.salesforce.elf;

import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.LogEntry;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Benchmark access to the package-private ELF hot-path stages (issue 6): the CSV reader the source
 * uses ({@link ElfCsvReader}, FastCSV) and the row shaper ({@link RowShaper}). Lives in the bench
 * module under the source's package name so the production classes stay package-private.
 */
public final class ElfStages {
  private ElfStages() {}

  /**
   * Parses a whole CSV body exactly as the source does and returns every row.
   *
   * @throws UncheckedIOException on a parse or I/O error (benchmark data is always valid)
   */
  public static List<Map<String, Object>> parseAll(byte[] csv) {
    List<Map<String, Object>> out = new ArrayList<>();
    try (ElfCsvReader r = new ElfCsvReader(new ByteArrayInputStream(csv))) {
      Map<String, Object> row;
      while ((row = r.next()) != null) {
        out.add(row);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (ElfCsvReader.ElfCsvParseException e) {
      throw new UncheckedIOException(new IOException(e));
    }
    return out;
  }

  /**
   * Parses a CSV body and returns the number of rows, touching each row's field count so nothing is
   * optimised away; the per-row cost of the source's parsing stage.
   */
  public static long parseCount(byte[] csv) {
    long n = 0;
    try (ElfCsvReader r = new ElfCsvReader(new ByteArrayInputStream(csv))) {
      Map<String, Object> row;
      while ((row = r.next()) != null) {
        n += row.size();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (ElfCsvReader.ElfCsvParseException e) {
      throw new UncheckedIOException(new IOException(e));
    }
    return n;
  }

  /**
   * Parses a CSV body as the source does and shapes every row with {@code shaper}: the ELF path's
   * per-row CPU work (CSV → row → transforms → entry).
   *
   * @return the sum of the entries' line lengths (keeps the work observable)
   */
  public static long parseAndShape(byte[] csv, Shaper shaper) {
    long n = 0;
    try (ElfCsvReader r = new ElfCsvReader(new ByteArrayInputStream(csv))) {
      Map<String, Object> row;
      while ((row = r.next()) != null) {
        LogEntry e = shaper.shape(row);
        n += e == null ? 0 : e.line().length();
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (ElfCsvReader.ElfCsvParseException e) {
      throw new UncheckedIOException(new IOException(e));
    }
    return n;
  }

  /** The header row of a CSV body. */
  public static List<String> header(byte[] csv) {
    try (ElfCsvReader r = new ElfCsvReader(new ByteArrayInputStream(csv))) {
      return r.header();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (ElfCsvReader.ElfCsvParseException e) {
      throw new UncheckedIOException(new IOException(e));
    }
  }

  /** One type's row shaper with a file context, as the source builds them for one file. */
  public static final class Shaper {
    private final RowShaper shaper;
    private final RowShaper.FileContext ctx;

    /**
     * @param eventType the EventType (label {@code event_type})
     * @param header the file's CSV header
     * @param metadataFields structured metadata fields (SRC-9)
     * @param metrics the instruments the shaper records into
     */
    public Shaper(
        String eventType,
        List<String> header,
        List<String> metadataFields,
        Sf2lokiMetrics metrics) {
      this(eventType, header, metadataFields, metrics, RowTransform.NONE);
    }

    /**
     * As above, with the type's transforms applied in the shaper exactly as the source does (XF-1).
     *
     * @param transform the compiled rules, or {@link RowTransform#NONE}
     */
    public Shaper(
        String eventType,
        List<String> header,
        List<String> metadataFields,
        Sf2lokiMetrics metrics,
        RowTransform transform) {
      this.shaper =
          new RowShaper(
              eventType,
              EventLogFileSettings.TIMESTAMP_COLUMN.stringDefault(),
              List.of(),
              1.0,
              metadataFields,
              transform,
              metrics);
      Instant now = Instant.now();
      this.ctx =
          new RowShaper.FileContext(
              now, now, new CheckpointToken("eventlogfile:" + eventType, "bench"));
      ctx.header(header);
    }

    /** Shapes one parsed row into its entry. */
    public LogEntry shape(Map<String, Object> row) {
      return shaper.shape(row, ctx);
    }
  }
}
