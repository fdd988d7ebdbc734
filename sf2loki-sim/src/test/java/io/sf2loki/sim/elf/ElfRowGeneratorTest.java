package io.sf2loki.sim.elf;

import static org.assertj.core.api.Assertions.assertThat;

import de.siegmar.fastcsv.reader.CsvReader;
import de.siegmar.fastcsv.reader.CsvRecord;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class ElfRowGeneratorTest {

  private static List<List<String>> parse(byte[] csv) throws IOException {
    List<List<String>> out = new ArrayList<>();
    try (CsvReader<CsvRecord> r =
        CsvReader.builder().ofCsvRecord(new String(csv, StandardCharsets.UTF_8))) {
      for (CsvRecord rec : r) {
        out.add(rec.getFields());
      }
    }
    return out;
  }

  @Test
  @DisplayName("FEAT-17: same seed gives the same bytes, another seed different bytes")
  void deterministic() {
    byte[] a = ElfRowGenerator.builder("Login").seed(7).build().csv(200);
    byte[] b = ElfRowGenerator.builder("Login").seed(7).build().csv(200);
    byte[] c = ElfRowGenerator.builder("Login").seed(8).build().csv(200);
    assertThat(a).isEqualTo(b);
    assertThat(a).isNotEqualTo(c);
  }

  @Test
  @DisplayName("ELF-9: generated CSV round-trips through FastCSV (RFC 4180), every field quoted")
  void roundTrip() throws IOException {
    for (String type : ElfRowGenerator.knownEventTypes()) {
      ElfRowGenerator g = ElfRowGenerator.builder(type).seed(3).build();
      byte[] csv = g.csv(50);
      List<List<String>> parsed = parse(csv);
      assertThat(parsed.get(0)).as(type).isEqualTo(g.header());
      assertThat(parsed.subList(1, parsed.size())).as(type).isEqualTo(g.rows(50).toList());
      String text = new String(csv, StandardCharsets.UTF_8);
      assertThat(text).startsWith("\"EVENT_TYPE\",").endsWith("\"\n");
    }
  }

  @Test
  @DisplayName("FEAT-17: realistic values: ids, timestamps, row size")
  void realisticValues() {
    ElfRowGenerator g =
        ElfRowGenerator.builder("Login")
            .seed(1)
            .organizationId("00Dxx0000000001EAA")
            .start(Instant.parse("2024-06-05T04:00:00Z"))
            .step(Duration.ofMillis(1500))
            .build();
    List<String> h = g.header();
    List<String> row = g.row(3);
    assertThat(row.get(h.indexOf("EVENT_TYPE"))).isEqualTo("Login");
    assertThat(row.get(h.indexOf("TIMESTAMP"))).isEqualTo("20240605040004.500");
    assertThat(row.get(h.indexOf("TIMESTAMP_DERIVED"))).isEqualTo("2024-06-05T04:00:04.500Z");
    assertThat(row.get(h.indexOf("ORGANIZATION_ID"))).isEqualTo("00Dxx0000000001");
    String user = row.get(h.indexOf("USER_ID"));
    assertThat(user).hasSize(15).startsWith("005");
    assertThat(row.get(h.indexOf("USER_ID_DERIVED"))).hasSize(18).startsWith(user);
    assertThat(row.get(h.indexOf("REQUEST_ID"))).hasSize(22);
    assertThat(g.row(3)).isEqualTo(row);

    long bytes = g.csv(1000).length;
    assertThat(bytes / 1000).isBetween(300L, 1100L);
    assertThat(SalesforceIds.id18("005000000000001")).isEqualTo("005000000000001AAA");
    assertThat(SalesforceIds.id18("001D000000IRt53")).isEqualTo("001D000000IRt53IAD");
  }

  @Test
  @DisplayName("ELF-9: the hard-case file parses back to the same values")
  void hardCases() throws IOException {
    HardCaseCsv hc = HardCaseCsv.build();
    List<List<String>> parsed = parse(hc.csv());
    assertThat(parsed.get(0)).isEqualTo(hc.header());
    assertThat(parsed.subList(1, parsed.size())).isEqualTo(hc.rows());
    String all = String.join("|", hc.rows().stream().flatMap(List::stream).toList());
    assertThat(all).contains("\r\n", "😀", "\"\"twice\"\"", ", commas,");
    assertThat(hc.rows().stream().flatMap(List::stream).mapToInt(String::length).max().orElse(0))
        .isGreaterThan(256 * 1024);
  }

  @Test
  @DisplayName("ELF-8: a generated file streams the same bytes as the in-memory CSV")
  void streamingMatches() throws IOException {
    ElfRowGenerator g = ElfRowGenerator.builder("ApexCallout").seed(11).build();
    GeneratedLogFile f = new GeneratedLogFile(g, 2_000);
    ByteArrayOutputStream bos = new ByteArrayOutputStream();
    try (InputStream in = f.open()) {
      byte[] buf = new byte[777];
      int n;
      while ((n = in.read(buf)) >= 0) {
        bos.write(buf, 0, n);
      }
    }
    assertThat(bos.toByteArray()).isEqualTo(g.csv(2_000));
    assertThat(f.lengthKnown()).isFalse();
    assertThat(f.length()).isEqualTo(bos.size());
    assertThat(f.lengthKnown()).isTrue();
    assertThat(f.expectedRows().count()).isEqualTo(2_000);
    try (InputStream in = new GeneratedLogFile(g, 0).open()) {
      assertThat(new String(in.readAllBytes(), StandardCharsets.UTF_8))
          .isEqualTo(new String(g.csv(0), StandardCharsets.UTF_8));
    }
  }
}
