package io.sf2loki.salesforce.elf;

import de.siegmar.fastcsv.reader.CloseableIterator;
import de.siegmar.fastcsv.reader.CsvParseException;
import de.siegmar.fastcsv.reader.CsvReader;
import de.siegmar.fastcsv.reader.CsvRecord;
import de.siegmar.fastcsv.reader.CsvRecordHandler;
import de.siegmar.fastcsv.reader.FieldMismatchStrategy;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PushbackReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Streams the rows of one EventLogFile CSV body (SPEC ELF-9) with FastCSV: RFC 4180 (quoted fields
 * may hold separators, doubled quotes and line breaks), UTF-8 with invalid bytes replaced by
 * U+FFFD, a leading BOM removed, the header row naming the columns. Extra cells are joined with
 * {@code ,} under {@code _extra}, missing cells are {@code ""}, empty physical lines outside quotes
 * are no record, and fields up to {@value #MAX_FIELD_CHARS} characters are accepted (longer ones
 * are a parse error, as are an unclosed quote at the end of the body and characters after a closing
 * quote). Not thread-safe; one reader may be driven from different threads one call at a time.
 */
final class ElfCsvReader implements AutoCloseable {
  /** Largest accepted field, in characters (1 MiB, ELF-9). */
  static final int MAX_FIELD_CHARS = 1024 * 1024;

  /** Key of the joined surplus cells (ELF-9). */
  static final String EXTRA_KEY = "_extra";

  private final CsvReader<CsvRecord> csv;
  private final CloseableIterator<CsvRecord> it;
  private final String[] header;
  private final CsvRow.Layout layout;
  private long rowsRead;

  /**
   * Opens the body and reads its header row.
   *
   * @param body the whole CSV body; closed by {@link #close()}
   * @throws ElfCsvParseException when the header row cannot be parsed
   * @throws IOException when reading the body fails
   */
  ElfCsvReader(InputStream body) throws IOException, ElfCsvParseException {
    CharsetDecoder decoder =
        StandardCharsets.UTF_8
            .newDecoder()
            .onMalformedInput(CodingErrorAction.REPLACE)
            .onUnmappableCharacter(CodingErrorAction.REPLACE);
    PushbackReader reader = new PushbackReader(new InputStreamReader(body, decoder), 1);
    skipBom(reader);
    csv =
        CsvReader.builder()
            .skipEmptyLines(true)
            .detectBomHeader(false)
            .allowUnclosedQuote(false)
            .allowExtraCharsAfterClosingQuote(false)
            .extraFieldStrategy(FieldMismatchStrategy.IGNORE)
            .missingFieldStrategy(FieldMismatchStrategy.IGNORE)
            .build(
                CsvRecordHandler.of(
                    b -> b.maxFieldSize(MAX_FIELD_CHARS).maxRecordSize(64 * MAX_FIELD_CHARS)),
                (Reader) reader);
    it = csv.iterator();
    CsvRecord first;
    try {
      first = it.hasNext() ? it.next() : null;
    } catch (CsvParseException e) {
      throw new ElfCsvParseException(0, e);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    header = first == null ? new String[0] : first.getFields().toArray(String[]::new);
    layout = new CsvRow.Layout(header);
  }

  private static void skipBom(PushbackReader reader) throws IOException {
    int c = reader.read();
    if (c != -1 && c != '\uFEFF') {
      reader.unread(c);
    }
  }

  /** The header row's column names (empty for an empty body). */
  List<String> header() {
    return List.of(header);
  }

  /** Data rows returned so far. */
  long rowsRead() {
    return rowsRead;
  }

  /**
   * The next data row as column → string value (plus {@code _extra}), or null at the end: a
   * read-only {@link CsvRow} view over the parsed cells (see {@link CsvRow#toMutableMap()}).
   *
   * @throws ElfCsvParseException on malformed CSV (unclosed quote, characters after a closing
   *     quote, a field longer than {@value #MAX_FIELD_CHARS} characters); its row number is 1-based
   * @throws IOException when reading the body fails
   */
  Map<String, Object> next() throws IOException, ElfCsvParseException {
    if (header.length == 0) {
      return null;
    }
    CsvRecord rec;
    try {
      if (!it.hasNext()) {
        return null;
      }
      rec = it.next();
    } catch (CsvParseException e) {
      throw new ElfCsvParseException(rowsRead + 1, e);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
    rowsRead++;
    return new CsvRow(layout, rec.getFields());
  }

  @Override
  public void close() throws IOException {
    csv.close();
  }

  /** A CSV body that cannot be parsed (ELF-9, ELF-12 reason {@code parse}). */
  static final class ElfCsvParseException extends Exception {
    private final long row;

    ElfCsvParseException(long row, Throwable cause) {
      super("CSV parse error at data row " + row + ": " + cause.getMessage(), cause);
      this.row = row;
    }

    /** 1-based data row number (0 = header row). */
    long row() {
      return row;
    }
  }
}
