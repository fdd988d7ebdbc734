package io.sf2loki.salesforce.elf;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.opentelemetry.sdk.metrics.SdkMeterProvider;
import io.sf2loki.core.metrics.Sf2lokiMetrics;
import io.sf2loki.core.model.CheckpointToken;
import io.sf2loki.core.model.LogEntry;
import io.sf2loki.core.shape.CanonicalJson;
import io.sf2loki.core.shape.StructuredMetadataExtractor;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

class CsvRowTest {
  private static final String[] NAMES = {"A", "B", "_extra", "USER_ID", "Ü", "TIMESTAMP", "a"};

  /** The row map exactly as ElfCsvReader built it before CsvRow (the ELF-9 reference). */
  private static Map<String, Object> reference(String[] header, List<String> cells) {
    Map<String, Object> row = new HashMap<>();
    int n = cells.size();
    for (int i = 0; i < header.length; i++) {
      row.put(header[i], i < n ? cells.get(i) : "");
    }
    if (n > header.length) {
      StringBuilder extra = new StringBuilder();
      for (int i = header.length; i < n; i++) {
        if (i > header.length) {
          extra.append(',');
        }
        extra.append(cells.get(i));
      }
      row.put("_extra", extra.toString());
    }
    return row;
  }

  @RepeatedTest(200)
  @DisplayName("ELF-9: a CsvRow equals the dict-from-header map (duplicates, missing, extra cells)")
  void elf9_sameAsHashMap() {
    long seed = System.nanoTime();
    Random r = new Random(seed);
    String[] header = new String[1 + r.nextInt(6)];
    for (int i = 0; i < header.length; i++) {
      header[i] = NAMES[r.nextInt(NAMES.length)];
    }
    List<String> cells = new ArrayList<>();
    int n = r.nextInt(header.length + 3);
    for (int i = 0; i < n; i++) {
      cells.add(r.nextBoolean() ? "v" + i : "x,\"é\u2028" + i);
    }
    Map<String, Object> ref = reference(header, cells);
    CsvRow row = new CsvRow(new CsvRow.Layout(header), cells);
    String why = "seed " + seed;
    assertThat(row).as(why).isEqualTo(ref);
    assertThat(ref).as(why).isEqualTo(row);
    assertThat(row.size()).as(why).isEqualTo(ref.size());
    assertThat(row.keySet()).as(why).isEqualTo(ref.keySet());
    assertThat(row.hashCode()).as(why).isEqualTo(ref.hashCode());
    for (String k : NAMES) {
      assertThat(row.get(k)).as(why + " " + k).isEqualTo(ref.get(k));
      assertThat(row.containsKey(k)).as(why + " " + k).isEqualTo(ref.containsKey(k));
    }
    assertThat(row.toMutableMap()).as(why).isEqualTo(ref);
    // SRC-7: the pre-sorted writer over the cells gives the same line as the map
    assertThat(lineOf(header, row)).as(why).isEqualTo(CanonicalJson.write(ref));
    // SRC-9: metadata compiled for the header equals the per-payload resolution
    StructuredMetadataExtractor md =
        new StructuredMetadataExtractor(List.of("user_id", "A", "_extra", "a", "ü"));
    assertThat(md.compile(row.layout().allKeys()).extractSubset(row))
        .as(why)
        .isEqualTo(md.extract(ref));
  }

  private static String lineOf(String[] header, CsvRow row) {
    RowShaper.FileContext ctx =
        new RowShaper.FileContext(null, Instant.EPOCH, new CheckpointToken("k", "v"));
    ctx.header(List.of(header));
    return ctx.line(row);
  }

  @Test
  @DisplayName("ELF-9: a CsvRow is read-only; transforms get a mutable copy")
  void elf9_readOnly() {
    CsvRow row = new CsvRow(new CsvRow.Layout(new String[] {"A"}), List.of("1"));
    assertThatThrownBy(() -> row.put("A", "2")).isInstanceOf(UnsupportedOperationException.class);
    Map<String, Object> copy = row.toMutableMap();
    copy.put("A", "2");
    assertThat(copy).containsEntry("A", "2");
    assertThat(row).containsEntry("A", "1");
  }

  @Test
  @DisplayName("SRC-7: a shaped entry's lineBytes equals the UTF-8 length of its line")
  void src7_lineBytesIsUtf8Length() {
    Sf2lokiMetrics metrics = new Sf2lokiMetrics(SdkMeterProvider.builder().build(), "test");
    RowShaper shaper =
        new RowShaper(
            "Login",
            "TIMESTAMP_DERIVED",
            List.of("A"),
            1.0,
            List.of("A"),
            RowTransform.NONE,
            metrics);
    String[] header = {"A", "TIMESTAMP_DERIVED", "Ü"};
    RowShaper.FileContext ctx =
        new RowShaper.FileContext(null, Instant.now(), new CheckpointToken("k", "v"));
    ctx.header(List.of(header));
    CsvRow row =
        new CsvRow(
            new CsvRow.Layout(header),
            List.of("é😀\u0000\"", "2024-06-05T05:41:17.937Z", "x", "extra,cell"));
    LogEntry e = shaper.shape(row, ctx);
    assertThat(e.lineBytes()).isEqualTo(LogEntry.utf8Length(e.line()));
    assertThat(e.line()).isEqualTo(CanonicalJson.write(row.toMutableMap()));
    LogEntry second = shaper.shape(row, ctx);
    assertThat(second.labels()).isSameAs(e.labels()).containsEntry("A", "é😀\u0000\"");
  }
}
