package io.sf2loki.salesforce.elf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sf2loki.salesforce.elf.ElfCsvReader.ElfCsvParseException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ElfCsvReaderTest {

  private static List<Map<String, Object>> readAll(byte[] body) throws Exception {
    try (ElfCsvReader r = new ElfCsvReader(new ByteArrayInputStream(body))) {
      List<Map<String, Object>> rows = new ArrayList<>();
      Map<String, Object> row;
      while ((row = r.next()) != null) {
        rows.add(row);
      }
      return rows;
    }
  }

  private static List<Map<String, Object>> readAll(String body) throws Exception {
    return readAll(body.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  @DisplayName("ELF-9: quoted commas, embedded CR/LF and doubled quotes")
  void elf9_rfc4180QuotedFields() throws Exception {
    List<Map<String, Object>> rows =
        readAll(
            "\"A\",\"B\"\r\n\"x, y\",\"line1\r\nline2\nline3\"\r\n\"say \"\"hi\"\"\",plain\r\n");
    assertThat(rows).hasSize(2);
    assertThat(rows.get(0)).containsEntry("A", "x, y").containsEntry("B", "line1\r\nline2\nline3");
    assertThat(rows.get(1)).containsEntry("A", "say \"hi\"").containsEntry("B", "plain");
  }

  @Test
  @DisplayName("ELF-9: multi-byte UTF-8 kept, leading BOM removed from the first header name")
  void elf9_utf8AndBom() throws Exception {
    byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
    byte[] text = "\"NAME\",\"CITY\"\n\"Zoë 日本 😀\",\"München\"\n".getBytes(StandardCharsets.UTF_8);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(bom);
    out.write(text);
    List<Map<String, Object>> rows = readAll(out.toByteArray());
    assertThat(rows).containsExactly(Map.of("NAME", "Zoë 日本 😀", "CITY", "München"));
  }

  @Test
  @DisplayName("ELF-9: an invalid UTF-8 byte becomes U+FFFD")
  void elf9_invalidUtf8Replaced() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write("A,B\nab".getBytes(StandardCharsets.UTF_8));
    out.write(0xFF);
    out.write("c,d\n".getBytes(StandardCharsets.UTF_8));
    List<Map<String, Object>> rows = readAll(out.toByteArray());
    assertThat(rows).containsExactly(Map.of("A", "ab\uFFFDc", "B", "d"));
  }

  @Test
  @DisplayName("ELF-9: extra cells joined under _extra, missing cells are empty strings")
  void elf9_extraAndMissingCells() throws Exception {
    List<Map<String, Object>> rows = readAll("A,B\n1,2,3,4\n5\n");
    assertThat(rows.get(0)).isEqualTo(Map.of("A", "1", "B", "2", "_extra", "3,4"));
    assertThat(rows.get(1)).isEqualTo(Map.of("A", "5", "B", ""));
  }

  @Test
  @DisplayName(
      "ELF-9: empty physical lines (blank trailing line, blank line between rows) are no record")
  void elf9_emptyLinesSkipped() throws Exception {
    assertThat(readAll("A,B\n1,2\n\n3,4\n\n")).hasSize(2);
    assertThat(readAll("A,B\r\n1,2\r\n\r\n")).hasSize(1);
    assertThat(readAll("A,B\n1,2")).hasSize(1);
  }

  @Test
  @DisplayName("ELF-9/ELF-10: header-only and empty bodies have zero rows")
  void elf9_zeroRows() throws Exception {
    assertThat(readAll("A,B\n")).isEmpty();
    assertThat(readAll("")).isEmpty();
  }

  @Test
  @DisplayName("ELF-9: a field of 1 MiB is accepted; a longer one is a parse error with its row")
  void elf9_fieldSizeLimit() throws Exception {
    String big = "x".repeat(ElfCsvReader.MAX_FIELD_CHARS);
    assertThat(readAll("A\n\"" + big + "\"\n").get(0).get("A")).isEqualTo(big);
    String tooBig = big + "y";
    assertThatThrownBy(() -> readAll("A\nok\n\"" + tooBig + "\"\n"))
        .isInstanceOf(ElfCsvParseException.class)
        .satisfies(e -> assertThat(((ElfCsvParseException) e).row()).isEqualTo(2));
  }

  @Test
  @DisplayName(
      "ELF-9: an unclosed quote (truncated body) and text after a closing quote are parse errors")
  void elf9_malformedQuotesAreParseErrors() {
    assertThatThrownBy(() -> readAll("A,B\n1,2\n\"open,3\n"))
        .isInstanceOf(ElfCsvParseException.class);
    assertThatThrownBy(() -> readAll("A,B\n\"x\"y,2\n")).isInstanceOf(ElfCsvParseException.class);
  }

  @Test
  @DisplayName("ELF-9: real samples parse with header-driven columns")
  void elf9_realSamples() throws Exception {
    List<Map<String, Object>> login = readAll(resource("sfdc_elf_Login_first300rows.csv"));
    assertThat(login).hasSize(300);
    assertThat(login.get(0))
        .containsEntry("EVENT_TYPE", "Login")
        .containsEntry("TIMESTAMP", "20150726000001.397")
        .containsEntry("USER_NAME", "ak@at.com")
        .hasSize(16);
    List<Map<String, Object>> ui = readAll(resource("sfdc_elf_UITracking.csv"));
    assertThat(ui).hasSize(30).allSatisfy(r -> assertThat(r).hasSize(42));
    List<Map<String, Object>> apex =
        readAll(resource("reconstructed_ApexUnexpectedException_multiline.csv"));
    assertThat(apex).hasSize(3);
    assertThat((String) apex.get(0).get("STACK_TRACE"))
        .isEqualTo(
            "Class.OpportunityUtility.insert: line 22, column 1\r\nAnonymousBlock: line 1, column 1");
  }

  static byte[] resource(String name) throws Exception {
    try (InputStream in = ElfCsvReaderTest.class.getResourceAsStream("/elf/" + name)) {
      return in.readAllBytes();
    }
  }
}
