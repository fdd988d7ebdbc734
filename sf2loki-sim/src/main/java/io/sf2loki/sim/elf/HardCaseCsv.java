package io.sf2loki.sim.elf;

import de.siegmar.fastcsv.writer.CsvWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * An EventLogFile CSV full of RFC 4180 edge cases (ELF-9): quoted commas, embedded CRLF, LF and
 * lone CR, doubled quotes, multi-byte UTF-8 (including 4-byte emoji), empty fields and one field
 * larger than 256 KiB. Written by FastCSV with every field quoted.
 *
 * @param csv the file bytes (UTF-8, LF line ends)
 * @param header column names
 * @param rows the data rows exactly as a correct parser must read them back
 */
public record HardCaseCsv(byte[] csv, List<String> header, List<List<String>> rows) {

  /** The default file: event type {@code ApexUnexpectedException}, a 300 KiB big field. */
  public static HardCaseCsv build() {
    return build("ApexUnexpectedException", 300 * 1024);
  }

  /**
   * Builds the file.
   *
   * @param eventType EVENT_TYPE value
   * @param bigFieldBytes UTF-8 size of the one big field (bytes; use more than 256 KiB to cross
   *     Loki's default line limit)
   */
  public static HardCaseCsv build(String eventType, int bigFieldBytes) {
    List<String> header =
        List.of(
            "EVENT_TYPE",
            "TIMESTAMP",
            "REQUEST_ID",
            "ORGANIZATION_ID",
            "USER_ID",
            "URI",
            "MESSAGE",
            "STACK_TRACE",
            "QUERY",
            "TIMESTAMP_DERIVED",
            "USER_ID_DERIVED");
    List<List<String>> rows = new ArrayList<>();
    String user = "005000000000001";
    String user18 = SalesforceIds.id18(user);
    rows.add(
        row(
            eventType,
            0,
            "/services/data/v60.0/query",
            "quoted, commas, here",
            "Class.A.run: line 1, column 1",
            "SELECT Id, Name FROM Account WHERE Name = 'a,b'",
            user,
            user18));
    rows.add(
        row(
            eventType,
            1,
            "/apex/Page",
            "CRLF inside",
            "Class.OpportunityUtility.insert: line 22, column 1\r\nAnonymousBlock: line 1, column 1",
            "",
            user,
            user18));
    rows.add(
        row(
            eventType,
            2,
            "/aura",
            "LF inside",
            "Class.Foo.bar: line 7, column 1\nTrigger.AccountTrigger: line 3, column 1",
            "",
            user,
            user18));
    rows.add(row(eventType, 3, "/aura", "lone CR\rinside", "", "", user, user18));
    rows.add(
        row(eventType, 4, "/x", "He said \"hi\" and \"\"twice\"\"", "\"", "\"\"", user, user18));
    rows.add(
        row(
            eventType,
            5,
            "/ünïcödé",
            "Grüße, 日本語, emoji 😀🚀 and 𝄞",
            "ß",
            "SELECT Name FROM Account WHERE Name = '東京'",
            user,
            user18));
    rows.add(row(eventType, 6, "", "", "", "", "", ""));
    rows.add(row(eventType, 7, "/big", big(bigFieldBytes), "", "", user, user18));
    ByteArrayOutputStream bos = new ByteArrayOutputStream(bigFieldBytes + 4096);
    try {
      CsvWriter w = ElfRowGenerator.csvWriterBuilder().build(bos, StandardCharsets.UTF_8);
      w.writeRecord(header);
      for (List<String> r : rows) {
        w.writeRecord(r);
      }
      w.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new HardCaseCsv(bos.toByteArray(), header, List.copyOf(rows));
  }

  private static List<String> row(
      String eventType,
      int i,
      String uri,
      String message,
      String stack,
      String query,
      String user,
      String user18) {
    long millis = 1_717_566_077_937L + i * 1000L;
    return List.of(
        eventType,
        ElfRowGenerator.compactTimestamp(millis),
        "4exLFFQZ5cLxnxkY1Uv8V" + i,
        "00Dxx0000000001",
        user,
        uri,
        message,
        stack,
        query,
        ElfRowGenerator.isoTimestamp(millis),
        user18);
  }

  private static String big(int bytes) {
    StringBuilder sb = new StringBuilder(bytes);
    String unit = "0123456789abcdef,\"quoted\"\n";
    while (sb.length() + unit.length() <= bytes) {
      sb.append(unit);
    }
    while (sb.length() < bytes) {
      sb.append('x');
    }
    return sb.toString();
  }
}
