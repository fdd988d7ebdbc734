package io.sf2loki.salesforce.elf;

import static org.assertj.core.api.Assertions.assertThat;

import com.code_intelligence.jazzer.junit.FuzzTest;
import io.sf2loki.salesforce.elf.ElfCsvReader.ElfCsvParseException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;

/**
 * Fuzz target: the EventLogFile CSV reader on hostile bodies (quotes, CR/LF inside fields, BOMs,
 * invalid UTF-8, fields past the 1 MiB limit). Contract (ELF-9): every body yields rows or an
 * {@link ElfCsvParseException}; nothing else is thrown and every row has only the header's keys
 * plus {@code _extra}, none null. An input starting with byte {@code 0x00} is amplified: the rest
 * is repeated to just past {@link ElfCsvReader#MAX_FIELD_CHARS} bytes, so huge fields are reached.
 * Committed inputs replay in the default build (ElfCsvReaderFuzzTestInputs/); {@code -Pfuzz}
 * fuzzes.
 */
class ElfCsvReaderFuzzTest {
  private static final int AMPLIFIED_BYTES = ElfCsvReader.MAX_FIELD_CHARS + 4096;

  @DisplayName("ELF-9: a hostile CSV body yields rows or ElfCsvParseException, nothing else")
  @FuzzTest(maxDuration = "30s")
  void elf9_fuzzCsvBody(byte[] input) throws Exception {
    byte[] body = input.length > 1 && input[0] == 0 ? amplify(input) : input;
    try (ElfCsvReader reader = new ElfCsvReader(new ByteArrayInputStream(body))) {
      Map<String, Object> row;
      while ((row = reader.next()) != null) {
        for (Map.Entry<String, Object> e : row.entrySet()) {
          assertThat(e.getValue()).isNotNull();
          assertThat(
                  reader.header().contains(e.getKey()) || ElfCsvReader.EXTRA_KEY.equals(e.getKey()))
              .isTrue();
        }
      }
    } catch (ElfCsvParseException expected) {
      assertThat(expected.row()).isNotNegative();
    }
  }

  private static byte[] amplify(byte[] input) {
    byte[] unit = Arrays.copyOfRange(input, 1, input.length);
    ByteArrayOutputStream out = new ByteArrayOutputStream(AMPLIFIED_BYTES + unit.length);
    while (out.size() < AMPLIFIED_BYTES) {
      out.writeBytes(unit);
    }
    return out.toByteArray();
  }
}
